import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";
import type { Submission } from "../common/submission.js";
import { startCluster, type Cluster } from "./cluster.js";
import { startPrivatePostgres, type PrivatePostgres } from "./postgres.js";
import { loop, send, sleep, succeeded, summarize, type Outcome } from "./traffic.js";

/**
 * PostgreSQL going away under traffic. The cluster runs on a PostgreSQL server of this test's own
 * (the machine's shared one is never restarted under the other tests): restarted with
 * `pg_ctl restart -m fast`, then stopped for a while and started again, while clients keep sending
 * reads, edits and sign-ins through nginx.
 */

let postgres: PrivatePostgres;
let cluster: Cluster;
let admin: TestUser;
let submission: Submission;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  cluster = await startCluster({
    servers: 3,
    postgresUrl: postgres.url,
    // The sign-ins here are traffic, not an attack: the per-address limit is out of the way.
    env: { RATE_LIMIT_SIGN_IN: "1000000" },
  });
  admin = await createUser(cluster.db, "admin");
  submission = await makeSubmission(cluster.db, { studentName: "Restart Test" });
});
afterAll(async () => {
  await cluster?.stop();
  await postgres?.destroy();
});

/** A stack trace's line ("    at fn (file.js:1:2)") or a raw driver message in a body. */
const LEAKS = /\n\s+at |node_modules|ECONNREFUSED|terminating connection/;

/**
 * Writes answered 409 right after a write answered 503. A 503 does not say whether the edit was
 * stored: PostgreSQL may have committed it as the restart cut the connection, before the server
 * read the acknowledgement. The client's next edit, on the version it had, then conflicts, and the
 * 409 carries the current version: a clear answer, not a fault.
 */
const conflictsAfterUnknownOutcome = new WeakSet<Outcome>();

function trafficOf(base: string, stopped: () => boolean, into: Outcome[]) {
  const auth = admin.bearer;
  let version = 1;
  let lastWriteUnknown = false;
  const reads = loop(
    stopped,
    () =>
      Promise.all([
        send(base, "/api/submissions?q=Restart&page=1", { headers: auth }),
        send(base, `/api/submissions/${encodeURIComponent(submission.indexNumber)}`, {
          headers: auth,
        }),
      ]),
    into,
  );
  let n = 0;
  const writes = loop(
    stopped,
    async () => {
      n += 1;
      const o = await send(base, `/api/admin/submissions/${submission.id}`, {
        method: "PATCH",
        headers: auth,
        json: { version, changes: { contact: `restart-${Date.now()}-${n}` } },
      });
      if (o.status === 200)
        version = (JSON.parse(o.body) as { data: { version: number } }).data.version;
      if (o.status === 409) {
        version = (JSON.parse(o.body) as { current: { version: number } }).current.version;
        if (lastWriteUnknown) conflictsAfterUnknownOutcome.add(o);
      }
      lastWriteUnknown = o.status === 503;
      return o;
    },
    into,
  );
  const signIns = loop(
    stopped,
    () =>
      send(base, "/api/user_sign_in", {
        method: "POST",
        json: { email: "nobody@school.test", password: "not the password" },
      }),
    into,
  );
  return Promise.all([reads, writes, signIns]);
}

/** What every answer must be, up or down: the usual ones, or a clear 503. Never a 500. */
function expectOnlyClearAnswers(outcomes: Outcome[]) {
  const unexpected = outcomes.filter((o) => {
    if (o.status === null) return true;
    if (succeeded(o)) return false;
    if (o.path === "/api/user_sign_in" && o.status === 401) return false;
    if (conflictsAfterUnknownOutcome.has(o)) return false;
    if (o.status !== 503) return true;
    const body = JSON.parse(o.body) as { success?: boolean; code?: string; message?: string };
    return !(
      body.success === false &&
      body.code === "unavailable" &&
      /try again/i.test(body.message ?? "")
    );
  });
  expect(unexpected, summarize(unexpected)).toEqual([]);
  const leaking = outcomes.filter((o) => LEAKS.test(o.body));
  expect(leaking, summarize(leaking)).toEqual([]);
}

async function expectAllServersAnswer(timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (const server of [...cluster.servers.map((s) => s.url), cluster.url]) {
    for (;;) {
      const read = await send(server, `/api/admin/submissions/${submission.id}`, {
        headers: admin.bearer,
      });
      const signIn = await send(server, "/api/user_sign_in", {
        method: "POST",
        json: { email: "nobody@school.test", password: "not the password" },
      });
      if (read.status === 200 && signIn.status === 401) break;
      if (Date.now() > deadline) {
        throw new Error(`${server} did not recover:\n${summarize([read, signIn])}`);
      }
      await sleep(100);
    }
  }
}

const count = (outcomes: Outcome[], status: number | null) =>
  outcomes.filter((o) => o.status === status).length;

describe("PostgreSQL restarted under traffic", () => {
  it("answers 503 with a clear message while it is down and recovers without restarting a server", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const pids = cluster.servers.map((s) => s.child.pid);

    // 1. pg_ctl restart -m fast: every connection is cut, the server is back a moment later.
    const duringRestart: Outcome[] = [];
    let stopped = false;
    const traffic = trafficOf(cluster.url, () => stopped, duringRestart);
    await sleep(500);
    await postgres.restart();
    await sleep(500);
    stopped = true;
    await traffic;
    expectOnlyClearAnswers(duringRestart);
    await expectAllServersAnswer();

    // 2. Down for a while: through nginx and straight to each server, every request is refused
    // with 503, quickly, and nothing is half-written.
    await postgres.stopServer();
    const whileDown: Outcome[] = [];
    stopped = false;
    const downTraffic = trafficOf(cluster.url, () => stopped, whileDown);
    for (const server of cluster.servers) {
      whileDown.push(
        await send(server.url, `/api/admin/submissions/${submission.id}`, {
          headers: admin.bearer,
        }),
      );
      whileDown.push(
        await send(server.url, "/api/user_sign_in", {
          method: "POST",
          json: { email: "nobody@school.test", password: "not the password" },
        }),
      );
    }
    await sleep(1500);
    stopped = true;
    await downTraffic;
    expectOnlyClearAnswers(whileDown);
    expect(count(whileDown, 503)).toBe(whileDown.length);
    await postgres.startServer();

    // 3. Back: every server answers again, the same processes as before.
    await expectAllServersAnswer();
    expect(cluster.servers.map((s) => s.child.pid)).toEqual(pids);
    expect(cluster.servers.every((s) => s.child.running())).toBe(true);

    console.log(
      `PostgreSQL restart: ${duringRestart.length} requests around pg_ctl restart (${count(duringRestart, 503)} answered 503, ` +
        `0 answered 500); ${whileDown.length} requests while it was stopped, all 503`,
    );
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { csvLine } from "../server/submissions/csv.js";
import type { Submission } from "../common/submission.js";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";
import { startCluster, type AppServer, type Cluster } from "./cluster.js";
import { testPostgresUrl } from "./postgres.js";
import { loop, send, sleep, succeeded, summarize, type Outcome } from "./traffic.js";

/**
 * Servers dying: three app servers behind nginx on one PostgreSQL database, one of them killed
 * with SIGKILL (no shutdown, no cleanup) in the middle of traffic and in the middle of an import.
 */

let cluster: Cluster;
let admin: TestUser;

beforeAll(async () => {
  cluster = await startCluster({ servers: 3, postgresUrl: testPostgresUrl() });
  admin = await createUser(cluster.db, "admin");
});
afterAll(async () => {
  await cluster?.stop();
});

const portOf = (server: AppServer) => `127.0.0.1:${server.port}`;
/** The app server that finally answered (nginx lists every one it tried, the last answered). */
const answeredBy = (o: Outcome) => o.upstream?.split(",").at(-1)?.trim() ?? null;

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(20);
  }
}

/**
 * Administrators at work through nginx: readers (the list, a status, a record) and writers, each
 * editing its own submission (no conflicts between writers), two fields at a time, with the
 * version it last saw, as the admin's edit form does. After a write without a 2xx answer the
 * writer reads the version again and goes on.
 */
function startEditing(
  submissions: Submission[],
  auth: Record<string, string>,
  options: { fresh?: boolean } = {},
) {
  let stopped = false;
  const reads: Outcome[] = [];
  const writes: Outcome[] = [];
  /** Writes answered 2xx: these must all be in the database afterwards. */
  const acknowledged: { id: number; version: number; contact: string }[] = [];
  /** Writes with no 2xx answer (cut off): either stored whole or not at all. */
  const unacknowledged: { id: number; contact: string }[] = [];

  const currentVersion = async (id: number): Promise<number> => {
    for (;;) {
      const o = await send(cluster.url, `/api/admin/submissions/${id}`, {
        ...options,
        headers: auth,
      });
      if (o.status === 200)
        return (JSON.parse(o.body) as { data: { version: number } }).data.version;
      await sleep(50);
    }
  };
  const writer = async (s: Submission) => {
    let version = s.version;
    let n = 0;
    await loop(
      () => stopped,
      async () => {
        n += 1;
        const contact = `w${s.id}-${n}-${Date.now()}`;
        const o = await send(cluster.url, `/api/admin/submissions/${s.id}`, {
          ...options,
          method: "PATCH",
          headers: auth,
          json: { version, changes: { contact, studentName: `Edit Test ${s.id} ${n}` } },
        });
        if (o.status === 200) {
          version = (JSON.parse(o.body) as { data: { version: number } }).data.version;
          acknowledged.push({ id: s.id, version, contact });
        } else {
          unacknowledged.push({ id: s.id, contact });
          version = await currentVersion(s.id);
        }
        return o;
      },
      writes,
    );
  };
  const reader = async (r: number) => {
    let n = 0;
    await loop(
      () => stopped,
      async () => {
        n += 1;
        const s = submissions[(n + r) % submissions.length]!;
        const paths = [
          "/api/submissions?q=Edit&page=1&pageSize=20",
          `/api/submissions/${encodeURIComponent(s.indexNumber)}`,
          `/api/admin/submissions/${s.id}`,
        ];
        return send(cluster.url, paths[n % paths.length]!, { ...options, headers: auth });
      },
      reads,
    );
  };
  const clients = [...submissions.map((s) => writer(s)), ...[0, 1, 2].map((r) => reader(r))];
  return {
    reads,
    writes,
    acknowledged,
    unacknowledged,
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

async function editableSubmissions(label: string): Promise<Submission[]> {
  return Promise.all(
    [1, 2, 3].map((n) =>
      makeSubmission(cluster.db, {
        studentName: `Edit Test ${label} ${n}`,
        contact: `start-${label}-${n}`,
      }),
    ),
  );
}

/**
 * Every acknowledged write is stored, and no write is half-done: each version bump has both its
 * events, one per field, and the events chain from the first value to the stored one with nothing
 * missing between. Returns how many writes without an answer were nonetheless stored (whole).
 */
async function expectEditsWhole(
  submissions: Submission[],
  traffic: ReturnType<typeof startEditing>,
): Promise<number> {
  const ids = submissions.map((s) => s.id);
  const events = await cluster.db
    .selectFrom("submission_events")
    .select(["id", "submission_id", "field", "from_value", "to_value", "at"])
    .where("submission_id", "in", ids)
    .where("kind", "=", "edit")
    .orderBy("id")
    .execute();
  const stored = await cluster.db
    .selectFrom("submissions")
    .select(["id", "version", "contact"])
    .where("id", "in", ids)
    .execute();
  for (const write of traffic.acknowledged) {
    expect(
      events.some(
        (e) =>
          e.submission_id === write.id && e.field === "contact" && e.to_value === write.contact,
      ),
      `acknowledged write ${write.contact} is stored`,
    ).toBe(true);
    expect(stored.find((s) => s.id === write.id)!.version).toBeGreaterThanOrEqual(write.version);
  }
  for (const s of submissions) {
    const row = stored.find((r) => r.id === s.id)!;
    const mine = events.filter((e) => e.submission_id === s.id);
    const contactEvents = mine.filter((e) => e.field === "contact");
    const nameEvents = mine.filter((e) => e.field === "studentName");
    expect(contactEvents).toHaveLength(row.version - s.version);
    expect(nameEvents).toHaveLength(row.version - s.version);
    expect(contactEvents.map((e) => e.at)).toEqual(nameEvents.map((e) => e.at));
    const chain = [s.contact, ...contactEvents.map((e) => e.to_value)];
    expect(contactEvents.map((e) => e.from_value)).toEqual(chain.slice(0, -1));
    expect(chain.at(-1)).toBe(row.contact);
  }
  let storedWhole = 0;
  for (const write of traffic.unacknowledged) {
    const event = events.find((e) => e.field === "contact" && e.to_value === write.contact);
    if (event) {
      storedWhole += 1;
      expect(events.filter((e) => e.submission_id === write.id && e.at === event.at)).toHaveLength(
        2,
      );
    }
  }
  return storedWhole;
}

const statuses = (outcomes: Outcome[]) =>
  outcomes.map((o) => o.status ?? "no answer").join(", ") || "none";

describe("kill -9 of one of three servers under reads and writes", () => {
  it("keeps every read answering, keeps every acknowledged write, and leaves no write half-done", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const victim = cluster.servers[1]!;
    const submissions = await editableSubmissions("kill");
    const traffic = startEditing(submissions, admin.bearer);
    await sleep(1500);
    const killedAt = Date.now();
    await cluster.kill(victim, "SIGKILL");
    await sleep(4000);
    await traffic.stop();
    // Started again at once, before the checks: a failed check must not leave the next test a
    // server short (it once found this victim's SIGKILL where it expected its own SIGTERM's exit).
    await cluster.restart(victim);
    const { reads, writes } = traffic;

    // A read the victim had begun to answer when it died cannot be retried: nginx has passed its
    // headers on, and the client sees the answer cut off (no status), never a wrong one. Every
    // other read, and every read sent after the kill, is answered.
    const cutOffMidAnswer = (o: Outcome) =>
      o.status === null && o.startedAt <= killedAt && o.endedAt >= killedAt;
    const failedReads = reads.filter((o) => !succeeded(o) && !cutOffMidAnswer(o));
    const writesCutOff = writes.filter((o) => !succeeded(o));
    // Traffic really was spread over the three servers, and the victim really stopped answering.
    const before = new Set(reads.filter((o) => o.endedAt < killedAt).map(answeredBy));
    expect(before).toEqual(new Set(cluster.servers.map(portOf)));
    const after = reads.filter((o) => o.startedAt > killedAt);
    expect(after.length).toBeGreaterThan(50);
    expect(after.map(answeredBy)).not.toContain(portOf(victim));

    // Reads: nginx retries a GET the dead server did not answer on another server.
    expect(failedReads, summarize(failedReads)).toEqual([]);
    // A write cut off is answered by nginx (502: the server closed the connection), never a 500.
    for (const o of writesCutOff) expect(o.status, summarize([o])).toBe(502);
    const storedWhole = await expectEditsWhole(submissions, traffic);
    console.log(
      `kill -9 under traffic: ${reads.length} reads (${after.length} after the kill), ${failedReads.length} failed; ` +
        `${writes.length} writes, ${traffic.acknowledged.length} acknowledged and all stored, ` +
        `${writesCutOff.length} cut off (${statuses(writesCutOff)}), of which ${storedWhole} stored whole and the others not at all`,
    );

    // The killed server, started again, takes traffic again without touching the others.
    await waitUntil("nginx sends reads to the restarted server again", async () => {
      const o = await send(cluster.url, "/api/submissions?q=Edit&page=1", {
        headers: admin.bearer,
      });
      return succeeded(o) && answeredBy(o) === portOf(victim);
    });
  });
});

describe("a rolling restart under reads and writes", () => {
  it("drains, stops with SIGTERM and starts each server in turn with no read or write failing", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const submissions = await editableSubmissions("rolling");
    // Draining reloads nginx, which closes its idle connections to clients (see `fresh`).
    const traffic = startEditing(submissions, admin.bearer, { fresh: true });
    await sleep(500);
    for (const server of cluster.servers) {
      const pid = server.child.pid;
      // As docs/deploy.md says: out of nginx first, so no request is on its way to it when it
      // closes; SIGTERM lets what it is doing finish; back into nginx once it is ready.
      await cluster.drain(server);
      await cluster.kill(server, "SIGTERM");
      expect(await server.child.exited).toEqual({ code: 0, signal: null });
      await cluster.restart(server);
      expect(server.child.pid).not.toBe(pid);
      await cluster.restore(server);
      await sleep(300);
    }
    await sleep(500);
    await traffic.stop();
    const { reads, writes } = traffic;
    const failedReads = reads.filter((o) => !succeeded(o));
    const failedWrites = writes.filter((o) => !succeeded(o));
    console.log(
      `rolling restart: ${reads.length} reads, ${failedReads.length} failed, ` +
        `${reads.filter((o) => o.resent).length} resent after nginx closed their connection; ` +
        `${writes.length} writes, ${failedWrites.length} failed (${statuses(failedWrites)})`,
    );
    expect(failedReads, summarize(failedReads)).toEqual([]);
    expect(failedWrites, summarize(failedWrites)).toEqual([]);
    await expectEditsWhole(submissions, traffic);
    // The last server restored takes its share again.
    await waitUntil("nginx sends reads to the last restarted server", async () => {
      const o = await send(cluster.url, "/api/submissions?q=Edit&page=1", {
        headers: admin.bearer,
      });
      return succeeded(o) && answeredBy(o) === portOf(cluster.servers.at(-1)!);
    });
  });
});

describe("kill -9 during an import", () => {
  const ROWS = 30_000;
  const HEADER = ["StudentName", "IndexNumber", "Programme"];
  const csv = [
    HEADER,
    ...Array.from({ length: ROWS }, (_, i) => [
      `Imported Student ${i}`,
      `IMP${String(i).padStart(6, "0")}`,
      "MPhil Economics",
    ]),
  ]
    .map((row) => csvLine(row))
    .join("");
  const upload = () => {
    const form = new FormData();
    form.append("file", new Blob([csv], { type: "text/csv" }), "records.csv");
    return form;
  };
  const imported = async () =>
    Number(
      (
        await cluster.db
          .selectFrom("submissions")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("index_number", "like", "IMP%")
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Whether some other connection holds a write lock on submissions: the import is inserting. */
  const importWriting = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
      where c.relname = 'submissions' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()
        and l.database = (select oid from pg_database where datname = current_database())`.execute(
      cluster.db,
    );
    return (rows[0]?.n ?? 0) > 0;
  };

  it("leaves none of the rows when the server dies mid-transaction, and all of them when applied again", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const target = cluster.servers[0]!;
    const request = send(target.url, "/api/admin/import/apply", {
      method: "POST",
      headers: admin.bearer,
      body: upload(),
      timeoutMs: 60_000,
    });
    let answered = false;
    void request.then(() => (answered = true));
    await waitUntil("the import's transaction is inserting rows", async () => {
      if (answered)
        throw new Error("The import finished before it could be killed: make it larger");
      return importWriting();
    });
    await cluster.kill(target, "SIGKILL");
    const cutOff = await request;
    expect(cutOff.status, "the client got no answer").toBeNull();

    // PostgreSQL ends the dead server's transaction when its connection drops: rolled back whole.
    await waitUntil("the dead server's transaction is gone", async () => !(await importWriting()));
    expect(await imported()).toBe(0);

    // Nothing is left behind that stops the same file: through nginx, every row goes in.
    const again = await send(cluster.url, "/api/admin/import/apply", {
      method: "POST",
      headers: admin.bearer,
      body: upload(),
      timeoutMs: 60_000,
    });
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ inserted: ROWS, updated: 0 });
    expect(await imported()).toBe(ROWS);
    console.log(
      `kill -9 during an import of ${ROWS} rows: 0 rows after the kill, ${ROWS} after applying again`,
    );
    await cluster.restart(target);
  });
});

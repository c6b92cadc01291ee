import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../../testing/test-app.js";
import { acquireLease } from "./lease.js";
import { runPeriodically, type PeriodicJob } from "./periodic.js";

let database: TestDatabase;
let files: string;
const open: FastifyInstance[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  files = fs.mkdtempSync(path.join(os.tmpdir(), "ets-jobs-"));
});
afterAll(async () => {
  for (const app of open) await app.close();
  await database.drop();
  fs.rmSync(files, { recursive: true, force: true });
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A server of its own: an app with its own connection to the shared database (a pool on
 * PostgreSQL, as a separate process has), without the built-in background work.
 */
async function server(): Promise<FastifyInstance> {
  const config = testConfig({ DATABASE_URL: database.url, STORAGE_URL: `file:${files}` });
  const app = await buildApp(config, { webRoot: path.join(os.tmpdir(), "ets-no-web") });
  open.push(app);
  return app;
}

async function holderOf(name: string): Promise<string | undefined> {
  const row = await database.db
    .selectFrom("job_leases")
    .select("holder")
    .where("name", "=", name)
    .executeTakeFirst();
  return row?.holder;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("The condition did not come true in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("a periodic job on two servers sharing one database", () => {
  it("runs on one server in a period, passes to the other when the holder stops renewing, and is released on close", async () => {
    // One clock both servers read, moved by the test; the timers tick every 100 s, never here.
    let now = new Date("2026-06-01T12:00:00.000Z");
    const advance = (minutes: number) => {
      now = new Date(now.getTime() + minutes * MINUTE);
    };
    const runs: string[] = [];
    const start = async (holder: string): Promise<[FastifyInstance, PeriodicJob]> => {
      const app = await server();
      const job = runPeriodically(app, {
        name: "report",
        everyMs: HOUR,
        ttlMs: 5 * MINUTE,
        holder,
        clock: () => now,
        job: async () => void runs.push(holder),
      });
      await app.ready();
      return [app, job];
    };

    const [, a] = await start("server-a");
    await a.tick(); // the first run, started when the app was ready, is over
    const [b, bJob] = await start("server-b");
    await bJob.tick();
    expect(runs).toEqual(["server-a"]);
    expect(await holderOf("report")).toBe("server-a");

    // Within the hour: server-a renews, server-b keeps being refused, nobody runs it again.
    advance(2);
    await a.tick();
    advance(4); // server-a's first lease would have ended a minute ago; the renewed one has not
    await bJob.tick();
    expect(runs).toEqual(["server-a"]);

    // The next hour: the holder runs it again; the other still does not.
    advance(55);
    await a.tick();
    await bJob.tick();
    expect(runs).toEqual(["server-a", "server-a"]);

    // server-a stops renewing (a dead or hung process): past its lease, server-b takes over.
    advance(6);
    await bJob.tick();
    expect(runs).toEqual(["server-a", "server-a", "server-b"]);
    expect(await holderOf("report")).toBe("server-b");
    // server-a comes back from its pause: refused, and it does not run the job.
    await a.tick();
    expect(runs).toHaveLength(3);

    // server-b closes: it releases the lease, and server-a need not wait for it to expire.
    await b.close();
    expect(await holderOf("report")).toBeUndefined();
    await a.tick();
    expect(runs).toEqual(["server-a", "server-a", "server-b", "server-a"]);
    expect(await holderOf("report")).toBe("server-a");
  });

  it("takes over on its own timer once a dead server's lease has expired", async () => {
    // A server took the lease for 3 s and died: nobody renews or releases it.
    expect(await acquireLease(database.db, "cleanup", "dead-server", 3000)).toBe(true);
    let runs = 0;
    const app = await server();
    runPeriodically(app, {
      name: "cleanup",
      everyMs: HOUR,
      ttlMs: 1500,
      holder: "server-c",
      job: async () => {
        runs += 1;
      },
    });
    await app.ready();
    expect(runs).toBe(0);
    expect(await holderOf("cleanup")).toBe("dead-server");

    await until(async () => runs > 0);
    expect(await holderOf("cleanup")).toBe("server-c");
    await app.close();
    expect(runs).toBe(1);
    expect(await holderOf("cleanup")).toBeUndefined();
  });

  it("keeps running on its schedule after a failed run, and waits for a run in progress before closing", async () => {
    let now = new Date("2026-06-01T12:00:00.000Z");
    let calls = 0;
    let finished = 0;
    const app = await server();
    const job = runPeriodically(app, {
      name: "flaky",
      everyMs: HOUR,
      ttlMs: 5 * MINUTE,
      holder: "server-d",
      clock: () => now,
      job: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 50));
        if (calls === 1) throw new Error("the first run fails");
        finished += 1;
      },
    });
    await app.ready();
    await job.tick();
    expect(calls).toBe(1);

    now = new Date(now.getTime() + HOUR);
    const tick = job.tick();
    await until(async () => calls === 2);
    await app.close();
    expect(finished).toBe(1);
    await tick;
    expect(await holderOf("flaky")).toBeUndefined();
  });
});

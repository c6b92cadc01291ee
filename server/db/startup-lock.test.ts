import { spawnSync } from "node:child_process";
import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type DatabaseConfig } from "../config.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { createDatabase, type Db } from "./database.js";
import { withStartupLock } from "./startup-lock.js";

let database: TestDatabase;
let config: DatabaseConfig;
/** A second server's own connection (pool) to the same database. */
let other: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  config = loadConfig({ DATABASE_URL: database.url }).database;
  other = createDatabase(config);
});
afterAll(async () => {
  await other.destroy();
  await database.drop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("start-up lock", () => {
  it("runs the duties of two servers starting together one after the other", async () => {
    const events: string[] = [];
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = withStartupLock(config, database.db, async () => {
      events.push("first begins");
      firstStarted();
      await pause(300);
      events.push("first ends");
      return "first";
    });
    await started;
    const second = withStartupLock(
      config,
      other,
      async () => {
        events.push("second begins");
        return "second";
      },
      { onWait: () => events.push("second waits"), pollMs: 20 },
    );
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(events).toEqual(["first begins", "second waits", "first ends", "second begins"]);
  });

  it("lets go when the duties fail, so the next server can take its turn", async () => {
    await expect(
      withStartupLock(config, database.db, async () => {
        throw new Error("migration failed");
      }),
    ).rejects.toThrow("migration failed");
    let waited = false;
    expect(
      await withStartupLock(config, other, async () => "taken", { onWait: () => (waited = true) }),
    ).toBe("taken");
    expect(waited).toBe(false);
  });

  it("takes over at once from a holder that died without letting go", async () => {
    if (config.kind === "postgres") {
      // The holder's connection ends with it: a session that took the lock and was terminated.
      const holder = createDatabase(config);
      await sql`select pg_advisory_lock(hashtext('ets-tracking start-up duties'))`.execute(holder);
      await holder.destroy();
    } else {
      // The lock row of a process that has exited (its id is free, or another program's).
      const gone = spawnSync(
        process.execPath,
        ["-e", "process.stdout.write(String(process.pid))"],
        {
          encoding: "utf8",
        },
      );
      await withStartupLock(config, database.db, async () => undefined);
      await sql`insert into start_up_lock (id, holder, host, pid, expires_at)
        values (1, 'dead', ${os.hostname()}, ${Number(gone.stdout)},
          '2999-01-01T00:00:00.000Z')`.execute(database.db);
    }
    let waited = false;
    expect(
      await withStartupLock(config, other, async () => "taken", { onWait: () => (waited = true) }),
    ).toBe("taken");
    expect(waited).toBe(false);
  });
});

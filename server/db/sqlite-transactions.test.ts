import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { resolveFromRoot } from "../paths.js";
import { createSqliteDatabase, migrateToLatest } from "./database.js";

/**
 * Another process on the same SQLite file takes the write lock (BEGIN IMMEDIATE and a write),
 * says "locked", holds the lock for `holdMs`, then commits. In a process of its own because
 * better-sqlite3 is synchronous: a connection in this process waiting for the lock would hold up
 * the event loop that is to release it.
 */
function holdWriteLock(file: string, holdMs: number) {
  const script = `
    const SQLite = require("better-sqlite3");
    const db = new SQLite(${JSON.stringify(file)});
    db.pragma("busy_timeout = 5000");
    db.exec("begin immediate");
    db.prepare("insert into job_leases (name, holder, expires_at) values ('other', 'other process', '2999-01-01T00:00:00.000Z')").run();
    process.stdout.write("locked\\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
    db.exec("commit");
    db.close();
  `;
  const child = spawn(process.execPath, ["-e", script], {
    cwd: resolveFromRoot(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited (${code}): ${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { locked, exited };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite transactions shared by several processes", () => {
  it("a transaction that reads, then writes, waits for another process's write lock instead of failing with SQLITE_BUSY", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-immediate-"));
    dirs.push(dir);
    const file = path.join(dir, "ets.sqlite");
    const { db } = createSqliteDatabase(file);
    try {
      await migrateToLatest(db);
      const holder = holdWriteLock(file, 400);
      await holder.locked;
      // Read first, then write: a deferred transaction would be a reader when the write comes,
      // and SQLite refuses to upgrade it while the other process holds the write lock.
      const seen = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ n: number }>`select count(*) as n from job_leases`.execute(
          trx,
        );
        await trx
          .insertInto("job_leases")
          .values({ name: "mine", holder: "this process", expires_at: "2999-01-01T00:00:00.000Z" })
          .execute();
        return Number(rows[0]?.n);
      });
      expect(await holder.exited).toBe(0);
      // It began after the other process committed: its read saw that row.
      expect(seen).toBe(1);
      const names = await db.selectFrom("job_leases").select("name").orderBy("name").execute();
      expect(names.map((r) => r.name)).toEqual(["mine", "other"]);
    } finally {
      await db.destroy();
    }
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { createSqliteDatabase, migrateToLatest } from "./db/database.js";
import { isDatabaseBusy } from "./db/dialect.js";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from "./errors.js";
import { SITE, signedInAdmin } from "../testing/accounts.js";
import { testConfig } from "../testing/test-app.js";

/**
 * SQLite's "database is locked" (SQLITE_BUSY): another connection to the same file holds the write
 * lock past busy_timeout (a second server process, a backup, the admin command line). The request
 * is answered 503 `unavailable` with Retry-After, never a 500 `internal`. SQLite only: PostgreSQL
 * waits for its locks instead (server/db/dialect.ts, isDatabaseBusy).
 *
 * The lock is taken by a connection of the test's own on the app's file (BEGIN IMMEDIATE), as
 * another process would; the app's connection waits 100 ms for it instead of 5 s.
 */

let dir: string;
let app: FastifyInstance;
let other: SQLite.Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-busy-"));
  const file = path.join(dir, "busy.sqlite");
  const { db } = createSqliteDatabase(file);
  await migrateToLatest(db);
  await sql`pragma busy_timeout = 100`.execute(db);
  app = await buildApp(testConfig({ DATABASE_URL: `sqlite:${file}` }), {
    db,
    webRoot: path.join(os.tmpdir(), "ets-no-web"),
  });
  await app.ready();
  other = new SQLite(file);
});
afterEach(() => {
  if (other.inTransaction) other.exec("ROLLBACK");
});
afterAll(async () => {
  other.close();
  await app.close();
  await app.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a write while another connection holds SQLite's write lock", () => {
  it("answers a sign-in 503 unavailable with Retry-After", async () => {
    other.exec("BEGIN IMMEDIATE");
    const res = await app.inject({
      method: "POST",
      url: "/api/user_sign_in",
      headers: SITE,
      payload: { email: "ama@school.edu", password: "not the password" },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe(String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
    expect(res.json()).toEqual({
      success: false,
      code: "unavailable",
      message: expect.stringMatching(/try again in a moment/),
    });
    expect(res.body).not.toMatch(/SQLITE_BUSY|locked|\n\s+at /);
  });

  it("answers a signed-in write 503 unavailable with Retry-After, and it succeeds once the lock is released", async () => {
    const cookie = await signedInAdmin(app, "registrar@school.edu");
    other.exec("BEGIN IMMEDIATE");
    const locked = await app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { ...SITE, cookie },
    });
    expect(locked.statusCode).toBe(503);
    expect(locked.headers["retry-after"]).toBe(String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
    expect(locked.json()).toMatchObject({ success: false, code: "unavailable" });

    other.exec("ROLLBACK");
    const again = await app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { ...SITE, cookie },
    });
    expect(again.statusCode).toBe(200);
  });
});

describe("isDatabaseBusy", () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("recognises SQLite's busy codes", () => {
    expect(isDatabaseBusy(withCode("database is locked", "SQLITE_BUSY"))).toBe(true);
    expect(isDatabaseBusy(withCode("database is locked", "SQLITE_BUSY_SNAPSHOT"))).toBe(true);
    expect(isDatabaseBusy(withCode("database is locked", "SQLITE_BUSY_TIMEOUT"))).toBe(true);
  });

  it("leaves every other fault to the other answers", () => {
    expect(isDatabaseBusy(withCode("UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE"))).toBe(
      false,
    );
    expect(isDatabaseBusy(withCode("disk I/O error", "SQLITE_IOERR"))).toBe(false);
    expect(isDatabaseBusy(new Error("database is locked"))).toBe(false);
    expect(isDatabaseBusy("SQLITE_BUSY")).toBe(false);
  });
});

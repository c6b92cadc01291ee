import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../errors.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";

/**
 * PostgreSQL closing a connection while a request holds it (pg_ctl restart -m fast, a failover,
 * an administrator's terminate) fails that request, and only that request: the process goes on
 * and the next request gets a fresh connection. Found by cluster/postgres-restart.test.ts, where
 * an app server ended with "Unhandled 'error' event: Connection terminated unexpectedly".
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query("select pg_terminate_backend($1)", [pid]);
  await admin.end();
}

describe("a connection closed while a transaction holds it", () => {
  it("fails that transaction as unavailable and keeps the process and the pool serving", async () => {
    if (database.kind !== "postgres") return expect(database.kind).toBe("sqlite");
    let heldPid = 0;
    const outcome = await database.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        heldPid = rows[0]?.pid ?? 0;
        await terminate(heldPid);
        // The connection learns of it while checked out of the pool: the moment that crashed.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
        return "committed";
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(outcome)).toBe(true);

    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
      database.db,
    );
    expect(rows[0]?.pid).toBeGreaterThan(0);
    expect(rows[0]?.pid).not.toBe(heldPid);
  });
});

import { sql } from "kysely";
import type { Db } from "../server/db/database.js";
import { dialectOf } from "../server/db/dialect.js";

/**
 * Tests only: a trigger that makes a chosen write fail with a real database error, so a test can
 * prove that a transaction failing halfway leaves the data as it was. Trigger syntax differs
 * between the dialects; this test helper is the one place outside server/db/dialect.ts that knows.
 */
/** Makes every later write fail when it puts `value` into `table.column`. */
export async function installWriteTrap(
  db: Db,
  table: string,
  column: string,
  value: string,
): Promise<void> {
  // Tests only: a real database error in the middle of a transaction proves the rollback.
  // Identifiers are the test's own literals, never user input.
  const name = sql.raw(`${table}_${column}_trap`);
  const literal = sql.lit(value);
  if (dialectOf(db) === "postgres") {
    await sql`create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        if new.${sql.raw(column)} = ${literal} then raise exception 'write trap'; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger ${name} before insert or update on ${sql.table(table)} for each row execute function ${name}()`.execute(
      db,
    );
    return;
  }
  for (const event of ["insert", "update"]) {
    await sql`create trigger ${sql.raw(`${table}_${column}_trap_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
      when new.${sql.raw(column)} = ${literal}
      begin select raise(abort, 'write trap'); end`.execute(db);
  }
}

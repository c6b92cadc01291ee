import { PostgresAdapter, sql, type Kysely, type ColumnDefinitionBuilder } from "kysely";

/**
 * Every difference between SQLite and PostgreSQL lives here. Shared code never branches on the
 * dialect itself; it calls one of these functions.
 */

export type DialectName = "sqlite" | "postgres";

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** An auto-incrementing integer primary key column type for the dialect. */
export function idColumnType(db: Kysely<any>): "integer" | "serial" {
  return dialectOf(db) === "postgres" ? "serial" : "integer";
}

export function idColumn(db: Kysely<any>) {
  const postgres = dialectOf(db) === "postgres";
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
}

/** Unique-constraint violations: SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "23505"
  );
}

/** After inserting rows with explicit ids, PostgreSQL's sequence must move past them. */
export async function resetIdSequence(db: Kysely<any>, table: string): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
    db,
  );
}

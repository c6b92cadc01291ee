import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { migrationProvider } from "../db/migrations/index.js";
import { BackupError } from "./backup-error.js";

/** What a database (live, a backup copy, or a restored one) holds, as the commands report it. */
export interface DatabaseContents {
  /** The last migration applied; null when the database has none. */
  migration: string | null;
  /** Row counts of the tables a reader checks first; a table missing at that migration is absent. */
  rows: Partial<Record<CountedTable, number>>;
  /** Uploaded files the document versions refer to; their bytes live in the file store. */
  documentFiles: { files: number; bytes: number };
}

export const COUNTED_TABLES = [
  "submissions",
  "submission_events",
  "users",
  "submission_documents",
] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

// Kysely's own bookkeeping table (Migrator's default name).
export const MIGRATION_TABLE = "kysely_migration";

export async function describeContents(db: Kysely<Database>): Promise<DatabaseContents> {
  const existing = new Set(
    (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name),
  );
  const rows: DatabaseContents["rows"] = {};
  for (const table of COUNTED_TABLES) {
    if (!existing.has(table)) continue;
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    rows[table] = Number(row.count);
  }
  const migration = existing.has(MIGRATION_TABLE) ? await lastMigration(db) : null;
  const documentFiles = existing.has("submission_documents")
    ? await referencedFiles(db)
    : { files: 0, bytes: 0 };
  return { migration, rows, documentFiles };
}

/** Migration names in the order they ran. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{
    name: string;
  }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(db);
  return result.rows.map((r) => r.name);
}

async function lastMigration(db: Kysely<Database>): Promise<string | null> {
  const names = await appliedMigrations(db);
  return names.at(-1) ?? null;
}

/** Files are stored once per content (SHA-256), however many versions share them. */
async function referencedFiles(db: Kysely<Database>): Promise<DatabaseContents["documentFiles"]> {
  const row = await db
    .selectFrom(
      db
        .selectFrom("submission_documents")
        .select((eb) => ["sha256", eb.fn.max("size_bytes").as("size")])
        .groupBy("sha256")
        .as("files"),
    )
    .select((eb) => [
      eb.fn.countAll<number>().as("files"),
      eb.fn.coalesce(eb.fn.sum<number>("size"), eb.lit(0)).as("bytes"),
    ])
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes) };
}

/**
 * Refuses a backup made by a newer version of the program: its schema has migrations this code
 * does not know, and migrating "to latest" would leave it unusable by this version.
 */
export async function assertKnownMigrations(applied: string[], backupFile: string): Promise<void> {
  const known = new Set(Object.keys(await migrationProvider.getMigrations()));
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `${backupFile} was made by a newer version of ETS Tracking (migration ${unknown.join(", ")}, which this version does not have). Restore it with that version or a later one.`,
    );
  }
}

import type { Kysely } from "kysely";

/**
 * The administrator's list at 1,000,000 submissions (docs/decisions/006-search.md): every sort of
 * the list reads its first page from an index in (column, id) order, on both databases, so no page
 * sorts the table. The id is in the index because it breaks ties in the list's order; SQLite keeps
 * the rowid in every index anyway, PostgreSQL does not. The index number is unique, so its unique
 * index already gives the order (the repository sorts it without the tie-breaker).
 *
 * 003_search made (programme, id), (updated_at, id) and (sgs_stage, id); 001 made single-column
 * indexes on student_name and created_at, which the two-column ones below replace.
 * The examiner-state indexes serve the list's examiner filters, whose counts would otherwise scan.
 */
const SORT_INDEXES = [
  { name: "submissions_student_name_id", columns: ["student_name", "id"] },
  { name: "submissions_created_at_id", columns: ["created_at", "id"] },
  { name: "submissions_internal_examiner", columns: ["internal_examiner", "id"] },
  { name: "submissions_external_examiner", columns: ["external_examiner", "id"] },
] as const;

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts), which
// describes the tables after every migration, not at this one.
export async function up(db: Kysely<any>): Promise<void> {
  for (const index of SORT_INDEXES) {
    await db.schema
      .createIndex(index.name)
      .on("submissions")
      .columns([...index.columns])
      .execute();
  }
  await db.schema.dropIndex("submissions_student_name").ifExists().execute();
  await db.schema.dropIndex("submissions_created_at").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("submissions_student_name")
    .on("submissions")
    .column("student_name")
    .execute();
  await db.schema
    .createIndex("submissions_created_at")
    .on("submissions")
    .column("created_at")
    .execute();
  for (const index of SORT_INDEXES) await db.schema.dropIndex(index.name).ifExists().execute();
}

import { sql, type Kysely, type SqlBool } from "kysely";

/**
 * The dashboard's overdue examinations at a million submissions (issue 11,
 * server/dashboard/README.md): a partial index on the open examinations (link sent, or thesis
 * received) by due date.
 *
 * The list takes the longest overdue first, a page at a time, and counts them all. Migration
 * 006's (state, due_on) index holds every examination, and its order is by state first: for the
 * two open states the database read both ranges whole, joined every overdue row to its submission
 * and examiner and sorted them, to keep the first few (727 ms at 1M on PostgreSQL with 120,000
 * examinations). This index holds only the open ones, in the list's own order (due_on, id), so
 * the page is the index's first rows and the total a count of one index range, without the table.
 *
 * The query must repeat the index's condition word for word, with literal values: that is how
 * SQLite (and PostgreSQL with a generic plan) knows the partial index applies
 * (findOverdueExaminations in server/dashboard/repository.ts).
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts), which
// describes the tables after every migration, not at this one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("examinations_open_due")
    .on("examinations")
    .columns(["due_on", "id"])
    .where(sql<SqlBool>`state in ('sent', 'received')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("examinations_open_due").ifExists().execute();
}

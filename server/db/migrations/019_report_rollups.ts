import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import { dialectOf } from "../dialect.js";
import { rebuildJourneyRollups } from "../report-rollups.js";

/**
 * The Reports figures' rollups (issue 22, docs/decisions/025-report-figures.md).
 *
 * - `report_journeys`: per submission, the facts its history gives the figures (JSON: each a
 *   figure, a subject, the month it ends in and its whole days) and the programme and cohort they
 *   were counted under, so a later change of the record takes back exactly what it added.
 * - `report_rollups`: per figure, subject, programme ('' for every programme), cohort (0 for every
 *   year), month and whole days, how many facts. Every fact is added four times (its programme and
 *   cohort, its programme and every cohort, every programme and its cohort, every programme and
 *   every cohort), so a query reads one combination and never adds programmes together: a median
 *   is exact at day resolution from a few thousand rows.
 *
 * Kept in the same transaction as the timeline events that change them (server/db/report-rollups.ts,
 * called by insertSubmissionEvents), not by triggers: a stage's time is computed from the record's
 * whole ordered history, which is plain code in TypeScript and not SQL a trigger could run.
 * SQLite adds to one row per key (one writer at a time); PostgreSQL appends changes (no row is
 * updated, so concurrent writers never wait on one another or deadlock) and
 * compact_report_rollups() folds them now and then, as migration 009 does for the dashboard.
 *
 * The up migration computes the rollups of the records already there, once, with the same code
 * that keeps them (a migration otherwise never uses today's code: this one must count exactly as
 * the writes after it will).
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema
    .createTable("report_journeys")
    .addColumn("submission_id", "integer", (c) => c.primaryKey())
    .addColumn("programme", "text", (c) => c.notNull())
    .addColumn("cohort", "integer", (c) => c.notNull())
    .addColumn("facts", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("report_rollups")
    .addColumn("figure", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("programme", "text", (c) => c.notNull())
    .addColumn("cohort", "integer", (c) => c.notNull())
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("days", "integer", (c) => c.notNull())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull())
    .$call((table) =>
      postgres
        ? table
        : table
            .addPrimaryKeyConstraint("report_rollups_pk", [
              "programme",
              "cohort",
              "figure",
              "subject",
              "month",
              "days",
            ])
            // The table is its key's b-tree: a read of one figure's months is one range of it.
            .modifyEnd(sql`without rowid`),
    )
    .execute();
  if (postgres) {
    // The readers' index: one programme and cohort, one figure and subject, a range of months; n
    // included, so a read never visits the table. (PostgreSQL appends changes, so it has no key.)
    await db.schema
      .createIndex("report_rollups_read")
      .on("report_rollups")
      .columns(["programme", "cohort", "figure", "subject", "month", "days", "n"])
      .execute();
    // The compaction of migration 009: the delete takes the rows committed before it started, and
    // rows a concurrent compaction already deleted are not returned, so nothing counts twice.
    await sql
      .raw(
        `create function compact_report_rollups() returns void language sql as $$
        with gone as (delete from report_rollups
          returning figure, subject, programme, cohort, month, days, n)
        insert into report_rollups (figure, subject, programme, cohort, month, days, n)
          select figure, subject, programme, cohort, month, days, sum(n) from gone
          group by figure, subject, programme, cohort, month, days having sum(n) <> 0
      $$`,
      )
      .execute(db);
  }
  // The journeys' rollups only: the open reports' tables come with migration 022.
  await rebuildJourneyRollups(db as Kysely<Database>);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop function if exists compact_report_rollups()`.execute(db);
  }
  await db.schema.dropTable("report_rollups").execute();
  await db.schema.dropTable("report_journeys").execute();
}

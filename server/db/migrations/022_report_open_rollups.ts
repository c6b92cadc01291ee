import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import { dialectOf } from "../dialect.js";
import { fillOpenRollups } from "../report-rollups.js";

/**
 * The late counts of the Reports figures in the rollups (issue 22, docs/decisions/025-report-
 * figures.md, amendment of 2026-11-27). With a programme or cohort chosen, the late list, the late
 * counts and the examiners' open links looked up the record of every open examination past due
 * (about 200,000 at a million records): seconds per read.
 *
 * - `report_open_items`: per record, its open reports: each examination out with a link and no
 *   report ("link", its due day) and each examiner state typed by hand without a link ("typed",
 *   the day it was typed, examiner_waits.since), with the record's programme and cohort. The late
 *   list reads its first page from one of four indexes, one per choice of filters, in due order.
 * - `report_open_rollups`: per programme ('' for all), cohort (0 for all), kind, examiner (0 for
 *   all) and day, how many. A late count is one range of days below today: a few hundred rows.
 *
 * Kept by refreshReportRollups in the transaction that writes the record's timeline events (every
 * change of an examination, a typed state or a programme writes one), as report_rollups is. SQLite
 * adds to one row per key; PostgreSQL appends changes and compact_report_open_rollups() folds
 * them (migration 019's reasons). Filled here from the data in two set-based statements.
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema
    .createTable("report_open_items")
    .addColumn("submission_id", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql.raw("kind in ('link', 'typed')")))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("examination_id", "integer", (c) => c.notNull())
    .addColumn("examiner_id", "integer", (c) => c.notNull())
    .addColumn("programme", "text", (c) => c.notNull())
    .addColumn("cohort", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("report_open_items_pk", [
      "submission_id",
      "kind",
      "role",
      "examination_id",
    ])
    .execute();
  // The late list's first page for each choice of filters, in the order it is listed.
  const orders: [string, string[]][] = [
    ["report_open_items_all", []],
    ["report_open_items_programme", ["programme"]],
    ["report_open_items_cohort", ["cohort"]],
    ["report_open_items_both", ["programme", "cohort"]],
  ];
  for (const [name, filters] of orders) {
    await db.schema
      .createIndex(name)
      .on("report_open_items")
      .columns([...filters, "kind", "day", "submission_id", "role"])
      .execute();
  }
  await db.schema
    .createTable("report_open_rollups")
    .addColumn("programme", "text", (c) => c.notNull())
    .addColumn("cohort", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("examiner_id", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull())
    .$call((table) =>
      postgres
        ? table
        : table
            .addPrimaryKeyConstraint("report_open_rollups_pk", [
              "programme",
              "cohort",
              "kind",
              "examiner_id",
              "day",
            ])
            .modifyEnd(sql`without rowid`),
    )
    .execute();
  if (postgres) {
    await db.schema
      .createIndex("report_open_rollups_read")
      .on("report_open_rollups")
      .columns(["programme", "cohort", "kind", "examiner_id", "day", "n"])
      .execute();
    // Migration 019's compaction, for this table.
    await sql
      .raw(
        `create function compact_report_open_rollups() returns void language sql as $$
        with gone as (delete from report_open_rollups
          returning programme, cohort, kind, examiner_id, day, n)
        insert into report_open_rollups (programme, cohort, kind, examiner_id, day, n)
          select programme, cohort, kind, examiner_id, day, sum(n) from gone
          group by programme, cohort, kind, examiner_id, day having sum(n) <> 0
      $$`,
      )
      .execute(db);
  }
  await fillOpenRollups(db as Kysely<Database>);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop function if exists compact_report_open_rollups()`.execute(db);
  }
  await db.schema.dropTable("report_open_rollups").execute();
  await db.schema.dropTable("report_open_items").execute();
}

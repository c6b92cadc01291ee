import { sql, type Kysely } from "kysely";
import { dialectOf } from "../dialect.js";

/**
 * The totals of the typed overdue reports at a million submissions (issue 11,
 * server/dashboard/README.md): a running count, per examiner role, of the rows of
 * examiner_waits (migration 009) without a link, kept by triggers on examiner_waits.
 *
 * The dashboard counts the waits older than the overdue limit. With most typed states left
 * untouched for years that is nearly every wait (85,000 per role in the bench data at 1M): 90 ms
 * per role on PostgreSQL, 22 ms on SQLite, counted afresh on every read. Instead it takes this
 * total and subtracts the waits younger than the limit, an index range as long as the last
 * weeks' activity (about a tenth), in one statement so both come from one snapshot
 * (countWaitingReports in server/dashboard/repository.ts).
 *
 * `n` is a count, or on PostgreSQL a change to one: the total is the sum of a role's rows. The
 * dialects differ for the reasons migration 009 gives for dashboard_counts: SQLite (one writer)
 * adds to one row per role; PostgreSQL's statement triggers append each statement's net change,
 * so no writer waits on a shared row, and the reader folds them now and then.
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts), which
// describes the tables after every migration, not at this one.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema
    .createTable("examiner_wait_totals")
    .addColumn("role", "text", (c) =>
      c.notNull().check(sql.raw("role in ('internal', 'external')")),
    )
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull())
    .$call((table) =>
      postgres ? table : table.addPrimaryKeyConstraint("examiner_wait_totals_pk", ["role"]),
    )
    .execute();
  if (postgres) {
    await db.schema
      .createIndex("examiner_wait_totals_role")
      .on("examiner_wait_totals")
      .column("role")
      .execute();
  }
  // Counted once from the data; the triggers keep it from here on.
  await sql`insert into examiner_wait_totals (role, n)
    select role, count(*) from examiner_waits where linked = 0 group by role`.execute(db);

  if (postgres) await createPostgresTriggers(db);
  else await createSqliteTriggers(db);
}

async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const add = (row: string, sign: 1 | -1) =>
    `insert into examiner_wait_totals (role, n) select ${row}.role, ${sign} where ${row}.linked = 0
      on conflict (role) do update set n = n + excluded.n;`;
  const triggers: [string, string][] = [
    ["insert", `after insert on examiner_waits when new.linked = 0 begin ${add("new", 1)} end`],
    ["delete", `after delete on examiner_waits when old.linked = 0 begin ${add("old", -1)} end`],
    [
      "update",
      `after update of role, linked on examiner_waits
      when old.role is not new.role or old.linked is not new.linked
      begin ${add("old", -1)} ${add("new", 1)} end`,
    ],
  ];
  for (const [name, body] of triggers) {
    await sql.raw(`create trigger examiner_wait_totals_${name} ${body}`).execute(db);
  }
}

const POSTGRES_TRIGGERS: [event: string, tables: string, changes: string][] = [
  ["insert", "new table as new_rows", "select role, 1 as n from new_rows where linked = 0"],
  ["delete", "old table as old_rows", "select role, -1 as n from old_rows where linked = 0"],
  [
    "update",
    "old table as old_rows new table as new_rows",
    `select role, -1 as n from old_rows where linked = 0
      union all select role, 1 from new_rows where linked = 0`,
  ],
];

async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  // One appended row per role and statement, and none when the statement changed no total (a
  // refresh of a submission without waits, an update that moved nothing): migration 009's
  // refresh deletes and reinserts a submission's waits, so each edit of a waiting record appends
  // two rows per role, which the reader folds.
  for (const [event, tables, changes] of POSTGRES_TRIGGERS) {
    const name = `examiner_wait_totals_${event}`;
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          insert into examiner_wait_totals (role, n)
            select role, sum(n) from (${changes}) as changes group by role having sum(n) <> 0;
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${event} on examiner_waits referencing ${tables}
        for each statement execute function ${name}()`,
      )
      .execute(db);
  }
  // TRUNCATE fires none of the triggers above. (A TRUNCATE of submissions empties
  // examiner_waits with a DELETE, which they do see.)
  await sql
    .raw(
      `create function examiner_wait_totals_truncated() returns trigger language plpgsql as $$
      begin delete from examiner_wait_totals; return null; end $$`,
    )
    .execute(db);
  await sql`create trigger examiner_wait_totals_truncate after truncate on examiner_waits
    for each statement execute function examiner_wait_totals_truncated()`.execute(db);
  // Folds the appended changes into one row per role; safe beside writers and a second
  // compaction for the reasons compact_dashboard_counts (migration 009) gives.
  await sql
    .raw(
      `create function compact_examiner_wait_totals() returns void language sql as $$
      with gone as (delete from examiner_wait_totals returning role, n)
      insert into examiner_wait_totals (role, n)
        select role, sum(n) from gone group by role having sum(n) <> 0
    $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  for (const event of ["insert", "delete", "update", "truncate"]) {
    const name = `examiner_wait_totals_${event}`;
    await sql
      .raw(`drop trigger if exists ${name}${postgres ? " on examiner_waits" : ""}`)
      .execute(db);
  }
  if (postgres) {
    for (const fn of ["insert", "delete", "update", "truncated"]) {
      await sql.raw(`drop function if exists examiner_wait_totals_${fn}()`).execute(db);
    }
    await sql`drop function if exists compact_examiner_wait_totals()`.execute(db);
  }
  await db.schema.dropTable("examiner_wait_totals").ifExists().execute();
}

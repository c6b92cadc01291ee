import { sql, type Kysely } from "kysely";
import { dialectOf } from "../dialect.js";

/**
 * The dashboard's counts at a million submissions (issue 11, server/dashboard/README.md): a small
 * table of counts per stage, per examiner state and per month of creation, kept by triggers in
 * the database on every insert, update and delete of a submission, whichever code path (or
 * person at a SQL prompt) writes it. The dashboard sums a few hundred rows instead of grouping a
 * million.
 *
 * `figure` is "stage", "internal", "external" (the examiner states) or "month" (YYYY-MM of
 * created_at); `value` is the column's value, '' for "not set"; `n` is a count, or on PostgreSQL a
 * change to one: the figure is the sum of its rows.
 *
 * Why the dialects differ:
 * - SQLite has one writer at a time, so a row trigger adds to one row per (figure, value).
 * - PostgreSQL has concurrent writers. Adding to shared rows would make every writer wait for the
 *   one before it to commit (a 50,000-row import would hold up every edit) and two transactions
 *   moving records in opposite directions would deadlock. So statement triggers append the net
 *   change of each statement as new rows (no row is ever updated, nothing waits), and the reader
 *   folds them together now and then (compact_dashboard_counts below).
 *
 * The counts live in the database, so they are the same for every server on one PostgreSQL, are
 * in every backup (pg_dump loads the table's rows before it creates the triggers) and are right
 * after a restore; the up migration counts the existing rows once.
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts), which
// describes the tables after every migration, not at this one.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema
    .createTable("dashboard_counts")
    .addColumn("figure", "text", (c) =>
      c.notNull().check(sql.raw("figure in ('stage', 'internal', 'external', 'month')")),
    )
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull())
    .$call((table) =>
      postgres ? table : table.addPrimaryKeyConstraint("dashboard_counts_pk", ["figure", "value"]),
    )
    .execute();
  if (postgres) {
    await db.schema
      .createIndex("dashboard_counts_figure")
      .on("dashboard_counts")
      .columns(["figure", "value"])
      .execute();
  }

  await sql`insert into dashboard_counts (figure, value, n)
    select 'stage', coalesce(sgs_stage, ''), count(*) from submissions group by coalesce(sgs_stage, '')
    union all
    select 'internal', coalesce(internal_examiner, ''), count(*) from submissions group by coalesce(internal_examiner, '')
    union all
    select 'external', coalesce(external_examiner, ''), count(*) from submissions group by coalesce(external_examiner, '')
    union all
    select 'month', substr(created_at, 1, 7), count(*) from submissions group by substr(created_at, 1, 7)`.execute(
    db,
  );

  if (postgres) await createPostgresTriggers(db);
  else await createSqliteTriggers(db);

  await createExaminerWaits(db, postgres);
}

/** One row per figure for a submission row (`row` is new or old), in a VALUES or SELECT list. */
function figures(row: string, sign: 1 | -1): string {
  return [
    `('stage', coalesce(${row}.sgs_stage, ''), ${sign})`,
    `('internal', coalesce(${row}.internal_examiner, ''), ${sign})`,
    `('external', coalesce(${row}.external_examiner, ''), ${sign})`,
    `('month', substr(${row}.created_at, 1, 7), ${sign})`,
  ].join(", ");
}

async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const upsert = "on conflict (figure, value) do update set n = n + excluded.n";
  await sql
    .raw(
      `create trigger dashboard_counts_insert after insert on submissions begin
        insert into dashboard_counts (figure, value, n) values ${figures("new", 1)} ${upsert};
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger dashboard_counts_delete after delete on submissions begin
        insert into dashboard_counts (figure, value, n) values ${figures("old", -1)} ${upsert};
      end`,
    )
    .execute(db);
  // Only when a counted column really changes: most updates (documents, names) touch none.
  await sql
    .raw(
      `create trigger dashboard_counts_update after update of sgs_stage, internal_examiner, external_examiner, created_at on submissions
      when old.sgs_stage is not new.sgs_stage or old.internal_examiner is not new.internal_examiner
        or old.external_examiner is not new.external_examiner or substr(old.created_at, 1, 7) is not substr(new.created_at, 1, 7)
      begin
        insert into dashboard_counts (figure, value, n) values ${figures("old", -1)}, ${figures("new", 1)} ${upsert};
      end`,
    )
    .execute(db);
}

async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  // The rows of a transition table as (figure, value, n) with n = sign.
  const spread = (table: string, sign: 1 | -1) =>
    `select 'stage' as figure, coalesce(sgs_stage, '') as value, ${sign} as n from ${table}
     union all select 'internal', coalesce(internal_examiner, ''), ${sign} from ${table}
     union all select 'external', coalesce(external_examiner, ''), ${sign} from ${table}
     union all select 'month', substr(created_at, 1, 7), ${sign} from ${table}`;
  const body = (changes: string) => `begin
      insert into dashboard_counts (figure, value, n)
        select figure, value, sum(n) from (${changes}) as changes
        group by figure, value having sum(n) <> 0;
      return null;
    end`;
  const functions: [string, string][] = [
    ["dashboard_counts_inserted", body(spread("new_rows", 1))],
    ["dashboard_counts_deleted", body(spread("old_rows", -1))],
    [
      "dashboard_counts_updated",
      body(`${spread("old_rows", -1)} union all ${spread("new_rows", 1)}`),
    ],
  ];
  for (const [name, code] of functions) {
    await sql
      .raw(`create function ${name}() returns trigger language plpgsql as $$ ${code} $$`)
      .execute(db);
  }
  // Statement triggers with transition tables: one insert of net changes per statement, however
  // many rows it wrote. (PostgreSQL refuses a column list on triggers with transition tables,
  // so the update trigger runs for every update and adds nothing when no counted column moved.)
  await sql`create trigger dashboard_counts_insert after insert on submissions
    referencing new table as new_rows for each statement execute function dashboard_counts_inserted()`.execute(
    db,
  );
  await sql`create trigger dashboard_counts_delete after delete on submissions
    referencing old table as old_rows for each statement execute function dashboard_counts_deleted()`.execute(
    db,
  );
  await sql`create trigger dashboard_counts_update after update on submissions
    referencing old table as old_rows new table as new_rows for each statement execute function dashboard_counts_updated()`.execute(
    db,
  );
  // TRUNCATE fires no row or statement triggers of the kinds above.
  await sql
    .raw(
      `create function dashboard_counts_truncated() returns trigger language plpgsql as $$
      begin delete from dashboard_counts; return null; end $$`,
    )
    .execute(db);
  await sql`create trigger dashboard_counts_truncate after truncate on submissions
    for each statement execute function dashboard_counts_truncated()`.execute(db);
  // Folds the appended changes into one row per (figure, value). Safe beside writers and another
  // compaction: the delete takes only rows committed before it started (a writer's rows appended
  // since stay for next time), and rows a concurrent compaction already deleted are not returned
  // by this one, so no change is counted twice or lost.
  await sql
    .raw(
      `create function compact_dashboard_counts() returns void language sql as $$
      with gone as (delete from dashboard_counts returning figure, value, n)
      insert into dashboard_counts (figure, value, n)
        select figure, value, sum(n) from gone group by figure, value having sum(n) <> 0
    $$`,
    )
    .execute(db);
}

// ---------------------------------------------------------------------------------------------
// The typed overdue reports

/** What the dashboard calls a waiting report (server/dashboard/service.ts, WAITING_STATES). */
const WAITING = "('awaiting', 'received')";
/** An examination in these states followed by its due date instead (findOverdueExaminations). */
const LINKED = "('sent', 'received', 'report_submitted')";

/**
 * One row per submission and examiner role whose typed state is waiting for the report, for the
 * submissions picked by `filter` (a condition on `s`): since when (the latest event that set the
 * current state, else the record's last update) and whether the examiner got a link.
 */
function waitsOf(filter: string): string {
  // `x.state <> 'replaced'` repeats what the IN list implies: it is the examinations_current_role
  // index's own WHERE, which SQLite must see written out before it uses that partial index.
  // Without it every refresh read every linked examination (adding the bench's examinations to
  // 100,000 submissions: 52 s, against 1.2 s for 20,000).
  const role = (name: string, field: string, column: string) => `
    select s.id, '${name}',
      coalesce((select max(e.at) from submission_events e
        where e.submission_id = s.id and e.field = '${field}' and e.to_value = s.${column}), s.updated_at),
      case when exists (select 1 from examinations x
        where x.submission_id = s.id and x.role = '${name}' and x.state <> 'replaced'
          and x.state in ${LINKED}) then 1 else 0 end
    from submissions s where s.${column} in ${WAITING} and ${filter}`;
  return `${role("internal", "internalExaminer", "internal_examiner")}
    union all ${role("external", "externalExaminer", "external_examiner")}`;
}

/**
 * The typed overdue list at scale: "since" depends on the events and "linked" on the
 * examinations, so counting and sorting them live takes a lookup per waiting submission (seconds
 * at a million). examiner_waits keeps both, per waiting submission and role, refreshed by
 * triggers on the three tables whenever a row that feeds them is written; the dashboard then
 * reads a range of one index.
 */
async function createExaminerWaits(db: Kysely<any>, postgres: boolean): Promise<void> {
  await db.schema
    .createTable("examiner_waits")
    .addColumn("submission_id", "integer", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("since", "text", (c) => c.notNull())
    .addColumn("linked", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("examiner_waits_pk", ["submission_id", "role"])
    .execute();
  await db.schema
    .createIndex("examiner_waits_since")
    .on("examiner_waits")
    .columns(["role", "linked", "since", "submission_id"])
    .execute();
  await sql
    .raw(`insert into examiner_waits (submission_id, role, since, linked) ${waitsOf("1 = 1")}`)
    .execute(db);
  if (postgres) await createPostgresWaitTriggers(db);
  else await createSqliteWaitTriggers(db);
}

async function createSqliteWaitTriggers(db: Kysely<any>): Promise<void> {
  const refresh = (id: string) => `
    delete from examiner_waits where submission_id = ${id};
    insert into examiner_waits (submission_id, role, since, linked) ${waitsOf(`s.id = ${id}`)};`;
  const triggers: [string, string][] = [
    ["submissions_insert", `after insert on submissions begin ${refresh("new.id")} end`],
    [
      "submissions_update",
      `after update of internal_examiner, external_examiner, updated_at on submissions
      when old.internal_examiner is not new.internal_examiner or old.external_examiner is not new.external_examiner
        or old.updated_at is not new.updated_at
      begin ${refresh("new.id")} end`,
    ],
    [
      "submissions_delete",
      "after delete on submissions begin delete from examiner_waits where submission_id = old.id; end",
    ],
    [
      "events_insert",
      `after insert on submission_events begin ${refresh("new.submission_id")} end`,
    ],
    [
      "events_update",
      `after update on submission_events begin ${refresh("old.submission_id")} ${refresh("new.submission_id")} end`,
    ],
    [
      "events_delete",
      `after delete on submission_events begin ${refresh("old.submission_id")} end`,
    ],
    [
      "examinations_insert",
      `after insert on examinations begin ${refresh("new.submission_id")} end`,
    ],
    [
      "examinations_update",
      `after update of state, role, submission_id on examinations
      begin ${refresh("old.submission_id")} ${refresh("new.submission_id")} end`,
    ],
    [
      "examinations_delete",
      `after delete on examinations begin ${refresh("old.submission_id")} end`,
    ],
  ];
  for (const [name, body] of triggers) {
    await sql.raw(`create trigger examiner_waits_${name} ${body}`).execute(db);
  }
}

const WAIT_TRIGGERS: [table: string, event: string, ids: string][] = [
  [
    "submissions",
    "insert",
    `select id from new_rows where internal_examiner in ${WAITING} or external_examiner in ${WAITING}`,
  ],
  [
    "submissions",
    "update",
    `select n.id from new_rows n join old_rows o on o.id = n.id
      where n.internal_examiner is distinct from o.internal_examiner
        or n.external_examiner is distinct from o.external_examiner
        or n.updated_at is distinct from o.updated_at`,
  ],
  ["submissions", "delete", "select id from old_rows"],
  ["submission_events", "insert", "select submission_id from new_rows"],
  [
    "submission_events",
    "update",
    "select submission_id from new_rows union select submission_id from old_rows",
  ],
  ["submission_events", "delete", "select submission_id from old_rows"],
  ["examinations", "insert", "select submission_id from new_rows"],
  [
    "examinations",
    "update",
    "select submission_id from new_rows union select submission_id from old_rows",
  ],
  ["examinations", "delete", "select submission_id from old_rows"],
];

async function createPostgresWaitTriggers(db: Kysely<any>): Promise<void> {
  // Locking the submissions first makes two transactions refreshing the same one take turns, the
  // second reading what the first committed (each statement of a plpgsql function in READ
  // COMMITTED sees the latest commits); in id order, so two refreshes of many do not deadlock.
  await sql
    .raw(
      `create function refresh_examiner_waits(ids integer[]) returns void language plpgsql as $$
      begin
        if cardinality(ids) = 0 then return; end if;
        perform 1 from submissions where id = any(ids) order by id for no key update;
        delete from examiner_waits where submission_id = any(ids);
        insert into examiner_waits (submission_id, role, since, linked) ${waitsOf("s.id = any(ids)")};
      end $$`,
    )
    .execute(db);
  for (const [table, event, ids] of WAIT_TRIGGERS) {
    const name = `examiner_waits_${table}_${event}`;
    const tables =
      event === "insert"
        ? "new table as new_rows"
        : event === "delete"
          ? "old table as old_rows"
          : "old table as old_rows new table as new_rows";
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          perform refresh_examiner_waits(array(select distinct id from (${ids}) as changed(id) order by 1));
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${event} on ${table} referencing ${tables}
        for each statement execute function ${name}()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function examiner_waits_truncated() returns trigger language plpgsql as $$
      begin delete from examiner_waits; return null; end $$`,
    )
    .execute(db);
  await sql`create trigger examiner_waits_truncate after truncate on submissions
    for each statement execute function examiner_waits_truncated()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  for (const [table, event] of WAIT_TRIGGERS) {
    const name = postgres
      ? `examiner_waits_${table}_${event}`
      : `examiner_waits_${table === "submission_events" ? "events" : table}_${event}`;
    await sql.raw(`drop trigger if exists ${name}${postgres ? ` on ${table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  if (postgres) {
    await sql`drop trigger if exists examiner_waits_truncate on submissions`.execute(db);
    await sql`drop function if exists examiner_waits_truncated()`.execute(db);
    await sql`drop function if exists refresh_examiner_waits(integer[])`.execute(db);
  }
  await db.schema.dropTable("examiner_waits").ifExists().execute();
  for (const trigger of ["insert", "delete", "update", "truncate"]) {
    await sql`drop trigger if exists ${sql.raw(`dashboard_counts_${trigger}`)} ${sql.raw(
      dialectOf(db) === "postgres" ? "on submissions" : "",
    )}`.execute(db);
  }
  if (dialectOf(db) === "postgres") {
    for (const fn of ["inserted", "deleted", "updated", "truncated"]) {
      await sql`drop function if exists ${sql.raw(`dashboard_counts_${fn}`)}()`.execute(db);
    }
    await sql`drop function if exists compact_dashboard_counts()`.execute(db);
  }
  await db.schema.dropTable("dashboard_counts").ifExists().execute();
}

import { sql, type SqlBool } from "kysely";
import type { DashboardCountsTable } from "../db/schema.js";
import type { Executor } from "../db/database.js";

/** Counting queries behind the administrator's dashboard cards. */

export async function countUsers(db: Executor): Promise<number> {
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export type CountedFigure = DashboardCountsTable["figure"];

/** Per figure, how many submissions hold each value ('' is "not set"); see migration 009. */
export type DashboardCounts = Record<CountedFigure, Map<string, number>>;

/**
 * Past this many rows beyond one per (figure, value), the appended changes are folded together.
 * Only PostgreSQL appends (SQLite keeps one row per value), so only there is it ever reached.
 */
const COMPACT_AFTER_ROWS = 500;

/**
 * The counts the triggers of migration 009 keep: a sum over a few hundred rows, exact, whatever
 * the number of submissions.
 */
export async function countDashboardFigures(db: Executor): Promise<DashboardCounts> {
  const rows = await db
    .selectFrom("dashboard_counts")
    .select([
      "figure",
      "value",
      (eb) => eb.fn.sum<number>("n").as("n"),
      (eb) => eb.fn.countAll<number>().as("rows"),
    ])
    .groupBy(["figure", "value"])
    .execute();
  const counts: DashboardCounts = {
    stage: new Map(),
    internal: new Map(),
    external: new Map(),
    month: new Map(),
  };
  let appended = 0;
  for (const row of rows) {
    appended += Number(row.rows) - 1;
    const n = Number(row.n);
    if (n !== 0) counts[row.figure].set(row.value, n);
  }
  if (appended > COMPACT_AFTER_ROWS) await compactDashboardCounts(db);
  return counts;
}

/** Folds PostgreSQL's appended count changes into one row per value (migration 009). */
export async function compactDashboardCounts(db: Executor): Promise<void> {
  await sql`select compact_dashboard_counts()`.execute(db);
}

/**
 * The same figures counted from the submissions themselves: what the kept counts must always
 * equal (the tests compare them after every kind of write).
 */
export async function recountDashboardFigures(db: Executor): Promise<DashboardCounts> {
  const counts: DashboardCounts = {
    stage: new Map(),
    internal: new Map(),
    external: new Map(),
    month: new Map(),
  };
  const columns = {
    stage: sql<string>`coalesce(sgs_stage, '')`,
    internal: sql<string>`coalesce(internal_examiner, '')`,
    external: sql<string>`coalesce(external_examiner, '')`,
    month: sql<string>`substr(created_at, 1, 7)`,
  };
  for (const figure of ["stage", "internal", "external", "month"] as const) {
    const rows = await db
      .selectFrom("submissions")
      .select([columns[figure].as("value"), (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(columns[figure])
      .execute();
    for (const row of rows) counts[figure].set(row.value, Number(row.n));
  }
  return counts;
}

export interface WaitingReport {
  id: number;
  studentName: string;
  indexNumber: string;
  state: string;
  since: string;
}

const EXAMINER_COLUMNS = {
  internalExaminer: "internal_examiner",
  externalExaminer: "external_examiner",
} as const;

/**
 * Submissions whose examiner has been waiting for the report (typed state "awaiting" or
 * "received") since before `before`, longest first. "Since" is the latest event that set the
 * current state, or the record's last update when no event did (sample data, imports). A record
 * whose examiner got a link is left out: it is followed by its due date
 * (findOverdueExaminations). Read from examiner_waits, which triggers keep (migration 009); the
 * total from countWaitingReports.
 */
export async function findWaitingReports(
  db: Executor,
  field: keyof typeof EXAMINER_COLUMNS,
  before: string,
  limit: number,
): Promise<{ total: number; items: WaitingReport[] }> {
  const column = EXAMINER_COLUMNS[field];
  const role = field === "internalExaminer" ? "internal" : "external";
  const base = db
    .selectFrom("examiner_waits as w")
    .where("w.role", "=", role)
    .where("w.linked", "=", 0)
    .where("w.since", "<", before);
  const [rows, total] = await Promise.all([
    base
      .innerJoin("submissions as s", "s.id", "w.submission_id")
      .select(["s.id", "s.student_name", "s.index_number", `s.${column} as state`, "w.since"])
      .orderBy("w.since")
      .orderBy("w.submission_id")
      .limit(limit)
      .execute(),
    countWaitingReports(db, role, before),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      id: row.id,
      studentName: row.student_name,
      indexNumber: row.index_number,
      state: String(row.state),
      since: row.since,
    })),
  };
}

/**
 * How many waits of a role without a link are older than `before`: the kept total of migration
 * 012 less the waits since `before`. Nearly every wait is overdue (states typed once and left for
 * years), so counting the overdue ones reads nearly the whole index (85,000 entries per role at
 * 1M); the recent ones are the last weeks' activity. Both in one statement, so both come from one
 * snapshot and a write committed between two reads cannot be counted once but not the other time.
 */
export async function countWaitingReports(
  db: Executor,
  role: "internal" | "external",
  before: string,
): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("examiner_wait_totals")
        .where("role", "=", role)
        .select((t) => t.fn.coalesce(t.fn.sum<number>("n"), sql<number>`0`).as("n"))
        .as("waiting"),
      eb
        .selectFrom("examiner_wait_totals")
        .where("role", "=", role)
        .select((t) => t.fn.countAll<number>().as("n"))
        .as("kept_rows"),
      eb
        .selectFrom("examiner_waits")
        .where("role", "=", role)
        .where("linked", "=", 0)
        .where("since", ">=", before)
        .select((w) => w.fn.countAll<number>().as("n"))
        .as("recent"),
    ])
    .executeTakeFirstOrThrow();
  // PostgreSQL appends a change per statement (two per edit of a waiting record): fold them now
  // and then, as countDashboardFigures does. SQLite keeps one row per role, so never gets here.
  if (Number(row.kept_rows) > COMPACT_AFTER_ROWS) await compactWaitingReportTotals(db);
  return Number(row.waiting) - Number(row.recent);
}

/** Folds PostgreSQL's appended changes to the waits' totals into one row per role (migration 012). */
export async function compactWaitingReportTotals(db: Executor): Promise<void> {
  await sql`select compact_examiner_wait_totals()`.execute(db);
}

/** The totals of migration 012 as kept: per role, the waits without a link. */
export async function readWaitingReportTotals(
  db: Executor,
): Promise<{ internal: number; external: number }> {
  const rows = await db
    .selectFrom("examiner_wait_totals")
    .select(["role", (eb) => eb.fn.sum<number>("n").as("n")])
    .groupBy("role")
    .execute();
  const totals = { internal: 0, external: 0 };
  for (const row of rows) totals[row.role] = Number(row.n);
  return totals;
}

/** The same totals counted afresh from examiner_waits: what the kept ones must always equal. */
export async function recountWaitingReportTotals(
  db: Executor,
): Promise<{ internal: number; external: number }> {
  const rows = await db
    .selectFrom("examiner_waits")
    .where("linked", "=", 0)
    .select(["role", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("role")
    .execute();
  const totals = { internal: 0, external: 0 };
  for (const row of rows) totals[row.role] = Number(row.n);
  return totals;
}

/**
 * The waits computed afresh from the submissions, their events and examinations, as the list
 * did before it was kept: what examiner_waits must always equal (the tests compare them).
 */
export async function recomputeExaminerWaits(
  db: Executor,
): Promise<{ submissionId: number; role: string; since: string; linked: number }[]> {
  const rows: { submissionId: number; role: string; since: string; linked: number }[] = [];
  for (const [field, column] of Object.entries(EXAMINER_COLUMNS)) {
    const role = field === "internalExaminer" ? "internal" : "external";
    const found = await db
      .selectFrom("submissions as s")
      .where(`s.${column}`, "in", ["awaiting", "received"])
      .select([
        "s.id",
        sql<string>`coalesce((select max(e.at) from submission_events e where e.submission_id = s.id and e.field = ${field} and e.to_value = s.${sql.raw(column)}), s.updated_at)`.as(
          "since",
        ),
        sql<number>`case when exists (select 1 from examinations x where x.submission_id = s.id and x.role = ${role} and x.state in ('sent', 'received', 'report_submitted')) then 1 else 0 end`.as(
          "linked",
        ),
      ])
      .execute();
    for (const row of found) {
      rows.push({ submissionId: row.id, role, since: row.since, linked: Number(row.linked) });
    }
  }
  return sortWaits(rows);
}

/** examiner_waits as kept, in the order recomputeExaminerWaits returns. */
export async function readExaminerWaits(
  db: Executor,
): Promise<{ submissionId: number; role: string; since: string; linked: number }[]> {
  const rows = await db.selectFrom("examiner_waits").selectAll().execute();
  return sortWaits(
    rows.map((row) => ({
      submissionId: row.submission_id,
      role: row.role,
      since: row.since,
      linked: Number(row.linked),
    })),
  );
}

function sortWaits<T extends { submissionId: number; role: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => a.submissionId - b.submissionId || a.role.localeCompare(b.role));
}

export interface OverdueExaminationRow {
  examinationId: number;
  submissionId: number;
  indexNumber: string;
  studentName: string;
  role: "internal" | "external";
  examinerName: string;
  dueOn: string;
  state: "sent" | "received";
  remindersSent: number;
  lastReminderAt: string | null;
  lastOpenedAt: string | null;
  /** When the latest link was sent (the one late list says since when the report is owed). */
  sentAt: string | null;
}

/**
 * Examinations still waiting for the report (link sent, or thesis received) whose due date is
 * before `today` (YYYY-MM-DD), the longest overdue first, at most `limit`; `total` counts all.
 * A revoked or expired link keeps its examination here: the report is still owed.
 *
 * Both queries read migration 011's partial index on the open examinations by (due_on, id): the
 * page is its first `limit` entries, and only those are joined to their submission, examiner and
 * reminders; the total is a count of one range of it.
 */
export async function findOverdueExaminations(
  db: Executor,
  today: string,
  limit: number,
): Promise<{ total: number; items: OverdueExaminationRow[] }> {
  const base = db
    .selectFrom("examinations as e")
    // Word for word the index's condition, with literal values: see migration 011.
    .where(sql<SqlBool>`e.state in ('sent', 'received')`)
    .where("e.due_on", "<", today);
  const page = base
    .select([
      "e.id",
      "e.submission_id",
      "e.examiner_id",
      "e.role",
      "e.due_on",
      "e.state",
      "e.last_opened_at",
      "e.sent_at",
    ])
    .orderBy("e.due_on")
    .orderBy("e.id")
    .limit(limit);
  const [rows, { count }] = await Promise.all([
    db
      .selectFrom(page.as("e"))
      .innerJoin("submissions as s", "s.id", "e.submission_id")
      .innerJoin("examiners as x", "x.id", "e.examiner_id")
      .select((eb) => [
        "e.id",
        "e.submission_id",
        "s.index_number",
        "s.student_name",
        "e.role",
        "x.name as examiner_name",
        "e.due_on",
        "e.state",
        "e.last_opened_at",
        "e.sent_at",
        // Per row of the page, on the reminders' (examination_id, offset_days) index; a join to
        // the reminders grouped by examination would group every reminder ever sent.
        eb
          .selectFrom("examiner_reminders as r")
          .whereRef("r.examination_id", "=", "e.id")
          .select((r) => r.fn.countAll<number>().as("n"))
          .as("sent"),
        eb
          .selectFrom("examiner_reminders as r")
          .whereRef("r.examination_id", "=", "e.id")
          .select((r) => r.fn.max("r.sent_at").as("at"))
          .as("last_at"),
      ])
      .orderBy("e.due_on")
      .orderBy("e.id")
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count),
    items: rows.map((row) => ({
      examinationId: row.id,
      submissionId: row.submission_id,
      indexNumber: row.index_number,
      studentName: row.student_name,
      role: row.role,
      examinerName: row.examiner_name,
      dueOn: row.due_on ?? "",
      state: row.state as "sent" | "received",
      remindersSent: Number(row.sent ?? 0),
      lastReminderAt: row.last_at ?? null,
      lastOpenedAt: row.last_opened_at,
      sentAt: row.sent_at,
    })),
  };
}

/**
 * Submissions with at least one current document version in a review state: "pending" (waiting
 * for the school) or "returned" (waiting for the student's new version).
 */
export async function countSubmissionsWithCurrentDocuments(
  db: Executor,
  state: "pending" | "returned",
): Promise<number> {
  const { count } = await db
    .selectFrom("submission_documents")
    .select((eb) => eb.fn.count<number>("submission_id").distinct().as("count"))
    .where("is_current", "=", 1)
    .where("review_state", "=", state)
    .executeTakeFirstOrThrow();
  return Number(count);
}

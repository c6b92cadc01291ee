import { sql, type SqlBool } from "kysely";
import type { Executor } from "../db/database.js";
import { ALL_COHORTS, ALL_PROGRAMMES, compactReportRollups } from "../db/report-rollups.js";

/**
 * Reads of the Reports rollups (migration 019, server/db/report-rollups.ts). Every read names one
 * programme (or every programme) and one cohort (or every cohort): the rollups keep each
 * combination, so nothing is added across programmes here.
 */

export interface RollupScope {
  programme: string | undefined;
  cohort: number | undefined;
}

function scoped(scope: RollupScope) {
  return {
    programme: scope.programme ?? ALL_PROGRAMMES,
    cohort: scope.cohort ?? ALL_COHORTS,
  };
}

/** PostgreSQL appends changes; past this many extra rows a read folds them (migration 019). */
const COMPACT_AFTER_ROWS = 20_000;

export interface DurationRow {
  figure: string;
  subject: string;
  days: number;
  n: number;
}

/** Per figure, subject and whole days, the count over the months from..to (YYYY-MM, included). */
export async function readDurations(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  figures: string[],
): Promise<DurationRow[]> {
  const { programme, cohort } = scoped(scope);
  const rows = await db
    .selectFrom("report_rollups")
    .select([
      "figure",
      "subject",
      "days",
      (eb) => eb.fn.sum<number>("n").as("n"),
      (eb) => eb.fn.countAll<number>().as("rows"),
    ])
    .where("programme", "=", programme)
    .where("cohort", "=", cohort)
    .where("month", ">=", from)
    .where("month", "<=", to)
    .where("figure", "in", figures)
    .groupBy(["figure", "subject", "days"])
    .execute();
  let extra = 0;
  const out: DurationRow[] = [];
  for (const row of rows) {
    extra += Number(row.rows) - 1;
    const n = Number(row.n);
    if (n !== 0) out.push({ figure: row.figure, subject: row.subject, days: Number(row.days), n });
  }
  // Rows of several months per key are normal; appended changes make many more on PostgreSQL.
  if (extra > COMPACT_AFTER_ROWS) await compactReportRollups(db);
  return out;
}

export interface MonthCountRow {
  month: string;
  figure: string;
  subject: string;
  n: number;
}

/** Per month, figure and subject, the count (figures counted without days: entered, left). */
export async function readMonthCounts(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  figures: string[],
): Promise<MonthCountRow[]> {
  const { programme, cohort } = scoped(scope);
  const rows = await db
    .selectFrom("report_rollups")
    .select(["month", "figure", "subject", (eb) => eb.fn.sum<number>("n").as("n")])
    .where("programme", "=", programme)
    .where("cohort", "=", cohort)
    .where("month", ">=", from)
    .where("month", "<=", to)
    .where("figure", "in", figures)
    .groupBy(["month", "figure", "subject"])
    .execute();
  return rows.map((row) => ({
    month: row.month,
    figure: row.figure,
    subject: row.subject,
    n: Number(row.n),
  }));
}

export interface ExaminerRow {
  id: number;
  name: string;
  institution: string;
  kind: "internal" | "external";
}

/** One page of the examiner list, by name. */
export async function pageOfExaminers(
  db: Executor,
  page: number,
  pageSize: number,
): Promise<{ total: number; items: ExaminerRow[] }> {
  const [items, total] = await Promise.all([
    db
      .selectFrom("examiners")
      .select(["id", "name", "institution", "kind"])
      .orderBy("name")
      .orderBy("id")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom("examiners")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), items };
}

/** Per examiner (of `ids`) and whole days, reports received in the months from..to. */
export async function readExaminerDurations(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  ids: number[],
): Promise<DurationRow[]> {
  if (ids.length === 0) return [];
  const { programme, cohort } = scoped(scope);
  const rows = await db
    .selectFrom("report_rollups")
    .select(["figure", "subject", "days", (eb) => eb.fn.sum<number>("n").as("n")])
    .where("programme", "=", programme)
    .where("cohort", "=", cohort)
    .where("month", ">=", from)
    .where("month", "<=", to)
    .where("figure", "=", "examiner")
    .where(
      "subject",
      "in",
      ids.map((id) => String(id)),
    )
    .groupBy(["figure", "subject", "days"])
    .execute();
  return rows
    .map((row) => ({
      figure: row.figure,
      subject: row.subject,
      days: Number(row.days),
      n: Number(row.n),
    }))
    .filter((row) => row.n !== 0);
}

/**
 * Per examiner (of `ids`), links out now without a report (state "sent" or "received") and how
 * many of those are past their due date on `today`, for the scope's records.
 */
export async function countOpenExaminations(
  db: Executor,
  scope: RollupScope,
  ids: number[],
  today: string,
): Promise<Map<number, { open: number; late: number }>> {
  const counts = new Map<number, { open: number; late: number }>();
  if (ids.length === 0) return counts;
  const { programme, cohort } = scope;
  const rows = await db
    .selectFrom("examinations as e")
    .innerJoin("submissions as s", "s.id", "e.submission_id")
    .where("e.examiner_id", "in", ids)
    .where(sql<SqlBool>`e.state in ('sent', 'received')`)
    .$if(programme !== undefined, (q) => q.where("s.programme", "=", programme ?? ""))
    .$if(cohort !== undefined, (q) =>
      q
        .where("s.created_at", ">=", `${cohort ?? 0}-01-01`)
        .where("s.created_at", "<", `${(cohort ?? 0) + 1}-01-01`),
    )
    .select([
      "e.examiner_id",
      (eb) => eb.fn.countAll<number>().as("open"),
      sql<number>`sum(case when e.due_on < ${today} then 1 else 0 end)`.as("late"),
    ])
    .groupBy("e.examiner_id")
    .execute();
  for (const row of rows) {
    counts.set(row.examiner_id, { open: Number(row.open), late: Number(row.late ?? 0) });
  }
  return counts;
}

/** Entered less left of a subject over all months: how many stand in it now. */
export async function countStanding(
  db: Executor,
  scope: RollupScope,
  subject: string,
): Promise<number> {
  const { programme, cohort } = scoped(scope);
  const row = await db
    .selectFrom("report_rollups")
    .select(sql<number>`coalesce(sum(case when figure = 'entered' then n else -n end), 0)`.as("n"))
    .where("programme", "=", programme)
    .where("cohort", "=", cohort)
    .where("figure", "in", ["entered", "left"])
    .where("subject", "=", subject)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

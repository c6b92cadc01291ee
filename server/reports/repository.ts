import { sql, type SqlBool } from "kysely";
import type { Executor } from "../db/database.js";
import { ALL_COHORTS, ALL_PROGRAMMES, YEARLY, compactReportRollups } from "../db/report-rollups.js";

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

/**
 * The period as ranges of the rollups: whole years read their yearly rows ("y." figures, month
 * "YYYY-00"), the months before the first whole year and after the last read monthly rows.
 */
export function periodRanges(
  from: string,
  to: string,
): { yearly: boolean; from: string; to: string }[] {
  const fromYear = Number(from.slice(0, 4));
  const toYear = Number(to.slice(0, 4));
  const firstWhole = from.endsWith("-01") ? fromYear : fromYear + 1;
  const lastWhole = to.endsWith("-12") ? toYear : toYear - 1;
  if (firstWhole > lastWhole) return [{ yearly: false, from, to }];
  const year = (y: number) => String(y).padStart(4, "0");
  const ranges: { yearly: boolean; from: string; to: string }[] = [];
  if (from < `${year(firstWhole)}-01`) {
    ranges.push({ yearly: false, from, to: `${year(firstWhole - 1)}-12` });
  }
  ranges.push({ yearly: true, from: `${year(firstWhole)}-00`, to: `${year(lastWhole)}-00` });
  if (to > `${year(lastWhole)}-12`) {
    ranges.push({ yearly: false, from: `${year(lastWhole + 1)}-01`, to });
  }
  return ranges;
}

/**
 * Per figure, subject and whole days, the count over the months from..to (YYYY-MM, included),
 * optionally of some subjects only.
 */
export async function readDurations(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  figures: string[],
  subjects?: string[],
): Promise<DurationRow[]> {
  const { programme, cohort } = scoped(scope);
  const counts = new Map<string, DurationRow>();
  let extra = 0;
  for (const range of periodRanges(from, to)) {
    const rows = await db
      .selectFrom("report_rollups")
      .select([
        "figure",
        "subject",
        "days",
        (eb) => eb.fn.sum<number>("n").as("n"),
        (eb) => eb.fn.countAll<number>().as("rows"),
        // One row per month is the kept form; more are PostgreSQL's appended changes.
        sql<number>`count(distinct month)`.as("months"),
      ])
      .where("programme", "=", programme)
      .where("cohort", "=", cohort)
      .where(
        "figure",
        "in",
        figures.map((f) => (range.yearly ? `${YEARLY}${f}` : f)),
      )
      .$if(subjects !== undefined, (q) => q.where("subject", "in", subjects ?? []))
      .where("month", ">=", range.from)
      .where("month", "<=", range.to)
      .groupBy(["figure", "subject", "days"])
      .execute();
    for (const row of rows) {
      extra += Number(row.rows) - Number(row.months);
      const figure = range.yearly ? row.figure.slice(YEARLY.length) : row.figure;
      const days = Number(row.days);
      const key = `${figure}|${row.subject}|${days}`;
      const kept = counts.get(key);
      if (kept) kept.n += Number(row.n);
      else counts.set(key, { figure, subject: row.subject, days, n: Number(row.n) });
    }
  }
  // Only appended changes count here (a row per month of a key is the kept form): a read must not
  // fold the whole table every time because a long period has many months.
  if (extra > COMPACT_AFTER_ROWS) await compactReportRollups(db);
  return [...counts.values()].filter((row) => row.n !== 0);
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
  return readDurations(
    db,
    scope,
    from,
    to,
    ["examiner"],
    ids.map((id) => String(id)),
  );
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

import { sql } from "kysely";
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

export interface PeriodRange {
  yearly: boolean;
  from: string;
  to: string;
  /** 1: the range's counts are added; -1: taken away (the months of a year outside the period). */
  sign: 1 | -1;
}

/**
 * The period as ranges of the rollups: whole years read their yearly rows ("y." figures, month
 * "YYYY-00"). A part of a year read month by month would be up to eleven months of rows; when it
 * is more than half the year it reads the year's rows less the months outside the period (the
 * rolling twelve months Feb-Jan: the year and two months, not twelve months).
 */
export function periodRanges(from: string, to: string): PeriodRange[] {
  const fromYear = Number(from.slice(0, 4));
  const toYear = Number(to.slice(0, 4));
  const year = (y: number) => String(y).padStart(4, "0");
  const month = (y: number, m: number) => `${year(y)}-${String(m).padStart(2, "0")}`;
  const ranges: PeriodRange[] = [];
  /** Months first..last (1-12) of year y. */
  const part = (y: number, first: number, last: number) => {
    if (first === 1 && last === 12) return;
    const inside = last - first + 1;
    if (inside <= 6) {
      ranges.push({ yearly: false, from: month(y, first), to: month(y, last), sign: 1 });
      return;
    }
    ranges.push({ yearly: true, from: `${year(y)}-00`, to: `${year(y)}-00`, sign: 1 });
    if (first > 1)
      ranges.push({ yearly: false, from: month(y, 1), to: month(y, first - 1), sign: -1 });
    if (last < 12)
      ranges.push({ yearly: false, from: month(y, last + 1), to: month(y, 12), sign: -1 });
  };
  const fromMonth = Number(from.slice(5, 7));
  const toMonth = Number(to.slice(5, 7));
  if (fromYear === toYear) {
    if (fromMonth === 1 && toMonth === 12) {
      return [{ yearly: true, from: `${year(fromYear)}-00`, to: `${year(fromYear)}-00`, sign: 1 }];
    }
    part(fromYear, fromMonth, toMonth);
    return ranges;
  }
  part(fromYear, fromMonth, 12);
  const firstWhole = fromMonth === 1 ? fromYear : fromYear + 1;
  const lastWhole = toMonth === 12 ? toYear : toYear - 1;
  if (firstWhole <= lastWhole) {
    ranges.push({
      yearly: true,
      from: `${year(firstWhole)}-00`,
      to: `${year(lastWhole)}-00`,
      sign: 1,
    });
  }
  part(toYear, 1, toMonth);
  return ranges;
}

/**
 * Per figure, subject and whole days, the count over the months from..to (YYYY-MM, included),
 * optionally of some subjects only. Name the subjects when they are known: the rollups' key is
 * (programme, cohort, figure, subject, month, days), so without them a read goes through every
 * month of each figure to find the period's (at a million records, most of the time of a read).
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
      const n = range.sign * Number(row.n);
      const kept = counts.get(key);
      if (kept) kept.n += n;
      else counts.set(key, { figure, subject: row.subject, days, n });
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

/**
 * Per month, figure and subject (of `subjects`), the count (figures counted without days:
 * entered, left).
 */
export async function readMonthCounts(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  figures: string[],
  subjects: string[],
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
    .where("subject", "in", subjects)
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
 * many of those are past their due date on `today`, for the scope's records: read from the open
 * reports' rollups (migration 022), a range of due days per examiner.
 */
export async function countOpenExaminations(
  db: Executor,
  scope: RollupScope,
  ids: number[],
  today: string,
): Promise<Map<number, { open: number; late: number }>> {
  const counts = new Map<number, { open: number; late: number }>();
  if (ids.length === 0) return counts;
  const { programme, cohort } = scoped(scope);
  const rows = await db
    .selectFrom("report_open_rollups")
    .where("programme", "=", programme)
    .where("cohort", "=", cohort)
    .where("kind", "=", "link")
    .where("examiner_id", "in", ids)
    .select([
      "examiner_id",
      (eb) => eb.fn.sum<number>("n").as("open"),
      sql<number>`sum(case when day < ${today} then n else 0 end)`.as("late"),
    ])
    .groupBy("examiner_id")
    .execute();
  for (const row of rows) {
    counts.set(row.examiner_id, { open: Number(row.open), late: Number(row.late ?? 0) });
  }
  return counts;
}

/**
 * How many reports are late on `today` for the scope's records: links whose due day is before
 * today, typed states typed before `typedBefore` (a day). Two ranges of the open reports' rollups.
 */
export async function countLateReports(
  db: Executor,
  scope: RollupScope,
  today: string,
  typedBefore: string,
): Promise<{ linked: number; typed: number }> {
  const { programme, cohort } = scoped(scope);
  const count = (kind: "link" | "typed", before: string) =>
    db
      .selectFrom("report_open_rollups")
      .where("programme", "=", programme)
      .where("cohort", "=", cohort)
      .where("kind", "=", kind)
      .where("examiner_id", "=", 0)
      .where("day", "<", before)
      .select([
        (eb) => eb.fn.sum<number>("n").as("n"),
        (eb) => eb.fn.countAll<number>().as("rows"),
        sql<number>`count(distinct day)`.as("days"),
      ])
      .executeTakeFirstOrThrow();
  const [linked, typed] = await Promise.all([count("link", today), count("typed", typedBefore)]);
  // PostgreSQL's appended changes (one row per day is the kept form): fold them now and then.
  const extra = Number(linked.rows) - Number(linked.days) + Number(typed.rows) - Number(typed.days);
  if (extra > COMPACT_AFTER_ROWS) await compactReportRollups(db);
  return { linked: Number(linked.n ?? 0), typed: Number(typed.n ?? 0) };
}

export interface LateItemRow {
  submission_id: number;
  role: "internal" | "external";
  examination_id: number;
  day: string;
}

/**
 * The first `limit` open reports of a kind due (or typed) before `before`, in the order the late
 * list shows them (earliest day, then record and role), for the scope's records: one range of the
 * index that serves the filters chosen (migration 022).
 */
export async function firstLateItems(
  db: Executor,
  scope: RollupScope,
  kind: "link" | "typed",
  before: string,
  limit: number,
): Promise<LateItemRow[]> {
  const { programme, cohort } = scope;
  return db
    .selectFrom("report_open_items")
    .select(["submission_id", "role", "examination_id", "day"])
    .$if(programme !== undefined, (q) => q.where("programme", "=", programme ?? ""))
    .$if(cohort !== undefined, (q) => q.where("cohort", "=", cohort ?? 0))
    .where("kind", "=", kind)
    .where("day", "<", before)
    .orderBy("day")
    .orderBy("submission_id")
    .orderBy("role")
    .limit(limit)
    .execute();
}

/** What the late list shows of its first items: their records, examinations, examiners, waits. */
export async function lateDetails(
  db: Executor,
  submissionIds: number[],
  examinationIds: number[],
  typedIds: number[],
) {
  const [submissions, examinations, waits] = await Promise.all([
    submissionIds.length === 0
      ? []
      : db
          .selectFrom("submissions")
          .select([
            "id",
            "student_name",
            "index_number",
            "programme",
            "internal_examiner",
            "external_examiner",
          ])
          .where("id", "in", submissionIds)
          .execute(),
    examinationIds.length === 0
      ? []
      : db
          .selectFrom("examinations")
          .select(["id", "examiner_id", "due_on", "state", "sent_at"])
          .where("id", "in", examinationIds)
          .execute(),
    typedIds.length === 0
      ? []
      : db
          .selectFrom("examiner_waits")
          .select(["submission_id", "role", "since"])
          .where("submission_id", "in", typedIds)
          .execute(),
  ]);
  const examinerIds = [...new Set(examinations.map((x) => x.examiner_id))];
  const examiners =
    examinerIds.length === 0
      ? []
      : await db
          .selectFrom("examiners")
          .select(["id", "name"])
          .where("id", "in", examinerIds)
          .execute();
  return {
    submissions: new Map(submissions.map((s) => [s.id, s])),
    examinations: new Map(examinations.map((x) => [x.id, x])),
    examiners: new Map(examiners.map((x) => [x.id, x.name])),
    waits: new Map(waits.map((w) => [`${w.submission_id}|${w.role}`, w.since])),
  };
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

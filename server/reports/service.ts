import {
  REPORT_LATE_LIST_LIMIT,
  REPORT_EXAMINER_PAGE_SIZE,
  REPORT_STAGES,
  monthIndex,
  monthOfIndex,
  type Distribution,
  type LateReport,
  type LateReports,
  type PeriodFigures,
  type ReportFigures,
  type ReportQuery,
} from "../../common/reports.js";
import { EXAMINER_KINDS, RECOMMENDATIONS } from "../../common/examiners-constants.js";
import type { Config } from "../config.js";
import { nowIso, type Executor } from "../db/database.js";
import {
  countLateReports,
  countOpenExaminations,
  countStanding,
  firstLateItems,
  lateDetails,
  pageOfExaminers,
  readDurations,
  readExaminerDurations,
  readMonthCounts,
  type DurationRow,
  type RollupScope,
} from "./repository.js";

/**
 * The Reports figures (issue 22, docs/decisions/025-report-figures.md), read from the rollups
 * that every timeline event keeps current (migration 019), never by scanning the history. The
 * definitions (whole days, nearest-rank percentiles, unknown history) are in common/reports.ts.
 */

/** What the figures need of the configuration: when a typed examiner state is late. */
export type ReportSettings = Pick<Config, "reportOverdueDays">;

/** The filters that choose the records (not the period). */
export interface RecordFilters {
  programme?: string | undefined;
  cohort?: number | undefined;
}

/**
 * The p-th percentile by the nearest-rank rule, of durations given as a count per whole day: the
 * value at rank ceil(p / 100 * n) of the n durations sorted ascending; null when there are none.
 */
export function nearestRank(histogram: Map<number, number>, p: number): number | null {
  const days = [...histogram.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const d of days) total += histogram.get(d) ?? 0;
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const d of days) {
    seen += histogram.get(d) ?? 0;
    if (seen >= rank) return d;
  }
  return days[days.length - 1] ?? null;
}

export function distributionOf(histogram: Map<number, number>): Distribution {
  let count = 0;
  for (const n of histogram.values()) count += n;
  return {
    count,
    median: nearestRank(histogram, 50),
    p75: nearestRank(histogram, 75),
    p90: nearestRank(histogram, 90),
  };
}

/** The period's months: the query's, else the twelve months ending with the current one. */
export function resolvePeriod(query: ReportQuery, now: Date): { from: string; to: string } {
  const current = nowIso(now).slice(0, 7);
  if (query.from !== undefined && query.to !== undefined) return { from: query.from, to: query.to };
  if (query.from !== undefined) {
    return { from: query.from, to: monthOfIndex(monthIndex(query.from) + 11) };
  }
  const to = query.to ?? current;
  return { from: monthOfIndex(monthIndex(to) - 11), to };
}

function shiftYear(month: string, years: number): string {
  return monthOfIndex(monthIndex(month) + 12 * years);
}

/** Histograms per "figure|subject" from the rows. */
function histograms(rows: DurationRow[]): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const row of rows) {
    const key = `${row.figure}|${row.subject}`;
    let h = out.get(key);
    if (!h) {
      h = new Map();
      out.set(key, h);
    }
    h.set(row.days, (h.get(row.days) ?? 0) + row.n);
  }
  return out;
}

function countOf(h: Map<number, number> | undefined): number {
  let total = 0;
  for (const n of h?.values() ?? []) total += n;
  return total;
}

const DURATION_FIGURES = ["stage", "stage_unknown", "span", "span_unknown", "leg", "outcome"];
/**
 * Every subject of those figures, named so a read seeks each figure and subject's months in the
 * rollups' key (programme, cohort, figure, subject, month, days) instead of reading every month
 * of the figure (server/reports/repository.ts, readDurations).
 */
const DURATION_SUBJECTS = [
  "",
  ...REPORT_STAGES,
  ...EXAMINER_KINDS.flatMap((kind) =>
    ["link_to_download", "download_to_report", "link_to_report"].map((leg) => `${kind}:${leg}`),
  ),
  ...RECOMMENDATIONS,
];

async function periodFigures(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  examinerPage: number,
  today: string,
): Promise<PeriodFigures> {
  const [durations, monthCounts, examiners, correctionsPending] = await Promise.all([
    readDurations(db, scope, from, to, DURATION_FIGURES, DURATION_SUBJECTS),
    readMonthCounts(db, scope, from, to, ["entered", "left"], [...REPORT_STAGES]),
    pageOfExaminers(db, examinerPage, REPORT_EXAMINER_PAGE_SIZE),
    countStanding(db, scope, "corrections"),
  ]);
  const ids = examiners.items.map((x) => x.id);
  const [examinerDurations, open] = await Promise.all([
    readExaminerDurations(db, scope, from, to, ids),
    countOpenExaminations(db, scope, ids, today),
  ]);
  const h = histograms(durations);
  const hx = histograms(examinerDurations);
  const empty = new Map<number, number>();

  const throughputCounts = new Map<string, number>();
  for (const row of monthCounts) {
    const key = `${row.month}|${row.subject}|${row.figure}`;
    throughputCounts.set(key, (throughputCounts.get(key) ?? 0) + row.n);
  }
  const months: string[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i += 1) months.push(monthOfIndex(i));

  const outcomeCounts = RECOMMENDATIONS.map((decision) => ({
    decision,
    count: countOf(h.get(`outcome|${decision}`)),
  }));
  return {
    from,
    to,
    stages: REPORT_STAGES.map((stage) => ({
      stage,
      days: distributionOf(h.get(`stage|${stage}`) ?? empty),
      unknownHistory: countOf(h.get(`stage_unknown|${stage}`)),
    })),
    total: {
      days: distributionOf(h.get("span|") ?? empty),
      unknownHistory: countOf(h.get("span_unknown|")),
    },
    turnaround: EXAMINER_KINDS.map((kind) => ({
      kind,
      legs: {
        link_to_download: distributionOf(h.get(`leg|${kind}:link_to_download`) ?? empty),
        download_to_report: distributionOf(h.get(`leg|${kind}:download_to_report`) ?? empty),
        link_to_report: distributionOf(h.get(`leg|${kind}:link_to_report`) ?? empty),
      },
    })),
    examiners: {
      items: examiners.items.map((x) => {
        const linkToReport = distributionOf(hx.get(`examiner|${x.id}`) ?? empty);
        const now = open.get(x.id);
        return {
          examinerId: x.id,
          name: x.name,
          institution: x.institution,
          kind: x.kind,
          examined: linkToReport.count,
          linkToReport,
          inProgress: now?.open ?? 0,
          lateNow: now?.late ?? 0,
        };
      }),
      total: examiners.total,
      page: examinerPage,
      pageSize: REPORT_EXAMINER_PAGE_SIZE,
    },
    outcomes: {
      counts: outcomeCounts,
      total: outcomeCounts.reduce((sum, c) => sum + c.count, 0),
      correctionsToApproval: distributionOf(h.get("stage|corrections") ?? empty),
      correctionsPending,
    },
    throughput: months.flatMap((month) =>
      REPORT_STAGES.map((stage) => ({
        month,
        stage,
        entered: throughputCounts.get(`${month}|${stage}|entered`) ?? 0,
        left: throughputCounts.get(`${month}|${stage}|left`) ?? 0,
      })),
    ),
  };
}

/**
 * Every figure of the Reports page for the query's filters and period (and the year before when
 * `query.compare`), with "now" as the clock for late reports and pending counts.
 */
export async function reportFigures(
  db: Executor,
  query: ReportQuery,
  now: Date,
  settings: ReportSettings,
): Promise<ReportFigures> {
  const scope: RollupScope = { programme: query.programme, cohort: query.cohort };
  const { from, to } = resolvePeriod(query, now);
  const today = nowIso(now).slice(0, 10);
  const [current, previous, late] = await Promise.all([
    periodFigures(db, scope, from, to, query.examinerPage, today),
    query.compare
      ? periodFigures(db, scope, shiftYear(from, -1), shiftYear(to, -1), query.examinerPage, today)
      : null,
    lateReports(db, scope, now, settings, REPORT_LATE_LIST_LIMIT),
  ]);
  return {
    generatedAt: nowIso(now),
    filters: { programme: query.programme ?? null, cohort: query.cohort ?? null },
    current,
    previous,
    late,
  };
}

/**
 * The late reports now (the one overdue list, the dashboard's definition: server/dashboard's
 * overdue.test.ts holds the two equal), most days late first: at most `limit` items and the total. The dean's PDF lists more by passing a larger
 * limit. Read from the open reports (migration 022): the counts from their rollups, the first
 * items from the index that serves the filters, so a programme or cohort never makes a read look
 * up every open examination's record.
 */
export async function lateReports(
  db: Executor,
  filters: RecordFilters,
  now: Date,
  settings: ReportSettings,
  limit: number,
): Promise<LateReports> {
  const today = nowIso(now).slice(0, 10);
  const overdueDays = settings.reportOverdueDays;
  // A typed state is late when its day + overdueDays is before today.
  const typedBefore = addDays(today, -overdueDays);
  const scope: RollupScope = { programme: filters.programme, cohort: filters.cohort };
  const [counts, linkedItems, typedItems] = await Promise.all([
    countLateReports(db, scope, today, typedBefore),
    firstLateItems(db, scope, "link", today, limit),
    firstLateItems(db, scope, "typed", typedBefore, limit),
  ]);
  const details = await lateDetails(
    db,
    [...new Set([...linkedItems, ...typedItems].map((r) => r.submission_id))],
    linkedItems.map((r) => r.examination_id),
    typedItems.map((r) => r.submission_id),
  );
  const items: LateReport[] = [];
  for (const row of linkedItems) {
    const s = details.submissions.get(row.submission_id);
    const x = details.examinations.get(row.examination_id);
    if (!s || !x || x.due_on === null) continue;
    items.push({
      submissionId: s.id,
      studentName: s.student_name,
      indexNumber: s.index_number,
      programme: s.programme,
      role: row.role,
      examinerName: details.examiners.get(x.examiner_id) ?? null,
      state: x.state === "received" ? "received" : "awaiting",
      knownBy: "link_due_date",
      dueOn: x.due_on,
      since: x.sent_at ?? x.due_on,
      daysLate: daysBetween(x.due_on, today),
    });
  }
  for (const row of typedItems) {
    const s = details.submissions.get(row.submission_id);
    const since = details.waits.get(`${row.submission_id}|${row.role}`);
    if (!s || since === undefined) continue;
    const state = (row.role === "internal" ? s.internal_examiner : s.external_examiner) ?? "";
    const dueOn = addDays(since, overdueDays);
    items.push({
      submissionId: s.id,
      studentName: s.student_name,
      indexNumber: s.index_number,
      programme: s.programme,
      role: row.role,
      examinerName: null,
      state: state === "received" ? "received" : "awaiting",
      knownBy: "typed_state",
      dueOn,
      since,
      daysLate: daysBetween(dueOn, today),
    });
  }
  items.sort(
    (a, b) =>
      b.daysLate - a.daysLate ||
      a.submissionId - b.submissionId ||
      a.role.localeCompare(b.role) ||
      a.knownBy.localeCompare(b.knownBy),
  );
  return { items: items.slice(0, limit), total: counts.linked + counts.typed, overdueDays };
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(date.slice(0, 10)) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

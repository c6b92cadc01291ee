import {
  EXAMINERS,
  EXAMINER_FIELDS,
  EXAMINER_STATES,
  SGS_STAGES,
  type ExaminerState,
} from "../../common/workflow.js";
import {
  NONE,
  OVERDUE_LIST_LIMIT,
  type OverdueReport,
  type StatsResponse,
} from "../../common/submissions-api.js";
import type { OverdueExamination } from "../../common/examiners.js";
import type { Config } from "../config.js";
import { nowIso } from "../db/database.js";
import { countSubmissions, type Executor } from "../submissions/repository.js";
import {
  countByColumn,
  countSubmissionsCreatedSince,
  countSubmissionsPerMonth,
  countSubmissionsWithCurrentDocuments,
  countUsers,
  findOverdueExaminations,
  findWaitingReports,
  type GroupedColumn,
} from "./repository.js";

const DAY_MS = 24 * 3600 * 1000;
/** An examiner in these states still owes the report. */
const WAITING_STATES: ExaminerState[] = ["awaiting", "received"];

/** The dashboard's figures. Months are calendar months in UTC, as stored times are. */
export async function dashboardStats(
  db: Executor,
  config: Pick<Config, "reportOverdueDays">,
  now: Date = new Date(),
): Promise<StatsResponse> {
  const months = lastTwelveMonths(now);
  const monthStart = `${months[months.length - 1]}-01T00:00:00.000Z`;
  const firstMonthStart = `${months[0]}-01T00:00:00.000Z`;
  const overdueBefore = nowIso(new Date(now.getTime() - config.reportOverdueDays * DAY_MS));
  const today = nowIso(now).slice(0, 10);

  const [
    totalSubmissions,
    totalUsers,
    addedThisMonth,
    perStage,
    internal,
    external,
    perMonth,
    documentsWaiting,
    documentsReturned,
    overdueExaminations,
  ] = await Promise.all([
    countSubmissions(db),
    countUsers(db),
    countSubmissionsCreatedSince(db, monthStart),
    countsOf(db, "sgs_stage", SGS_STAGES),
    countsOf(db, "internal_examiner", EXAMINER_STATES),
    countsOf(db, "external_examiner", EXAMINER_STATES),
    countSubmissionsPerMonth(db, firstMonthStart),
    countSubmissionsWithCurrentDocuments(db, "pending"),
    countSubmissionsWithCurrentDocuments(db, "returned"),
    findOverdueExaminations(db, today, OVERDUE_LIST_LIMIT),
  ]);

  const waiting = await Promise.all(
    EXAMINERS.map(async (examiner) => {
      const found = await findWaitingReports(
        db,
        EXAMINER_FIELDS[examiner],
        WAITING_STATES,
        overdueBefore,
        OVERDUE_LIST_LIMIT,
      );
      return {
        total: found.total,
        items: found.items.map(
          (report): OverdueReport => ({
            id: report.id,
            studentName: report.studentName,
            indexNumber: report.indexNumber,
            examiner,
            state: report.state as ExaminerState,
            since: report.since,
            days: Math.floor((now.getTime() - Date.parse(report.since)) / DAY_MS),
          }),
        ),
      };
    }),
  );
  const overdueReports = waiting
    .flatMap((w) => w.items)
    .sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id - b.id))
    .slice(0, OVERDUE_LIST_LIMIT);

  const byMonth = new Map(perMonth.map((m) => [m.month, m.count]));
  return {
    totalSubmissions,
    totalUsers,
    addedThisMonth,
    perStage: perStage as StatsResponse["perStage"],
    perExaminerState: {
      internal: internal as StatsResponse["perExaminerState"]["internal"],
      external: external as StatsResponse["perExaminerState"]["external"],
    },
    overdueReports,
    overdueReportsTotal: waiting.reduce((sum, w) => sum + w.total, 0),
    reportOverdueDays: config.reportOverdueDays,
    overdueExaminations: overdueExaminations.items.map(
      (row): OverdueExamination => ({
        ...row,
        daysOverdue: Math.round((Date.parse(today) - Date.parse(row.dueOn)) / DAY_MS),
      }),
    ),
    overdueExaminationsTotal: overdueExaminations.total,
    documentsWaiting,
    documentsReturned,
    perMonth: months.map((month) => ({ month, count: byMonth.get(month) ?? 0 })),
  };
}

/** A count for every value of the flow and for "none", zero where nothing matches. */
async function countsOf(
  db: Executor,
  column: GroupedColumn,
  values: readonly string[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(
    [...values, NONE].map((value) => [value, 0]),
  );
  for (const { value, count } of await countByColumn(db, column)) {
    const key = value === null ? NONE : value;
    // A value outside the flow (not written by this app) is not shown rather than miscounted.
    if (key in counts) counts[key] = (counts[key] ?? 0) + count;
  }
  return counts;
}

/** YYYY-MM of the twelve months ending with the current one (UTC), oldest first. */
export function lastTwelveMonths(now: Date): string[] {
  const months: string[] = [];
  for (let back = 11; back >= 0; back -= 1) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return months;
}

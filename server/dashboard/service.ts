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
  type DashboardLateReport,
  type OverdueReport,
  type StatsResponse,
} from "../../common/submissions-api.js";
import type { OverdueExamination } from "../../common/examiners.js";
import type { Config } from "../config.js";
import { nowIso, type Executor } from "../db/database.js";
import {
  countDashboardFigures,
  countSubmissionsWithCurrentDocuments,
  countUsers,
  findOverdueExaminations,
  findWaitingReports,
} from "./repository.js";

const DAY_MS = 24 * 3600 * 1000;
// An examiner typed "awaiting" or "received" still owes the report: examiner_waits (migration
// 009) keeps exactly those records.

/** The dashboard's figures. Months are calendar months in UTC, as stored times are. */
export async function dashboardStats(
  db: Executor,
  config: Pick<Config, "reportOverdueDays">,
  now: Date = new Date(),
): Promise<StatsResponse> {
  const months = lastTwelveMonths(now);
  const thisMonth = months[months.length - 1] ?? "";
  const today = nowIso(now).slice(0, 10);
  // One definition of late (issue 22, the Reports' late list: overdue.test.ts holds them equal): a typed state is due
  // reportOverdueDays after the day it was typed, and late once that day is before today.
  const overdueBefore = `${addDays(today, -config.reportOverdueDays)}T00:00:00.000Z`;

  const [counts, totalUsers, documentsWaiting, documentsReturned, overdueExaminations] =
    await Promise.all([
      countDashboardFigures(db),
      countUsers(db),
      countSubmissionsWithCurrentDocuments(db, "pending"),
      countSubmissionsWithCurrentDocuments(db, "returned"),
      findOverdueExaminations(db, today, OVERDUE_LIST_LIMIT),
    ]);
  // Every submission has exactly one stage value (or none), so the stage counts sum to the total.
  const totalSubmissions = sum(counts.stage.values());
  // ISO times: created_at >= the month's first instant exactly when its YYYY-MM is >= the month's.
  const addedThisMonth = sum(
    [...counts.month].filter(([month]) => month >= thisMonth).map(([, n]) => n),
  );

  const waiting = await Promise.all(
    EXAMINERS.map(async (examiner) => {
      const found = await findWaitingReports(
        db,
        EXAMINER_FIELDS[examiner],
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

  const overdueExaminationRows = overdueExaminations.items.map(
    ({ sentAt, ...row }): OverdueExamination & { sentAt: string | null } => ({
      ...row,
      daysOverdue: Math.round((Date.parse(today) - Date.parse(row.dueOn)) / DAY_MS),
      sentAt,
    }),
  );
  const lateReports: DashboardLateReport[] = [
    ...overdueExaminationRows.map(
      ({ sentAt, ...row }): DashboardLateReport => ({
        submissionId: row.submissionId,
        studentName: row.studentName,
        indexNumber: row.indexNumber,
        role: row.role,
        state: row.state === "received" ? "received" : "awaiting",
        knownBy: "link_due_date",
        dueOn: row.dueOn,
        daysLate: row.daysOverdue,
        since: sentAt ?? row.dueOn,
        examination: row,
      }),
    ),
    ...overdueReports.map((report): DashboardLateReport => {
      const dueOn = addDays(report.since.slice(0, 10), config.reportOverdueDays);
      return {
        submissionId: report.id,
        studentName: report.studentName,
        indexNumber: report.indexNumber,
        role: report.examiner,
        state: report.state,
        knownBy: "typed_state",
        dueOn,
        daysLate: Math.round((Date.parse(today) - Date.parse(dueOn)) / DAY_MS),
        since: report.since,
        examination: null,
      };
    }),
  ]
    .sort(
      (a, b) =>
        b.daysLate - a.daysLate || a.submissionId - b.submissionId || a.role.localeCompare(b.role),
    )
    .slice(0, OVERDUE_LIST_LIMIT);
  const overdueReportsTotal = waiting.reduce((sum, w) => sum + w.total, 0);

  return {
    totalSubmissions,
    totalUsers,
    addedThisMonth,
    perStage: countsOf(counts.stage, SGS_STAGES) as StatsResponse["perStage"],
    perExaminerState: {
      internal: countsOf(
        counts.internal,
        EXAMINER_STATES,
      ) as StatsResponse["perExaminerState"]["internal"],
      external: countsOf(
        counts.external,
        EXAMINER_STATES,
      ) as StatsResponse["perExaminerState"]["external"],
    },
    overdueReports,
    overdueReportsTotal,
    reportOverdueDays: config.reportOverdueDays,
    overdueExaminations: overdueExaminationRows.map(({ sentAt: _sent, ...row }) => row),
    overdueExaminationsTotal: overdueExaminations.total,
    lateReports,
    lateReportsTotal: overdueReportsTotal + overdueExaminations.total,
    documentsWaiting,
    documentsReturned,
    perMonth: months.map((month) => ({ month, count: counts.month.get(month) ?? 0 })),
  };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** A count for every value of the flow and for "none", zero where nothing matches. */
function countsOf(kept: Map<string, number>, values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(
    [...values, NONE].map((value) => [value, 0]),
  );
  for (const [value, count] of kept) {
    // The triggers keep "not set" as the empty string.
    const key = value === "" ? NONE : value;
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

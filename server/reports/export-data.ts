import {
  headlineFigures,
  lateTable,
  reportTables,
  type HeadlineFigure,
  type ReportTable,
} from "../../common/report-tables.js";
import type { ExaminerFigure, ReportFigures, ReportQuery } from "../../common/reports.js";
import type { Executor } from "../db/database.js";
import {
  countOpenExaminations,
  pageOfExaminers,
  readExaminerDurations,
  type RollupScope,
} from "./repository.js";
import { distributionOf, lateReports, reportFigures, type ReportSettings } from "./service.js";

/**
 * What the exports and the dean's PDF print: every table of the Reports page for a query, with the
 * per-examiner table whole (the page shows it a page at a time) and the late reports listed up to
 * a cap.
 */

/** At most this many examiners in a file (the page pages them); the note says when more exist. */
export const EXPORT_EXAMINER_LIMIT = 2_000;
/** At most this many late reports in a file, the most days late first; the note says the total. */
export const EXPORT_LATE_LIMIT = 1_000;

export interface ReportDocumentData {
  figures: ReportFigures;
  tables: ReportTable[];
  late: ReportTable;
  headline: HeadlineFigure[];
}

export async function reportDocumentData(
  db: Executor,
  query: ReportQuery,
  now: Date,
  settings: ReportSettings,
): Promise<ReportDocumentData> {
  const figures = await reportFigures(db, { ...query, examinerPage: 1 }, now, settings);
  const { from, to } = figures.current;
  const { total, examiners } = await everyExaminer(
    db,
    { programme: query.programme, cohort: query.cohort },
    from,
    to,
    now,
  );
  const late = await lateReports(
    db,
    { programme: query.programme, cohort: query.cohort },
    now,
    settings,
    EXPORT_LATE_LIMIT,
  );
  const tables = reportTables(figures, examiners).map((table) =>
    table.id === "examiners" && total > EXPORT_EXAMINER_LIMIT
      ? {
          ...table,
          note: `${table.note ?? ""} The first ${EXPORT_EXAMINER_LIMIT.toLocaleString("en-GB")} by name are listed.`.trim(),
        }
      : table,
  );
  return {
    figures,
    tables,
    late: lateTable(late),
    headline: headlineFigures({ ...figures, late }),
  };
}

/**
 * The per-examiner figures of every examiner (up to the limit) in three queries, as the service
 * makes one page of them (server/reports/service.ts' periodFigures): asking the service for each
 * page would read every other figure again per page, 12 times for 300 examiners.
 */
async function everyExaminer(
  db: Executor,
  scope: RollupScope,
  from: string,
  to: string,
  now: Date,
): Promise<{ total: number; examiners: ExaminerFigure[] }> {
  const list = await pageOfExaminers(db, 1, EXPORT_EXAMINER_LIMIT);
  const ids = list.items.map((x) => x.id);
  const [durations, open] = await Promise.all([
    readExaminerDurations(db, scope, from, to, ids),
    countOpenExaminations(db, scope, ids, now.toISOString().slice(0, 10)),
  ]);
  const histograms = new Map<string, Map<number, number>>();
  for (const row of durations) {
    const h = histograms.get(row.subject) ?? new Map<number, number>();
    h.set(row.days, (h.get(row.days) ?? 0) + row.n);
    histograms.set(row.subject, h);
  }
  return {
    total: list.total,
    examiners: list.items.map((x) => {
      const linkToReport = distributionOf(histograms.get(String(x.id)) ?? new Map());
      const counts = open.get(x.id);
      return {
        examinerId: x.id,
        name: x.name,
        institution: x.institution,
        kind: x.kind,
        examined: linkToReport.count,
        linkToReport,
        inProgress: counts?.open ?? 0,
        lateNow: counts?.late ?? 0,
      };
    }),
  };
}

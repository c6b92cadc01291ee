import {
  headlineFigures,
  lateTable,
  reportTables,
  type HeadlineFigure,
  type ReportTable,
} from "../../common/report-tables.js";
import type { ExaminerFigure, ReportFigures, ReportQuery } from "../../common/reports.js";
import type { Executor } from "../db/database.js";
import { lateReports, reportFigures, type ReportSettings } from "./service.js";

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
  const examiners: ExaminerFigure[] = [...figures.current.examiners.items];
  const { total, pageSize } = figures.current.examiners;
  const pages = Math.ceil(Math.min(total, EXPORT_EXAMINER_LIMIT) / Math.max(1, pageSize));
  for (let page = 2; page <= pages; page += 1) {
    const next = await reportFigures(
      db,
      { ...query, compare: false, examinerPage: page },
      now,
      settings,
    );
    examiners.push(...next.current.examiners.items);
  }
  const late = await lateReports(
    db,
    { programme: query.programme, cohort: query.cohort },
    now,
    settings,
    EXPORT_LATE_LIMIT,
  );
  const tables = reportTables(figures, examiners.slice(0, EXPORT_EXAMINER_LIMIT)).map((table) =>
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

import type { Readable } from "node:stream";
import type { Submission } from "../../common/submission.js";
import type { SubmissionExportQuery, SubmissionFilters } from "../../common/submissions-api.js";
import { listSubmissionsAfter, type Executor } from "./repository.js";
import { csvStream, xlsxStream } from "./spreadsheet.js";

/**
 * Rows read per query while exporting: memory stays flat however many submissions match (a page
 * is about a megabyte of objects), and a million rows take 500 queries, not 2,000.
 */
const EXPORT_PAGE_SIZE = 2000;

export interface ExportFile {
  body: Readable;
  contentType: string;
  filename: string;
}

/** The filtered submissions in id order, a page at a time (keyset on id, never OFFSET). */
export async function* submissionPages(
  db: Executor,
  filters: SubmissionFilters,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<Submission[]> {
  let afterId = 0;
  for (;;) {
    const page = await listSubmissionsAfter(db, filters, afterId, pageSize);
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]?.id ?? afterId;
  }
}

/** The list's submissions (same filters) as a CSV or XLSX file, streamed. */
export function exportSubmissions(
  db: Executor,
  query: SubmissionExportQuery,
  now: Date = new Date(),
): ExportFile {
  const { format, ...filters } = query;
  const pages = submissionPages(db, filters);
  const stamp = now.toISOString().slice(0, 10);
  if (format === "xlsx") {
    return {
      body: xlsxStream(pages),
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      filename: `ets-submissions-${stamp}.xlsx`,
    };
  }
  return {
    body: csvStream(pages),
    contentType: "text/csv; charset=utf-8",
    filename: `ets-submissions-${stamp}.csv`,
  };
}

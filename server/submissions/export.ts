import { finished, type Readable } from "node:stream";
import type { Submission } from "../../common/submission.js";
import type { SubmissionExportQuery, SubmissionFilters } from "../../common/submissions-api.js";
import {
  DOCUMENTS,
  DOCUMENT_LABELS,
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  SUBMITTED_LABEL,
  type ExaminerState,
  type SgsStage,
} from "../../common/workflow.js";
import { documentColumns, listSubmissionsAfter, matchesFilters } from "./repository.js";
import { openBulkReader, type Db, type Executor } from "../db/database.js";
import { EXPORT_COLUMNS, csvRowsStream, xlsxRowsStream, type ExportCell } from "./spreadsheet.js";

/**
 * Rows read per query while exporting, and written out as one piece of the file. Pages of 2,000
 * made pieces of about 1 MB of text (the XLSX's XML) whose buffers piled up outside V8's heap
 * faster than they were collected: 128 MB of buffers at the peak of a 200,000-row XLSX export,
 * 13 MB with pages of 500. The statement is prepared once, so 2,000 queries for a million rows
 * cost little.
 */
const EXPORT_PAGE_SIZE = 500;

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

/**
 * The columns the file shows and nothing else: a submission read whole (27 columns, made into a
 * Submission, then a record, then cells) cost more than writing the file did.
 */
const EXPORTED_COLUMNS = [
  "id",
  "student_name",
  "index_number",
  "programme",
  "contact",
  ...DOCUMENTS.flatMap((item) => [
    documentColumns(item).submitted,
    documentColumns(item).receivedOn,
  ]),
  "sgs_stage",
  "internal_examiner",
  "external_examiner",
  "thesis_status",
  "effective_date",
] as const;

/** Where each document's cell goes among EXPORT_COLUMNS. */
const DOCUMENT_CELLS = DOCUMENTS.map((item) => ({
  submitted: documentColumns(item).submitted,
  receivedOn: documentColumns(item).receivedOn,
  index: EXPORT_COLUMNS.indexOf(DOCUMENT_LABELS[item] as (typeof EXPORT_COLUMNS)[number]),
}));

const column = (name: (typeof EXPORT_COLUMNS)[number]) => EXPORT_COLUMNS.indexOf(name);
const CELL = {
  contact: column("Contact"),
  sgsStage: column("SGSAdmin"),
  internalExaminer: column("InternalExaminer"),
  externalExaminer: column("ExternalExaminer"),
  thesisStatus: column("Thesis Status"),
  effectiveDate: column("Effective Date"),
};

type ExportedRow = Record<(typeof EXPORTED_COLUMNS)[number], string | number | null>;

/**
 * A stored row as the file's cells: what exportRow makes of the row's Submission (a blank value
 * is an empty cell, a document received on a known date shows the date, otherwise "Submitted"),
 * built straight from the columns. export.test compares the two on awkward rows.
 */
export function exportCells(row: ExportedRow): ExportCell[] {
  const cells: ExportCell[] = new Array<ExportCell>(EXPORT_COLUMNS.length).fill(null);
  cells[0] = row.id;
  cells[1] = row.student_name;
  cells[2] = row.index_number;
  cells[3] = row.programme;
  cells[CELL.contact] = row.contact || null;
  for (const doc of DOCUMENT_CELLS) {
    if (Number(row[doc.submitted]) === 1) {
      cells[doc.index] = row[doc.receivedOn] || SUBMITTED_LABEL;
    }
  }
  cells[CELL.sgsStage] = label(SGS_STAGE_LABELS, row.sgs_stage as SgsStage | null);
  cells[CELL.internalExaminer] = label(
    EXAMINER_STATE_LABELS,
    row.internal_examiner as ExaminerState | null,
  );
  cells[CELL.externalExaminer] = label(
    EXAMINER_STATE_LABELS,
    row.external_examiner as ExaminerState | null,
  );
  cells[CELL.thesisStatus] = row.thesis_status || null;
  cells[CELL.effectiveDate] = row.effective_date || null;
  return cells;
}

function label(labels: Record<string, string>, value: string | number | null): string | null {
  return value ? (labels[value] ?? null) : null;
}

/** The filtered submissions' cells in id order, a page at a time (keyset on id, never OFFSET). */
export async function* exportPages(
  db: Executor,
  filters: SubmissionFilters,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ExportCell[][]> {
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom("submissions")
      .select(EXPORTED_COLUMNS)
      .where(matchesFilters(db, filters))
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    afterId = rows[rows.length - 1]?.id ?? afterId;
    yield rows.map(exportCells);
    if (rows.length < pageSize) return;
  }
}

/** The list's submissions (same filters) as a CSV or XLSX file, streamed. */
export function exportSubmissions(
  db: Executor,
  query: SubmissionExportQuery,
  now: Date = new Date(),
): ExportFile {
  const { format, ...filters } = query;
  const pages = exportPages(db, filters);
  const stamp = now.toISOString().slice(0, 10);
  if (format === "xlsx") {
    return {
      body: xlsxRowsStream(pages, now),
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      filename: `ets-submissions-${stamp}.xlsx`,
    };
  }
  return {
    body: csvRowsStream(pages),
    contentType: "text/csv; charset=utf-8",
    filename: `ets-submissions-${stamp}.csv`,
  };
}

/**
 * exportSubmissions for the export route: read through a bulk reader of its own (on SQLite its
 * own connection and small page cache, server/db/database.ts), released when the body has been
 * read to its end, has failed or has been destroyed (a client that went away). `release` ends it
 * sooner; calling it again does nothing.
 */
export function exportForDownload(
  db: Db,
  query: SubmissionExportQuery,
  now: Date = new Date(),
): ExportFile & { release(): Promise<void> } {
  const reader = openBulkReader(db);
  try {
    const file = exportSubmissions(reader.db, query, now);
    finished(file.body, () => void reader.release());
    return { ...file, release: reader.release };
  } catch (error) {
    void reader.release();
    throw error;
  }
}

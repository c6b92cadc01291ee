import {
  RECORD_COLUMNS,
  fromSubmissionRecord,
  type RecordColumn,
  type Submission,
  type SubmissionFields,
  type SubmissionRecord,
} from "../../common/submission.js";
import type { ImportError, ImportPreview, ImportResult } from "../../common/submissions-api.js";
import { DOCUMENTS } from "../../common/workflow.js";
import type { SessionUser } from "../auth/session.js";
import { nowIso, type Executor } from "../db/database.js";
import { refreshStatisticsAfterBulkWrite } from "../db/dialect.js";
import {
  notifyWorkflowChangesInBulk,
  updateSubmissionsInBulk,
  type BulkUpdate,
  type WorkflowNotice,
} from "./bulk-write.js";
import { diffFields, eventsFor, fieldsOf, type FieldChange } from "./changes.js";
import { unprotectCell } from "./csv.js";
import { importRejected } from "./problems.js";
import {
  clearUnmarkedClearanceSources,
  findSubmissionsByIndexNumbers,
  insertSubmissions,
  insertSubmissionEvents,
  type NewSubmissionEvent,
} from "./repository.js";
import type { SubmissionContext } from "./service.js";
import { SpreadsheetError, readSpreadsheetRows } from "./spreadsheet.js";

/**
 * Importing a spreadsheet of records: every row is checked first, and the whole file is applied
 * in one transaction, or nothing is when any row is wrong. New index numbers are inserted,
 * existing ones updated (their events recorded, their version raised, their students notified).
 */

const REQUIRED_COLUMNS: RecordColumn[] = ["StudentName", "IndexNumber", "Programme"];
/** Exported files start with idNo; it is the database's, so the importer ignores it. */
const IGNORED_COLUMNS = new Set(["idno"]);

/** Rows looked up (and written, on apply) at a time: one query per chunk, not per row. */
const CHUNK_ROWS = 500;
/**
 * Rows the preview gathers before looking them up, then drops: fewer than apply's, so that less
 * is held (and copied by V8's young-generation collections) while the next rows are parsed. With
 * the XLSX reader's shared strings out of the heap, a fresh server's preview of the
 * registrar-shaped workbook grew by about 50 MB with 100 where it grew by 152-160 MB with 500
 * (docs/benchmarks.md, issue 24 item 3); the 500 lookups instead of 100 cost no measurable time.
 */
const PREVIEW_CHUNK_ROWS = 100;

/** Record columns by their lower-case name: a header or a JSON key may be in any case. */
const COLUMNS_BY_NAME = new Map(RECORD_COLUMNS.map((column) => [column.toLowerCase(), column]));

/** Maps header cells to record columns; null marks a column the importer skips. */
function readHeader(header: string[], errors: ImportError[]): (RecordColumn | null)[] {
  const byName = COLUMNS_BY_NAME;
  const seen = new Set<RecordColumn>();
  const columns = header.map((cell) => {
    const name = cell.trim();
    if (name === "" || IGNORED_COLUMNS.has(name.toLowerCase())) return null;
    const column = byName.get(name.toLowerCase());
    if (!column) {
      errors.push({ row: 1, column: name, reason: "is not a known column" });
      return null;
    }
    if (seen.has(column)) {
      errors.push({ row: 1, column, reason: "appears twice in the header" });
      return null;
    }
    seen.add(column);
    return column;
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!seen.has(column)) errors.push({ row: 1, column, reason: "column is missing" });
  }
  return columns;
}

/**
 * Updating from a spreadsheet replaces the record's columns with the file's cells (a blank cell
 * clears, as in the prototype's list). What the spreadsheet cannot say is kept: the student's
 * email, and the date a document arrived when the file only says "Submitted".
 */
function mergeImported(current: Submission, imported: SubmissionFields): SubmissionFields {
  const documents = { ...imported.documents };
  for (const item of DOCUMENTS) {
    const was = current.documents[item];
    const now = documents[item];
    if (now.submitted && now.receivedOn === null && was.submitted && was.receivedOn !== null) {
      documents[item] = { submitted: true, receivedOn: was.receivedOn };
    }
  }
  return { ...imported, studentEmail: current.studentEmail, documents };
}

/**
 * Problems as the answer lists them: the first MAX_LISTED_PROBLEMS and the one after it (whose row
 * the last line names) are kept, the rest only counted, so a file of wrong rows holds no memory.
 */
class Problems {
  readonly kept: ImportError[] = [];
  total = 0;

  push(problem: ImportError): void {
    this.total += 1;
    if (this.kept.length <= MAX_LISTED_PROBLEMS) this.kept.push(problem);
  }

  listed(): ImportError[] {
    const first = this.kept[MAX_LISTED_PROBLEMS];
    if (first === undefined) return this.kept;
    const more = (this.total - MAX_LISTED_PROBLEMS).toLocaleString("en-US");
    return [
      ...this.kept.slice(0, MAX_LISTED_PROBLEMS),
      {
        row: first.row,
        column: null,
        reason: `and ${more} more problems from this row on; only the first ${MAX_LISTED_PROBLEMS} are listed`,
      },
    ];
  }
}

/**
 * Checks the file's rows one at a time as they are read (row 1 the header): what the database
 * does not decide (known columns, valid cells, an index number not repeated in the file).
 */
class RowChecker {
  readonly problems = new Problems();
  /** Rows with a value, besides the header. */
  rows = 0;
  private columns: (RecordColumn | null)[] | null = null;
  private headerFailed = false;
  private readonly firstRowOf = new Map<string, number>();

  /** The row's fields when it is valid; null for the header, a blank row or a wrong one. */
  check(cells: string[], row: number): SubmissionFields | null {
    if (row === 1) {
      if (cells.every((cell) => cell.trim() === "")) {
        this.problems.push({ row: 1, column: null, reason: "the header row is missing" });
        this.headerFailed = true;
        return null;
      }
      const errors: ImportError[] = [];
      this.columns = readHeader(cells, errors);
      for (const error of errors) this.problems.push(error);
      this.headerFailed = errors.length > 0;
      return null;
    }
    const columns = this.columns;
    if (this.headerFailed || columns === null) return null;
    if (cells.every((cell) => cell.trim() === "")) return null;
    this.rows += 1;
    if (cells.slice(columns.length).some((cell) => cell.trim() !== "")) {
      this.problems.push({
        row,
        column: null,
        reason: "has more cells than the header has columns",
      });
      return null;
    }
    // PostgreSQL's text cannot hold a NUL (it refuses the whole import) and no record means one.
    const withNul = columns.filter(
      (column, index): column is RecordColumn =>
        column !== null && (cells[index] ?? "").includes("\u0000"),
    );
    if (withNul.length > 0) {
      for (const column of withNul) {
        this.problems.push({ row, column, reason: "must not contain a NUL character" });
      }
      return null;
    }
    const record: Record<string, string> = {};
    columns.forEach((column, index) => {
      if (column !== null) record[column] = unprotectCell(cells[index] ?? "");
    });
    return this.checkRecord(record as SubmissionRecord, row);
  }

  /**
   * One record of the registrar's upsert (JSON, issue 21), numbered from 1 in `records`: the keys
   * are the spreadsheet's columns, the values text, a number or null; then the same checks as a
   * spreadsheet row.
   */
  checkJson(values: unknown, row: number): SubmissionFields | null {
    this.rows += 1;
    if (typeof values !== "object" || values === null || Array.isArray(values)) {
      this.problems.push({
        row,
        column: null,
        reason: "must be an object whose keys are the spreadsheet's columns",
      });
      return null;
    }
    const record: Record<string, string> = {};
    let wrong = false;
    for (const [key, value] of Object.entries(values)) {
      const column = COLUMNS_BY_NAME.get(key.trim().toLowerCase());
      if (column === undefined) {
        if (IGNORED_COLUMNS.has(key.trim().toLowerCase())) continue;
        this.problems.push({ row, column: key.slice(0, 100), reason: "is not a known column" });
        wrong = true;
      } else if (value === null) {
        record[column] = "";
      } else if (typeof value === "string" || typeof value === "number") {
        record[column] = String(value);
      } else {
        this.problems.push({ row, column, reason: "must be text, a number or null" });
        wrong = true;
      }
    }
    return wrong ? null : this.checkRecord(record as SubmissionRecord, row);
  }

  /** The checks every record goes through, from a spreadsheet row or the API. */
  private checkRecord(record: SubmissionRecord, row: number): SubmissionFields | null {
    const result = fromSubmissionRecord(record);
    if (!result.ok) {
      for (const problem of result.problems) this.problems.push({ row, ...problem });
      return null;
    }
    const earlier = this.firstRowOf.get(result.fields.indexNumber);
    if (earlier !== undefined) {
      this.problems.push({
        row,
        column: "IndexNumber",
        reason: `repeats the index number of row ${earlier}`,
      });
      return null;
    }
    this.firstRowOf.set(result.fields.indexNumber, row);
    return result.fields;
  }

  /** After the last row: a file without a header or without rows is a problem too. */
  finish(): void {
    if (this.columns === null && !this.headerFailed) {
      this.problems.push({ row: 1, column: null, reason: "the header row is missing" });
    } else if (this.rows === 0 && this.problems.total === 0) {
      this.problems.push({ row: 2, column: null, reason: "the file has no rows to import" });
    }
  }
}

type Outcome =
  | { kind: "insert" }
  | { kind: "unchanged" }
  | { kind: "update"; current: Submission; fields: SubmissionFields; changes: FieldChange[] };

function outcome(current: Submission | undefined, fields: SubmissionFields): Outcome {
  if (!current) return { kind: "insert" };
  const merged = mergeImported(current, fields);
  const changes = diffFields(fieldsOf(current), merged);
  return changes.length === 0
    ? { kind: "unchanged" }
    : { kind: "update", current, fields: merged, changes };
}

async function existingByIndexNumber(
  db: Executor,
  chunk: SubmissionFields[],
): Promise<Map<string, Submission>> {
  const found = await findSubmissionsByIndexNumbers(
    db,
    chunk.map((fields) => fields.indexNumber),
  );
  return new Map(found.map((s) => [s.indexNumber, s]));
}

/**
 * The most problems an answer lists. A file of 50,000 wrong rows has more problems than anyone
 * reads, and listing them all made an answer of megabytes; the rest are counted in a last line.
 */
export const MAX_LISTED_PROBLEMS = 500;

/** A file that cannot be read at all, as the one problem the answer lists. */
function unreadable(error: SpreadsheetError): ImportError[] {
  return [{ row: error.row, column: null, reason: error.message }];
}

/** The uploaded file, read as it arrives: CSV a piece at a time, XLSX whole. */
export type ImportFile = AsyncIterable<Buffer | Uint8Array>;

/**
 * What applying the file would do, and every problem in it; changes nothing. Valid rows are
 * looked up a chunk at a time while the file is still arriving and then dropped: only their
 * index numbers are kept (to find a number repeated in the file).
 */
export async function previewImport(db: Executor, file: ImportFile): Promise<ImportPreview> {
  const checker = new RowChecker();
  const counts = { inserts: 0, updates: 0, unchanged: 0 };
  let chunk: SubmissionFields[] = [];
  const classify = async () => {
    const rows = chunk;
    chunk = [];
    // Once a row is wrong, nothing will be imported: the counts are not needed.
    if (rows.length === 0 || checker.problems.total > 0) return;
    const existing = await existingByIndexNumber(db, rows);
    for (const fields of rows) {
      const planned = outcome(existing.get(fields.indexNumber), fields);
      if (planned.kind === "insert") counts.inserts += 1;
      else if (planned.kind === "update") counts.updates += 1;
      else counts.unchanged += 1;
    }
  };
  try {
    await readSpreadsheetRows(file, (cells, row) => {
      const fields = checker.check(cells, row);
      if (fields === null || checker.problems.total > 0) return;
      chunk.push(fields);
      if (chunk.length >= PREVIEW_CHUNK_ROWS) return classify();
    });
  } catch (error) {
    if (!(error instanceof SpreadsheetError)) throw error;
    return { rows: 0, inserts: 0, updates: 0, unchanged: 0, errors: unreadable(error) };
  }
  await classify();
  checker.finish();
  if (checker.problems.total > 0) {
    const rows = checker.rows;
    return { rows, inserts: 0, updates: 0, unchanged: 0, errors: checker.problems.listed() };
  }
  return { rows: checker.rows, ...counts, errors: [] };
}

/**
 * Applies the file in one transaction; a problem rejects it whole (400, nothing changed). The file
 * is read and checked first, holding only the valid rows' fields; the transaction starts once the
 * upload is in, so a slow client never holds the database, and writes a chunk of rows at a time.
 */
export async function applyImport(
  ctx: SubmissionContext,
  admin: SessionUser,
  file: ImportFile,
): Promise<ImportResult> {
  const checker = new RowChecker();
  const valid: SubmissionFields[] = [];
  try {
    await readSpreadsheetRows(file, (cells, row) => {
      const fields = checker.check(cells, row);
      if (fields !== null && checker.problems.total === 0) valid.push(fields);
    });
  } catch (error) {
    if (!(error instanceof SpreadsheetError)) throw error;
    throw importRejected(unreadable(error));
  }
  checker.finish();
  if (checker.problems.total > 0) {
    throw importRejected(checker.problems.listed(), checker.problems.total);
  }
  return writeImport(ctx, admin, valid);
}

/**
 * The registrar's upsert by index number (issue 21): the same checks, caps and all-or-nothing
 * write as a spreadsheet's import, from JSON records (`row` in a problem is the record's place in
 * the list, from 1). `within` runs in the write's transaction, after the rows are written (the
 * Idempotency-Key's answer is kept there, so the key and the rows commit together).
 */
export async function applyRecords(
  ctx: SubmissionContext,
  admin: SessionUser,
  records: readonly unknown[],
  within?: (trx: Executor, result: ImportResult) => Promise<void>,
): Promise<ImportResult> {
  const checker = new RowChecker();
  const valid: SubmissionFields[] = [];
  records.forEach((record, index) => {
    const fields = checker.checkJson(record, index + 1);
    if (fields !== null && checker.problems.total === 0) valid.push(fields);
  });
  if (checker.problems.total > 0) {
    throw importRejected(checker.problems.listed(), checker.problems.total);
  }
  return writeImport(ctx, admin, valid, within);
}

/** Writes checked rows in one transaction: inserted when new, updated when changed. */
async function writeImport(
  ctx: SubmissionContext,
  admin: SessionUser,
  valid: readonly SubmissionFields[],
  within?: (trx: Executor, result: ImportResult) => Promise<void>,
): Promise<ImportResult> {
  const at = nowIso();
  let eventsWritten = 0;
  const applied = await ctx.db.transaction().execute(async (trx) => {
    const result: ImportResult = { inserted: 0, updated: 0, unchanged: 0 };
    for (let start = 0; start < valid.length; start += CHUNK_ROWS) {
      const chunk = valid.slice(start, start + CHUNK_ROWS);
      const existing = await existingByIndexNumber(trx, chunk);
      const inserts: SubmissionFields[] = [];
      // What recordChanges does for one edit, gathered for the chunk: its updates in multi-row
      // statements (bulk-write.ts), its events in one insert, the student notices (only for
      // workflow moves) in one.
      const updates: BulkUpdate[] = [];
      const notices: WorkflowNotice[] = [];
      const events: NewSubmissionEvent[] = [];
      for (const fields of chunk) {
        const planned = outcome(existing.get(fields.indexNumber), fields);
        if (planned.kind === "insert") {
          inserts.push(fields);
        } else if (planned.kind === "unchanged") {
          result.unchanged += 1;
        } else {
          const { current } = planned;
          updates.push({
            id: current.id,
            expectedVersion: current.version,
            fields: planned.fields,
            renamed: planned.fields.studentName !== current.studentName,
          });
          events.push(...eventsFor(current.id, planned.changes, "import", admin.id, at, false));
          notices.push({
            submission: {
              id: current.id,
              indexNumber: planned.fields.indexNumber,
              studentName: planned.fields.studentName,
            },
            changes: planned.changes,
          });
        }
      }
      // Versions were read in this transaction: a row changed since is a concurrent save (409).
      await updateSubmissionsInBulk(trx, updates, at);
      await clearUnmarkedClearanceSources(
        trx,
        updates.map((update) => update.id),
      );
      await notifyWorkflowChangesInBulk(trx, ctx.config, notices, admin.id, at);
      result.updated += updates.length;
      const created = await insertSubmissions(trx, inserts, at);
      for (const s of created) {
        events.push({
          submissionId: s.id,
          actorUserId: admin.id,
          at,
          field: "submission",
          from: null,
          to: s.indexNumber,
          kind: "import",
          confirmedOutOfOrder: false,
        });
      }
      await insertSubmissionEvents(trx, events);
      eventsWritten += events.length;
      result.inserted += created.length;
    }
    if (within) await within(trx, result);
    return result;
  });
  // Searched right after: the planner's statistics must describe the table as the import left it
  // (a 50,000-row import into a million made PostgreSQL's three-letter search four times slower
  // until an ANALYZE). The data is committed whatever happens here, so a failure is only logged.
  try {
    await refreshStatisticsAfterBulkWrite(ctx.db, {
      submissions: applied.inserted + applied.updated,
      submission_events: eventsWritten,
    });
  } catch (error) {
    ctx.log?.warn({ err: error }, "could not refresh the statistics after an import");
  }
  return applied;
}

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
import { nowIso } from "../db/database.js";
import { diffFields, fieldsOf, type FieldChange } from "./changes.js";
import { unprotectCell } from "./csv.js";
import { importRejected } from "./problems.js";
import {
  findSubmissionsByIndexNumbers,
  insertSubmissions,
  insertSubmissionEvents,
  updateSubmissionFields,
  type Executor,
} from "./repository.js";
import { recordChanges, type SubmissionContext } from "./service.js";
import { SpreadsheetError, readSpreadsheet, type SheetTable } from "./spreadsheet.js";

/**
 * Importing a spreadsheet of records: every row is checked first, and the whole file is applied
 * in one transaction, or nothing is when any row is wrong. New index numbers are inserted,
 * existing ones updated (their events recorded, their version raised, their students notified).
 */

const REQUIRED_COLUMNS: RecordColumn[] = ["StudentName", "IndexNumber", "Programme"];
/** Exported files start with idNo; it is the database's, so the importer ignores it. */
const IGNORED_COLUMNS = new Set(["idno"]);

interface PlannedUpdate {
  current: Submission;
  fields: SubmissionFields;
  changes: FieldChange[];
}

interface ImportPlan {
  rows: number;
  inserts: SubmissionFields[];
  updates: PlannedUpdate[];
  unchanged: number;
  errors: ImportError[];
}

/** Maps header cells to record columns; null marks a column the importer skips. */
function readHeader(header: string[], errors: ImportError[]): (RecordColumn | null)[] {
  const byName = new Map(RECORD_COLUMNS.map((column) => [column.toLowerCase(), column]));
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

async function planImport(db: Executor, table: SheetTable): Promise<ImportPlan> {
  const errors: ImportError[] = [];
  const plan: ImportPlan = { rows: 0, inserts: [], updates: [], unchanged: 0, errors };
  const [header, ...body] = table;
  if (!header || header.every((cell) => cell.trim() === "")) {
    errors.push({ row: 1, column: null, reason: "the header row is missing" });
    return plan;
  }
  const columns = readHeader(header, errors);
  if (errors.length > 0) return plan;

  const parsed: { row: number; fields: SubmissionFields }[] = [];
  const firstRowOf = new Map<string, number>();
  body.forEach((cells, position) => {
    const row = position + 2;
    if (cells.every((cell) => cell.trim() === "")) return;
    plan.rows += 1;
    if (cells.slice(columns.length).some((cell) => cell.trim() !== "")) {
      errors.push({ row, column: null, reason: "has more cells than the header has columns" });
      return;
    }
    const record: Record<string, string> = {};
    // PostgreSQL's text cannot hold a NUL (it refuses the whole import) and no record means one.
    const withNul = columns.filter(
      (column, index): column is RecordColumn =>
        column !== null && (cells[index] ?? "").includes("\u0000"),
    );
    if (withNul.length > 0) {
      for (const column of withNul) {
        errors.push({ row, column, reason: "must not contain a NUL character" });
      }
      return;
    }
    columns.forEach((column, index) => {
      if (column !== null) record[column] = unprotectCell(cells[index] ?? "");
    });
    const result = fromSubmissionRecord(record as SubmissionRecord);
    if (!result.ok) {
      for (const problem of result.problems) errors.push({ row, ...problem });
      return;
    }
    const earlier = firstRowOf.get(result.fields.indexNumber);
    if (earlier !== undefined) {
      errors.push({
        row,
        column: "IndexNumber",
        reason: `repeats the index number of row ${earlier}`,
      });
      return;
    }
    firstRowOf.set(result.fields.indexNumber, row);
    parsed.push({ row, fields: result.fields });
  });
  if (plan.rows === 0 && errors.length === 0) {
    errors.push({ row: 2, column: null, reason: "the file has no rows to import" });
  }
  if (errors.length > 0) return plan;

  const existing = new Map(
    (await findSubmissionsByIndexNumbers(db, [...firstRowOf.keys()])).map((s) => [
      s.indexNumber,
      s,
    ]),
  );
  for (const { fields } of parsed) {
    const current = existing.get(fields.indexNumber);
    if (!current) {
      plan.inserts.push(fields);
      continue;
    }
    const merged = mergeImported(current, fields);
    const changes = diffFields(fieldsOf(current), merged);
    if (changes.length === 0) plan.unchanged += 1;
    else plan.updates.push({ current, fields: merged, changes });
  }
  return plan;
}

/**
 * The most problems an answer lists. A file of 50,000 wrong rows has more problems than anyone
 * reads, and listing them all made an answer of megabytes; the rest are counted in a last line.
 */
export const MAX_LISTED_PROBLEMS = 500;

function listed(errors: ImportError[]): ImportError[] {
  const first = errors[MAX_LISTED_PROBLEMS];
  if (first === undefined) return errors;
  const more = (errors.length - MAX_LISTED_PROBLEMS).toLocaleString("en-US");
  return [
    ...errors.slice(0, MAX_LISTED_PROBLEMS),
    {
      row: first.row,
      column: null,
      reason: `and ${more} more problems from this row on; only the first ${MAX_LISTED_PROBLEMS} are listed`,
    },
  ];
}

type ReadResult = { ok: true; table: SheetTable } | { ok: false; errors: ImportError[] };

async function readTable(bytes: Buffer): Promise<ReadResult> {
  try {
    return { ok: true, table: await readSpreadsheet(bytes) };
  } catch (error) {
    if (error instanceof SpreadsheetError) {
      return { ok: false, errors: [{ row: error.row, column: null, reason: error.message }] };
    }
    throw error;
  }
}

/** What applying the file would do, and every problem in it; changes nothing. */
export async function previewImport(db: Executor, bytes: Buffer): Promise<ImportPreview> {
  const read = await readTable(bytes);
  if (!read.ok) return { rows: 0, inserts: 0, updates: 0, unchanged: 0, errors: read.errors };
  const plan = await planImport(db, read.table);
  return {
    rows: plan.rows,
    inserts: plan.inserts.length,
    updates: plan.updates.length,
    unchanged: plan.unchanged,
    errors: listed(plan.errors),
  };
}

/** Applies the file in one transaction; any problem rejects it whole (400, nothing changed). */
export async function applyImport(
  ctx: SubmissionContext,
  admin: SessionUser,
  bytes: Buffer,
): Promise<ImportResult> {
  const read = await readTable(bytes);
  if (!read.ok) throw importRejected(read.errors);
  const at = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    const plan = await planImport(trx, read.table);
    if (plan.errors.length > 0) throw importRejected(listed(plan.errors), plan.errors.length);

    const created = await insertSubmissions(trx, plan.inserts, at);
    await insertSubmissionEvents(
      trx,
      created.map((s) => ({
        submissionId: s.id,
        actorUserId: admin.id,
        at,
        field: "submission",
        from: null,
        to: s.indexNumber,
        kind: "import",
        confirmedOutOfOrder: false,
      })),
    );
    for (const update of plan.updates) {
      const saved = await updateSubmissionFields(trx, update.current.id, update.fields, at, null);
      if (!saved) throw new Error(`submission ${update.current.id} vanished during the import`);
      await recordChanges(trx, ctx, saved, update.changes, "import", admin.id, at, false);
    }
    return { inserted: created.length, updated: plan.updates.length, unchanged: plan.unchanged };
  });
}

import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import { RECORD_COLUMNS, toSubmissionRecord, type Submission } from "../../common/submission.js";
import { DOCUMENTS, DOCUMENT_LABELS } from "../../common/workflow.js";
import { validationError } from "../errors.js";
import { CSV_BOM, CsvSyntaxError, csvLine, parseCsv, protectCell } from "./csv.js";
import { checkZip } from "./zip-guard.js";

/**
 * Spreadsheets in and out. The columns are the prototype's record columns (RECORD_COLUMNS),
 * preceded by idNo on export, so an exported file can be edited and imported again.
 */

export class SpreadsheetError extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
    this.name = "SpreadsheetError";
  }
}

/** The file's rows as text cells; rows[0] is the header (spreadsheet row 1). */
export type SheetTable = string[][];

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The largest sheet read: far beyond a school's year of records, small enough that one import
 * cannot hold the server's memory or time. The header row is not counted.
 */
export const SHEET_LIMITS = { maxRows: 50_000, maxColumns: 100 };

const UNREADABLE_XLSX = "The file looks like a workbook but cannot be read as XLSX.";

/** Reads an uploaded CSV or XLSX file (told apart by content, not by name). */
export async function readSpreadsheet(bytes: Buffer): Promise<SheetTable> {
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return withinLimits(await readXlsx(bytes));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SpreadsheetError(1, "The file is neither an XLSX workbook nor UTF-8 CSV text.");
  }
  try {
    return withinLimits(parseCsv(text));
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new SpreadsheetError(error.row, error.message);
    throw error;
  }
}

async function readXlsx(bytes: Buffer): Promise<SheetTable> {
  // Before exceljs unpacks anything: it inflates every part whole into memory.
  const verdict = await checkZip(bytes);
  if (!verdict.ok) {
    if (verdict.kind === "limit") throw validationError("file", verdict.message);
    throw new SpreadsheetError(1, UNREADABLE_XLSX);
  }
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's types predate Node's generic Buffer; the bytes are what it expects.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw new SpreadsheetError(1, UNREADABLE_XLSX);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const table: SheetTable = [];
  // Rows and cells with values only: a cell that merely has a style adds nothing. Limits are
  // checked as cells are read, before a stray value in the sheet's last row or column makes a
  // million empty ones.
  sheet.eachRow((row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell((cell, column) => {
      const text = cellText(cell.value);
      if (text.trim() === "") return;
      if (rowNumber - 1 > SHEET_LIMITS.maxRows) throw tooManyRows(null);
      if (column > SHEET_LIMITS.maxColumns) throw tooManyColumns(rowNumber, column);
      while (cells.length < column - 1) cells.push("");
      cells.push(text);
    });
    table[rowNumber - 1] = cells;
  });
  // Rows eachRow skipped (blank ones) stay empty.
  return Array.from(table, (row) => row ?? []);
}

/** The table, or a 400 naming the limit when it has more rows or columns than are read. */
function withinLimits(table: SheetTable): SheetTable {
  let lastRow = 0;
  for (let index = table.length - 1; index >= 0; index -= 1) {
    if (table[index]?.some((cell) => cell.trim() !== "")) {
      lastRow = index + 1;
      break;
    }
  }
  if (lastRow - 1 > SHEET_LIMITS.maxRows) throw tooManyRows(lastRow - 1);
  for (let index = 0; index < lastRow; index += 1) {
    const cells = table[index] ?? [];
    let width = cells.length;
    while (width > 0 && (cells[width - 1] ?? "").trim() === "") width -= 1;
    if (width > SHEET_LIMITS.maxColumns) throw tooManyColumns(index + 1, width);
  }
  return table;
}

/** `rows`: how many the file has besides the header, when known. */
function tooManyRows(rows: number | null) {
  const has = rows === null ? `more than ${count(SHEET_LIMITS.maxRows)}` : count(rows);
  return validationError(
    "file",
    `The file has ${has} rows besides the header; at most ${count(SHEET_LIMITS.maxRows)} are imported at once. Split it into smaller files.`,
  );
}

function tooManyColumns(row: number, column: number) {
  return validationError(
    "file",
    `Row ${count(row)} has a value in column ${count(column)}; at most ${count(SHEET_LIMITS.maxColumns)} columns are read.`,
  );
}

const count = (n: number) => n.toLocaleString("en-US");

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    // Excel dates have no time zone; exceljs reads them as UTC midnight.
    return value.toISOString().slice(0, 10);
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("hyperlink" in value) return value.text;
  if ("formula" in value || "sharedFormula" in value) {
    const result = value.result;
    return result === undefined || (typeof result === "object" && !(result instanceof Date))
      ? ""
      : cellText(result);
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Export

export const EXPORT_COLUMNS = ["idNo", ...RECORD_COLUMNS] as const;

/**
 * A submission as a spreadsheet row. A document received on a known date shows the date (the
 * importer reads it back); otherwise "Submitted" as in the prototype, or blank when missing.
 */
export function exportRow(s: Submission): (string | number | null)[] {
  const record = toSubmissionRecord(s) as Record<string, string | number | undefined>;
  for (const item of DOCUMENTS) {
    const receivedOn = s.documents[item].receivedOn;
    if (s.documents[item].submitted && receivedOn) record[DOCUMENT_LABELS[item]] = receivedOn;
  }
  return EXPORT_COLUMNS.map((column) => record[column] ?? null);
}

/** CSV with a byte-order mark (so spreadsheet programs read UTF-8), streamed as pages arrive. */
export function csvStream(submissions: AsyncIterable<Submission[]>): Readable {
  async function* lines() {
    yield CSV_BOM + csvLine(EXPORT_COLUMNS);
    for await (const page of submissions) {
      yield page
        .map((s) =>
          csvLine(
            exportRow(s).map((cell) => (typeof cell === "string" ? protectCell(cell) : cell)),
          ),
        )
        .join("");
    }
  }
  return Readable.from(lines());
}

/** XLSX written by exceljs's streaming writer, row by row; cells are text, never formulas. */
export function xlsxStream(submissions: AsyncIterable<Submission[]>): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const write = async () => {
    const sheet = workbook.addWorksheet("Submissions");
    sheet.addRow([...EXPORT_COLUMNS]).commit();
    for await (const page of submissions) {
      for (const s of page) sheet.addRow(exportRow(s)).commit();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) =>
    out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}

import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import { RECORD_COLUMNS, toSubmissionRecord, type Submission } from "../../common/submission.js";
import { DOCUMENTS, DOCUMENT_LABELS } from "../../common/workflow.js";
import { CSV_BOM, CsvSyntaxError, csvLine, parseCsv, protectCell } from "./csv.js";

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

/** Reads an uploaded CSV or XLSX file (told apart by content, not by name). */
export async function readSpreadsheet(bytes: Buffer): Promise<SheetTable> {
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return readXlsx(bytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SpreadsheetError(1, "The file is neither an XLSX workbook nor UTF-8 CSV text.");
  }
  try {
    return parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new SpreadsheetError(error.row, error.message);
    throw error;
  }
}

async function readXlsx(bytes: Buffer): Promise<SheetTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's types predate Node's generic Buffer; the bytes are what it expects.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw new SpreadsheetError(1, "The file looks like a workbook but cannot be read as XLSX.");
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const table: SheetTable = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) {
      cells.push(cellText(row.getCell(column).value));
    }
    table[rowNumber - 1] = cells;
  });
  // Rows eachRow skipped (blank ones before the first row with a value) stay empty.
  return Array.from(table, (row) => row ?? []);
}

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

import { PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import { RECORD_COLUMNS, toSubmissionRecord, type Submission } from "../../common/submission.js";
import { DOCUMENTS, DOCUMENT_LABELS } from "../../common/workflow.js";
import { validationError } from "../errors.js";
import { CSV_BOM, CsvParser, CsvSyntaxError, csvLine, protectCell } from "./csv.js";
import { XlsxUnreadable, readXlsxRows } from "./xlsx-reader.js";
import { ZipRefusal } from "./zip-guard.js";

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

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The largest sheet read: far beyond a school's year of records, small enough that one import
 * cannot hold the server's memory or time. The header row is not counted.
 */
export const SHEET_LIMITS = { maxRows: 50_000, maxColumns: 100 };

const UNREADABLE_XLSX = "The file looks like a workbook but cannot be read as XLSX.";

/**
 * Reads an uploaded CSV or XLSX file (told apart by content, not by name) as it arrives and hands each row to `onRow` (row 1 is the
 * header), so a CSV of 50,000 rows is never held whole, as bytes or as a table. The answer is the
 * same as reading the whole file first: when the file is not UTF-8, is not valid CSV, or passes a
 * limit, that error is thrown once the file has been read, whatever rows `onRow` saw before (the
 * caller discards what it built from them); in that order, as the whole-file reader checked. Rows
 * past the row limit are not handed over, only counted for the message.
 *
 * An XLSX workbook's bytes are gathered whole (at most the upload limit, 20 MB): the zip guard needs
 * the zip's directory, which is at its end, before anything is unpacked. What they unpack to is
 * then read as a stream (xlsx-reader), its rows handed over as they are parsed; a limit on rows or
 * columns is thrown as soon as a value passes it.
 */
export async function readSpreadsheetRows(
  file: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>,
  onRow: (cells: string[], row: number) => void | Promise<void>,
): Promise<void> {
  const iterator = (async function* () {
    yield* file;
  })();
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  // Enough bytes to tell a zip from text.
  while (headBytes < ZIP_SIGNATURE.length) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    const chunk = asBuffer(next.value);
    head.push(chunk);
    headBytes += chunk.length;
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield* head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield asBuffer(next.value);
    }
  }
  if (Buffer.concat(head).subarray(0, 4).equals(ZIP_SIGNATURE)) {
    const chunks: Buffer[] = [];
    for await (const chunk of rest()) chunks.push(chunk);
    await readXlsx(Buffer.concat(chunks), onRow);
    return;
  }
  await readCsvRows(rest(), onRow);
}

/** The bytes as a Buffer without copying them (a 20 MB workbook was copied twice). */
function asBuffer(chunk: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(chunk)
    ? chunk
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

async function readCsvRows(
  chunks: AsyncIterable<Buffer>,
  onRow: (cells: string[], row: number) => void | Promise<void>,
): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parser = new CsvParser();
  let notUtf8 = false;
  let syntax: CsvSyntaxError | null = null;
  let rowNumber = 0;
  /** The last row holding a value, and the first one wider than the limit. */
  let lastRow = 0;
  let tooWide: { row: number; width: number } | null = null;

  const take = async (records: string[][]) => {
    for (const cells of records) {
      rowNumber += 1;
      let width = cells.length;
      while (width > 0 && (cells[width - 1] ?? "").trim() === "") width -= 1;
      if (width === 0) {
        // A blank row past the limit changes nothing: only rows with values count.
        if (rowNumber - 1 <= SHEET_LIMITS.maxRows) {
          const pending = onRow(cells, rowNumber);
          if (pending) await pending;
        }
        continue;
      }
      lastRow = rowNumber;
      if (width > SHEET_LIMITS.maxColumns) {
        tooWide ??= { row: rowNumber, width };
        continue;
      }
      if (rowNumber - 1 > SHEET_LIMITS.maxRows || tooWide !== null) continue;
      const pending = onRow(cells, rowNumber);
      if (pending) await pending;
    }
  };
  const parse = async (text: string, last: boolean) => {
    // After a syntax error the rest is only decoded: text that is not UTF-8 is still the answer.
    if (syntax !== null) return;
    try {
      await take(parser.push(text));
      if (last) await take(parser.end());
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      syntax = error;
    }
  };

  for await (const chunk of chunks) {
    if (notUtf8) continue;
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      notUtf8 = true;
      continue;
    }
    await parse(text, false);
  }
  if (!notUtf8) {
    let text: string | null = null;
    try {
      // A sequence cut off by the end of the file.
      text = decoder.decode();
    } catch {
      notUtf8 = true;
    }
    if (text !== null) await parse(text, true);
  }
  if (notUtf8) {
    throw new SpreadsheetError(1, "The file is neither an XLSX workbook nor UTF-8 CSV text.");
  }
  const syntaxError = syntax as CsvSyntaxError | null;
  if (syntaxError !== null) throw new SpreadsheetError(syntaxError.row, syntaxError.message);
  if (lastRow - 1 > SHEET_LIMITS.maxRows) throw tooManyRows(lastRow - 1);
  const wide = tooWide as { row: number; width: number } | null;
  if (wide !== null) throw tooManyColumns(wide.row, wide.width);
}

/**
 * The workbook's first sheet, a row at a time: blank rows between rows with values are handed
 * over empty (their numbers are the spreadsheet's), blank rows after the last value not at all.
 */
async function readXlsx(
  bytes: Buffer,
  onRow: (cells: string[], row: number) => void | Promise<void>,
): Promise<void> {
  let handed = 0;
  try {
    await readXlsxRows(bytes, async ({ row, cells }) => {
      if (row - 1 > SHEET_LIMITS.maxRows) throw tooManyRows(null);
      const text: string[] = [];
      for (const cell of cells) {
        if (cell.column > SHEET_LIMITS.maxColumns) throw tooManyColumns(row, cell.column);
        while (text.length < cell.column - 1) text.push("");
        // A repeated reference (never written by Excel) keeps the later cell, as exceljs did.
        if (text.length >= cell.column) text[cell.column - 1] = cell.text;
        else text.push(cell.text);
      }
      for (; handed < row - 1; handed += 1) {
        const pending = onRow([], handed + 1);
        if (pending) await pending;
      }
      handed = Math.max(handed, row);
      const pending = onRow(text, row);
      if (pending) await pending;
    });
  } catch (error) {
    if (error instanceof ZipRefusal) {
      if (error.kind === "limit") throw validationError("file", error.message);
      throw new SpreadsheetError(1, UNREADABLE_XLSX);
    }
    if (error instanceof XlsxUnreadable) throw new SpreadsheetError(1, UNREADABLE_XLSX);
    throw error;
  }
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

// ---------------------------------------------------------------------------------------------
// Export

export const EXPORT_COLUMNS = ["idNo", ...RECORD_COLUMNS] as const;

/** One cell of an exported row: idNo is a number, a blank cell null. */
export type ExportCell = string | number | null;

/**
 * A submission as a spreadsheet row. A document received on a known date shows the date (the
 * importer reads it back); otherwise "Submitted" as in the prototype, or blank when missing.
 */
export function exportRow(s: Submission): ExportCell[] {
  const record = toSubmissionRecord(s) as Record<string, string | number | undefined>;
  for (const item of DOCUMENTS) {
    const receivedOn = s.documents[item].receivedOn;
    if (s.documents[item].submitted && receivedOn) record[DOCUMENT_LABELS[item]] = receivedOn;
  }
  return EXPORT_COLUMNS.map((column) => record[column] ?? null);
}

async function* rowsOf(submissions: AsyncIterable<Submission[]>): AsyncGenerator<ExportCell[][]> {
  for await (const page of submissions) yield page.map(exportRow);
}

/** CSV with a byte-order mark (so spreadsheet programs read UTF-8), streamed as pages arrive. */
export function csvStream(submissions: AsyncIterable<Submission[]>): Readable {
  return csvRowsStream(rowsOf(submissions));
}

/**
 * The CSV export of pages of cells: csvLine of the cells with protectCell on the text ones, done
 * in one pass without the arrays and closures per row (the same bytes; spreadsheet.test compares).
 */
export function csvRowsStream(pages: AsyncIterable<ExportCell[][]>): Readable {
  async function* lines() {
    yield CSV_BOM + csvLine(EXPORT_COLUMNS);
    for await (const page of pages) {
      let text = "";
      for (const cells of page) text += exportCsvLine(cells);
      // Bytes, not the text: while a page waits in the socket's or the compressor's queue the
      // next one is built, and a waiting string (500 lines joined, a tree of many pieces until it
      // is flattened) lives through young-generation collections into the old generation, which
      // is only collected much later. A Buffer's bytes are outside the heap. With brotli, a
      // million rows grew the server's RSS by 43 MB instead of 109 (SQLite, bench-bulk).
      yield Buffer.from(text, "utf8");
    }
  }
  return Readable.from(lines());
}

/** csvLine(cells with protectCell applied to text), written out by hand for the export's loop. */
export function exportCsvLine(cells: readonly ExportCell[]): string {
  let line = "";
  for (let index = 0; index < cells.length; index += 1) {
    if (index > 0) line += ",";
    const cell = cells[index];
    if (cell === null || cell === undefined) continue;
    if (typeof cell !== "string") {
      line += String(cell);
      continue;
    }
    const text = protectCell(cell);
    line += NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }
  return line + "\r\n";
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * XLSX written here as SpreadsheetML, the sheet's XML streamed through yazl's deflate a page of
 * rows at a time, so memory stays flat and a million rows take seconds. exceljs's streaming writer
 * did the same job at a fraction of the speed: it builds a model object for every cell and row.
 * Cells are inline text (never formulas, so nothing needs protectCell) and idNo a number.
 */
export function xlsxStream(submissions: AsyncIterable<Submission[]>, now = new Date()): Readable {
  return xlsxRowsStream(rowsOf(submissions), now);
}

/** The XLSX export of pages of cells (xlsxStream's writer). */
export function xlsxRowsStream(pages: AsyncIterable<ExportCell[][]>, now = new Date()): Readable {
  const zip = new ZipFile();
  const options = { mtime: now, compress: true };
  zip.addBuffer(Buffer.from(XLSX_PARTS.contentTypes), "[Content_Types].xml", options);
  zip.addBuffer(Buffer.from(XLSX_PARTS.rootRels), "_rels/.rels", options);
  zip.addBuffer(Buffer.from(XLSX_PARTS.workbook), "xl/workbook.xml", options);
  zip.addBuffer(Buffer.from(XLSX_PARTS.workbookRels), "xl/_rels/workbook.xml.rels", options);
  zip.addBuffer(Buffer.from(XLSX_PARTS.styles), "xl/styles.xml", options);
  async function* sheet() {
    let row = 1;
    yield XLSX_PARTS.sheetStart + sheetRow(EXPORT_COLUMNS, row);
    for await (const page of pages) {
      let xml = "";
      for (const cells of page) xml += sheetRow(cells, (row += 1));
      // Bytes, not text, for the reason csvRowsStream gives.
      yield Buffer.from(xml, "utf8");
    }
    yield XLSX_PARTS.sheetEnd;
  }
  const sheetXml = Readable.from(sheet());
  // Level 1: the sheet's XML is so repetitive that it still packs about 10:1, at a third of the
  // default level's time; the download is CPU-bound on deflate, not on the network.
  zip.addReadStream(sheetXml, "xl/worksheets/sheet1.xml", { ...options, compressionLevel: 1 });
  zip.end();
  const out = new PassThrough();
  sheetXml.once("error", (error) => out.destroy(error));
  zip.outputStream.once("error", (error: Error) => out.destroy(error));
  zip.outputStream.pipe(out);
  return out;
}

const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

/** The fixed parts of the workbook: one sheet, the one style Excel expects to find. */
const XLSX_PARTS = {
  contentTypes:
    XML_HEAD +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/xl/workbook.xml" ContentType="${SHEETML}.sheet.main+xml"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SHEETML}.worksheet+xml"/>` +
    `<Override PartName="/xl/styles.xml" ContentType="${SHEETML}.styles+xml"/>` +
    "</Types>",
  rootRels:
    XML_HEAD +
    `<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
    "</Relationships>",
  workbook:
    XML_HEAD +
    `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<sheets><sheet name="Submissions" sheetId="1" r:id="rId1"/></sheets></workbook>',
  workbookRels:
    XML_HEAD +
    `<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    "</Relationships>",
  styles:
    XML_HEAD +
    `<styleSheet xmlns="${MAIN_NS}">` +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    "</styleSheet>",
  sheetStart: XML_HEAD + `<worksheet xmlns="${MAIN_NS}"><sheetData>`,
  sheetEnd: "</sheetData></worksheet>",
};

const SPACE_AT_END = /^\s|\s$/;

/** Column letters A, B, … Z, AA, … for the export's columns. */
const COLUMN_LETTERS = EXPORT_COLUMNS.map((_, index) => {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
});

/** Cells and rows carry their references (readers such as exceljs insist), so blanks are left out. */
function sheetRow(cells: readonly (string | number | null)[], row: number): string {
  let xml = `<row r="${row}">`;
  for (let index = 0; index < cells.length; index += 1) {
    const cell = cells[index];
    if (cell === null || cell === undefined || cell === "") continue;
    const ref = `${COLUMN_LETTERS[index] ?? "A"}${row}`;
    if (typeof cell === "number") xml += `<c r="${ref}"><v>${cell}</v></c>`;
    else {
      const space = SPACE_AT_END.test(cell) ? ' xml:space="preserve"' : "";
      xml += `<c r="${ref}" t="inlineStr"><is><t${space}>${xmlText(cell)}</t></is></c>`;
    }
  }
  return xml + "</row>";
}

// Characters XML 1.0 cannot hold (most control characters, lone surrogates, U+FFFE and U+FFFF),
// and text that reads like SpreadsheetML's own escape _xHHHH_.
const NOT_PLAIN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|_x[0-9a-fA-F]{4}_/g;

// eslint-disable-next-line no-control-regex -- as NOT_PLAIN
const MAYBE_NOT_PLAIN = /[&<>_\u0000-\u001f\ud800-\udfff\ufffe\uffff]/;

/** Text escaped for XML; what XML cannot hold as _xHHHH_, as Excel writes it. */
function xmlText(text: string): string {
  // A single character class is far cheaper than NOT_PLAIN, and most cells have none of these.
  if (!MAYBE_NOT_PLAIN.test(text)) return text;
  return text.replace(NOT_PLAIN, (match) => {
    if (match === "&") return "&amp;";
    if (match === "<") return "&lt;";
    if (match === ">") return "&gt;";
    if (match.startsWith("_x")) return `_x005F${match}`;
    return `_x${match.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;
  });
}

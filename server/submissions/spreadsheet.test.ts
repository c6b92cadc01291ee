import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { emptyDocuments, type Submission } from "../../common/submission.js";
import { AppError } from "../errors.js";
import { csvLine, parseCsv } from "./csv.js";
import {
  EXPORT_COLUMNS,
  SHEET_LIMITS,
  SpreadsheetError,
  csvStream,
  exportRow,
  readSpreadsheetRows,
  xlsxStream,
} from "./spreadsheet.js";

/** The rows readSpreadsheetRows hands over for `bytes` cut into pieces of `size` bytes. */
async function rowsOf(bytes: Buffer, size: number) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  const rows: { row: number; cells: string[] }[] = [];
  await readSpreadsheetRows(pieces, (cells, row) => {
    rows.push({ row, cells });
  });
  return rows;
}

async function failureOf(bytes: Buffer, size: number) {
  try {
    await rowsOf(bytes, size);
    return null;
  } catch (error) {
    if (error instanceof SpreadsheetError) return { row: error.row, message: error.message };
    if (error instanceof AppError) return { message: error.message };
    throw error;
  }
}

describe("reading an upload as it arrives", () => {
  it("gives the same rows however the bytes are cut, multi-byte characters included", async () => {
    const text =
      '\uFEFFStudentName,Programme\r\n"Adjoa Ɛsi, Jr","MPhil\r\nÉconomie"\r\nKwame,ok\r\n';
    const whole = parseCsv(text.slice(1));
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const rows = await rowsOf(Buffer.from(text), size);
      expect(rows.map((r) => r.cells)).toEqual(whole);
      expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
    }
  });

  it("says the file is not UTF-8 even when a quote is broken before the bad bytes", async () => {
    const bytes = Buffer.concat([Buffer.from('a\r\n"x"y\r\n'), Buffer.from([0xff, 0x41])]);
    for (const size of [1, 4, 100]) {
      expect(await failureOf(bytes, size)).toEqual({
        row: 1,
        message: "The file is neither an XLSX workbook nor UTF-8 CSV text.",
      });
    }
    // A character cut off by the end of the file.
    expect(await failureOf(Buffer.from([0x61, 0xe2, 0x82]), 1)).toMatchObject({ row: 1 });
  });

  it("names the row of a CSV syntax error, as the whole-text parser does", async () => {
    expect(await failureOf(Buffer.from('a\r\nb\r\n"x"y,z'), 2)).toEqual({
      row: 3,
      message: "a quoted cell is followed by more text before the comma",
    });
  });

  it("counts the rows past the limit for its message, ignoring blank ones", async () => {
    const lines = ["Name"];
    for (let i = 0; i < SHEET_LIMITS.maxRows + 3; i += 1) lines.push(`r${i}`);
    lines.push("", ",,");
    const failure = await failureOf(Buffer.from(lines.join("\r\n")), 65536);
    expect(failure?.message).toContain(
      `The file has ${(SHEET_LIMITS.maxRows + 3).toLocaleString("en-US")} rows besides the header`,
    );
  });

  it("lets trailing blank rows past the limit through", async () => {
    const lines = ["Name"];
    for (let i = 0; i < SHEET_LIMITS.maxRows; i += 1) lines.push("x");
    lines.push("", "", ",");
    const rows = await rowsOf(Buffer.from(lines.join("\n")), 65536);
    expect(rows.filter((r) => r.cells.some((cell) => cell !== ""))).toHaveLength(
      SHEET_LIMITS.maxRows + 1,
    );
  });

  it("names the first row wider than the column limit", async () => {
    const wide = Array.from({ length: SHEET_LIMITS.maxColumns + 1 }, () => "v").join(",");
    const failure = await failureOf(Buffer.from(`a\r\nb\r\n${wide}\r\n${wide},w`), 10);
    expect(failure?.message).toBe(
      `file: Row 3 has a value in column ${SHEET_LIMITS.maxColumns + 1}; at most ${SHEET_LIMITS.maxColumns} columns are read.`,
    );
  });
});

function submission(id: number, overrides: Partial<Submission> = {}): Submission {
  return {
    id,
    version: 1,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    studentName: `Student ${id}`,
    indexNumber: String(10_000_000 + id),
    programme: "MPhil Economics",
    contact: null,
    studentEmail: null,
    documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: "2025-02-02" } },
    sgsStage: "nominations_ready",
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
    ...overrides,
  } as Submission;
}

async function* pagesOf(all: Submission[], size: number) {
  for (let at = 0; at < all.length; at += size) yield all.slice(at, at + size);
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe("the XLSX export", () => {
  it("reads back (exceljs) to the same rows as the CSV export, awkward text included", async () => {
    const all = [
      submission(1, { studentName: 'Ama <b>&amp; "Kofi"', contact: "+233 24 123 4567" }),
      submission(2, { studentName: "  leading and trailing  ", programme: "Line\nbreak" }),
      submission(3, { studentName: "Bell\u0007 and _x0041_ literal", contact: "=1+1" }),
      submission(4, { studentName: "Ɛsi 😀 Mensah", sgsStage: null, documents: emptyDocuments() }),
      ...Array.from({ length: 1200 }, (_, i) => submission(10 + i)),
    ];
    const xlsx = await collect(xlsxStream(pagesOf(all, 500)));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe("Submissions");
    const read: (string | number | null)[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      read.push(
        EXPORT_COLUMNS.map((_, index) => {
          const value = row.getCell(index + 1).value;
          return value === null || value === undefined ? null : (value as string | number);
        }),
      );
    });
    const expected = [[...EXPORT_COLUMNS], ...all.map((s) => exportRow(s))];
    // exceljs does not undo SpreadsheetML's _xHHHH_ escapes; Excel and LibreOffice do.
    const decoded = read.map((row) =>
      row.map((cell) =>
        typeof cell === "string"
          ? cell.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) =>
              String.fromCharCode(parseInt(hex, 16)),
            )
          : cell,
      ),
    );
    expect(decoded).toEqual(expected);
    // As written: the bell escaped, the literal escape's underscore escaped in turn.
    expect(read[3]?.[1]).toBe("Bell_x0007_ and _x005F_x0041_ literal");
    // The CSV export of the same pages says the same, with formula-like cells protected.
    const csv = parseCsv((await collect(csvStream(pagesOf(all, 500)))).toString("utf8").slice(1));
    expect(csv).toHaveLength(expected.length);
    expect(csv[1]?.[EXPORT_COLUMNS.indexOf("StudentName")]).toBe('Ama <b>&amp; "Kofi"');
    expect(csv[3]?.[EXPORT_COLUMNS.indexOf("Contact")]).toBe("'=1+1");
    expect(csvLine(csv[2] ?? [])).toContain('"Line\nbreak"');
  });

  it("fails the download when reading the submissions fails", async () => {
    async function* failing(): AsyncGenerator<Submission[]> {
      yield [submission(1)];
      throw new Error("the database went away");
    }
    await expect(collect(xlsxStream(failing()))).rejects.toThrow("the database went away");
  });
});

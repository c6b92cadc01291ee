import ExcelJS from "exceljs";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { csvLine } from "./csv.js";
import { RECORD_COLUMNS } from "../../common/submission.js";
import { MAX_LISTED_PROBLEMS } from "./import.js";
import { SHEET_LIMITS } from "./spreadsheet.js";
import { XLSX_LIMITS } from "./zip-guard.js";

/** Imports of files and forms built to hurt: the answer is a clear 400 or 413, never a 500. */

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const CSV = "StudentName,IndexNumber,Programme\r\nAma Owusu,10800001,MA English\r\n";

function form(boundary: string, content: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`
  );
}

function post(contentType: string, payload: string | Buffer, url = "/api/admin/import/preview") {
  return t.app.inject({
    method: "POST",
    url,
    headers: { ...admin.headers, "content-type": contentType },
    payload,
  });
}

function upload(url: string, file: Buffer, fileName: string) {
  const head = Buffer.from(
    `--b\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  return post(
    "multipart/form-data; boundary=b",
    Buffer.concat([head, file, Buffer.from("\r\n--b--\r\n")]),
    url,
  );
}

const countSubmissions = async () =>
  Number(
    (
      await t.db
        .selectFrom("submissions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A zip of these parts, deflated by zlib (yazl), as spreadsheet programs write one. */
function zipOf(parts: { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const part of parts) zip.addBuffer(part.data, part.name, { compress: true });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("error", reject);
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

/** The parts of a real workbook exceljs wrote, holding these rows. */
async function workbookParts(rows: string[][]): Promise<{ name: string; data: Buffer }[]> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Records");
  for (const row of rows) sheet.addRow(row);
  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()));
  const parts: { name: string; data: Buffer }[] = [];
  for (const file of Object.values(zip.files)) {
    if (!file.dir) parts.push({ name: file.name, data: await file.async("nodebuffer") });
  }
  return parts;
}

/** A real workbook whose first sheet's XML is replaced by `sheetXml`. */
async function workbookWithSheet(sheetXml: Buffer): Promise<Buffer> {
  const parts = await workbookParts([["StudentName", "IndexNumber", "Programme"]]);
  return zipOf(
    parts.map((part) =>
      part.name === "xl/worksheets/sheet1.xml" ? { name: part.name, data: sheetXml } : part,
    ),
  );
}

/** Where the central directory describes the part `name`. */
function directoryEntryOf(zip: Buffer, name: string): number {
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = zip.indexOf(signature); at >= 0; at = zip.indexOf(signature, at + 4)) {
    const length = zip.readUInt16LE(at + 28);
    if (zip.toString("utf8", at + 46, at + 46 + length) === name) return at;
  }
  throw new Error(`no directory entry for ${name}`);
}

/** Sheet XML of the same row repeated: it packs to almost nothing. */
function repeatedRowsSheet(bytes: number): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const row = '<row><c t="inlineStr"><is><t>Ama Owusu</t></is></c></row>';
  const tail = "</sheetData></worksheet>";
  return Buffer.from(head + row.repeat(Math.ceil(bytes / row.length)) + tail);
}

describe("a malformed multipart form", () => {
  it.each([
    ["a boundary the body does not use", "multipart/form-data; boundary=other", form("b", CSV)],
    [
      "a boundary with a non-ASCII letter",
      "multipart/form-data; boundary=----é",
      form("----é", CSV),
    ],
    ["no boundary at all", "multipart/form-data", form("b", CSV)],
    [
      "a boundary of 300 characters",
      `multipart/form-data; boundary=${"b".repeat(300)}`,
      form("b".repeat(300), CSV),
    ],
    [
      "a body cut off inside the file",
      "multipart/form-data; boundary=b",
      form("b", CSV).slice(0, 90),
    ],
  ])("with %s is refused with 400 naming the file", async (_case, contentType, payload) => {
    const res = await post(contentType, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: "validation",
      message: expect.stringMatching(/^file: the upload could not be read/),
      fields: [{ field: "file", message: "the form data is malformed or cut short" }],
    });
  });

  it("does not stop a well-formed one from being read", async () => {
    const res = await post("multipart/form-data; boundary=b", form("b", CSV));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, inserts: 1, errors: [] });
  });
});

describe("an XLSX that unpacks to far more than it weighs", () => {
  it("is refused before it is unpacked when its parts declare more than 200 MB", async () => {
    const sheet = repeatedRowsSheet(512 * 1024);
    const zip = await workbookWithSheet(sheet);
    // The sheet's directory entry says it unpacks to 300 MB: nothing is inflated to find out.
    zip.writeUInt32LE(300 * 1024 * 1024, directoryEntryOf(zip, "xl/worksheets/sheet1.xml") + 24);
    const before = await countSubmissions();
    for (const url of ["/api/admin/import/preview", "/api/admin/import/apply"]) {
      const res = await upload(url, zip, "records.xlsx");
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: "validation",
        message: expect.stringContaining("unpacks to more than 200 MB; at most 200 MB is read"),
        fields: [{ field: "file" }],
      });
    }
    expect(await countSubmissions()).toBe(before);
  });

  it("is refused by its packing when it unfolds from kilobytes to 60 MB", async () => {
    const bomb = await workbookWithSheet(repeatedRowsSheet(60 * 1024 * 1024));
    // Small enough to pass the upload limit many times over: the guard, not the size cap, refuses it.
    expect(bomb.length).toBeLessThan(200 * 1024);
    const before = await countSubmissions();
    for (const url of ["/api/admin/import/preview", "/api/admin/import/apply"]) {
      const res = await upload(url, bomb, "records.xlsx");
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: "validation",
        message: expect.stringMatching(
          /^file: The workbook's part xl\/worksheets\/sheet1\.xml unpacks to [\d,]+ times its packed size/,
        ),
        fields: [{ field: "file" }],
      });
    }
    expect(await countSubmissions()).toBe(before);
  });

  it("is refused when one big part is packed far tighter than a real sheet", async () => {
    const tight = await workbookWithSheet(repeatedRowsSheet(4 * 1024 * 1024));
    const res = await upload("/api/admin/import/preview", tight, "records.xlsx");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(
      /^file: The workbook's part xl\/worksheets\/sheet1\.xml unpacks to [\d,]+ times its packed size, more than the 100 times/,
    );
  });

  it("is refused when a part unpacks to more than its zip directory declares", async () => {
    const sheet = repeatedRowsSheet(512 * 1024);
    const zip = await workbookWithSheet(sheet);
    // Rewrite the sheet's declared size in the central directory to a tenth of the truth.
    const at = directoryEntryOf(zip, "xl/worksheets/sheet1.xml");
    zip.writeUInt32LE(Math.floor(sheet.length / 10), at + 24);
    const res = await upload("/api/admin/import/preview", zip, "records.xlsx");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "file: The workbook's part xl/worksheets/sheet1.xml unpacks to more than the size its zip directory declares; the file was refused.",
    );
  });

  it("is refused when it holds more parts than a workbook has", async () => {
    const parts = await workbookParts([["StudentName", "IndexNumber", "Programme"]]);
    for (let i = 0; parts.length <= XLSX_LIMITS.maxEntries; i += 1) {
      parts.push({ name: `xl/media/image${i}.png`, data: Buffer.from("x") });
    }
    const res = await upload("/api/admin/import/preview", await zipOf(parts), "records.xlsx");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `file: The workbook holds ${(XLSX_LIMITS.maxEntries + 1).toLocaleString("en-US")} parts; at most 1,000 are read.`,
    );
  });

  it("answers as before for a file that only starts like a zip", async () => {
    const res = await upload(
      "/api/admin/import/preview",
      Buffer.from("PK\u0003\u0004 not a zip"),
      "x.xlsx",
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([
      {
        row: 1,
        column: null,
        reason: "The file looks like a workbook but cannot be read as XLSX.",
      },
    ]);
  });

  it("is read when it unpacks to more than 50 MB with fewer rows than the limit", async () => {
    // A registrar's sheet of long cells: 2,500 rows of 14 cells of about 1,600 characters each,
    // every cell its own text, some 56 MB unpacked and about 12 MB packed.
    const words = ["thesis", "Kumasi", "examiner", "chemistry", "Accra", "report", "received"];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const cell = (ref: string) => {
      const parts: string[] = [];
      for (let length = 0; length < 1600; ) {
        const word = `${words[next() % words.length]}${next() % 1000}`;
        parts.push(word);
        length += word.length + 1;
      }
      return `<c r="${ref}" t="inlineStr"><is><t>${parts.join(" ")}</t></is></c>`;
    };
    const letters = RECORD_COLUMNS.map((_, index) => String.fromCharCode(65 + index));
    const rows = [
      `<row r="1">${RECORD_COLUMNS.map((name, i) => `<c r="${letters[i]}1" t="inlineStr"><is><t>${name}</t></is></c>`).join("")}</row>`,
    ];
    for (let row = 2; row <= 2501; row += 1) {
      rows.push(
        `<row r="${row}">${letters.map((letter) => cell(`${letter}${row}`)).join("")}</row>`,
      );
    }
    const sheet = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        rows.join("") +
        "</sheetData></worksheet>",
    );
    expect(sheet.length).toBeGreaterThan(50 * 1024 * 1024);
    const bytes = await workbookWithSheet(sheet);
    expect(bytes.length).toBeLessThan(20 * 1024 * 1024);
    const res = await upload("/api/admin/import/preview", bytes, "records.xlsx");
    expect(res.statusCode).toBe(200);
    // Read to its end: every row is there, and what is wrong is the cells' length, not the file.
    expect(res.json()).toMatchObject({ rows: 2500, inserts: 0 });
    expect(res.json().errors[0]).toEqual({
      row: 2,
      column: "IndexNumber",
      reason: "must be 4 to 20 letters, digits, / or -",
    });
  });

  it("is read when its zip is written in the ZIP64 format", async () => {
    const parts = await workbookParts([
      ["StudentName", "IndexNumber", "Programme"],
      ["Yaa Asantewaa", "10800301", "MPhil History"],
    ]);
    const zip = new ZipFile();
    for (const part of parts) {
      zip.addBuffer(part.data, part.name, { compress: true, forceZip64Format: true });
    }
    zip.end({ forceZip64Format: true, comment: "" });
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
      zip.outputStream.on("error", reject);
      zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    });
    // The end-of-directory record's fields are saturated: the real ones are ZIP64's.
    const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    expect(bytes.readUInt32LE(end + 16)).toBe(0xffffffff);
    const res = await upload("/api/admin/import/apply", bytes, "records.xlsx");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
  });

  it("still imports a normal workbook", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(["StudentName", "IndexNumber", "Programme"]);
    sheet.addRow(["Kofi Boateng", "10800101", "MPhil Economics"]);
    sheet.addRow(["Efua Mensah", "10800102", "MA English"]);
    const res = await upload(
      "/api/admin/import/apply",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "records.xlsx",
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
  });
});

describe("a sheet with more rows or columns than are read", () => {
  const header = ["StudentName", "IndexNumber", "Programme"];

  it("is refused with the row limit in the message, for CSV", async () => {
    const rows = Array.from({ length: SHEET_LIMITS.maxRows + 1 }, (_, i) => [
      `Student ${i}`,
      String(20_000_000 + i),
      "MA English",
    ]);
    const csv = [header, ...rows].map((row) => csvLine(row)).join("");
    const before = await countSubmissions();
    const res = await upload("/api/admin/import/apply", Buffer.from(csv), "records.csv");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "file: The file has 50,001 rows besides the header; at most 50,000 are imported at once. Split it into smaller files.",
    );
    expect(await countSubmissions()).toBe(before);
  });

  it("is refused for a workbook with a value past the last row read", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(header);
    sheet.getCell(`A${SHEET_LIMITS.maxRows + 2}`).value = "far down";
    const res = await upload(
      "/api/admin/import/preview",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "records.xlsx",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "file: The file has more than 50,000 rows besides the header; at most 50,000 are imported at once. Split it into smaller files.",
    );
  });

  it("is refused for a value past the last column read, naming its row", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(header);
    sheet.addRow(["Ama Owusu", "10800201", "MA English"]);
    sheet.getRow(2).getCell(SHEET_LIMITS.maxColumns + 1).value = "far right";
    const res = await upload(
      "/api/admin/import/preview",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "records.xlsx",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "file: Row 2 has a value in column 101; at most 100 columns are read.",
    );
  });

  it("is refused for a CSV header wider than the limit", async () => {
    const res = await upload(
      "/api/admin/import/preview",
      Buffer.from(`${"a,".repeat(50_000)}a\r\n`),
      "wide.csv",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "file: Row 1 has a value in column 50,001; at most 100 columns are read.",
    );
  });

  it("lets a sheet of exactly the limits through to the row checks", async () => {
    const rows = Array.from({ length: SHEET_LIMITS.maxRows }, (_, i) => [
      `Student ${i}`,
      String(30_000_000 + i),
      "MA English",
    ]);
    const csv = [header, ...rows].map((row) => csvLine(row)).join("");
    const res = await upload("/api/admin/import/preview", Buffer.from(csv), "records.csv");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rows: SHEET_LIMITS.maxRows,
      inserts: SHEET_LIMITS.maxRows,
      errors: [],
    });
  });
});

describe("a file with more problems than anyone reads", () => {
  const rows = Array.from({ length: 2000 }, (_, i) => [`Student ${i}`, "no", "MA English"]);
  const csv = Buffer.from(
    [["StudentName", "IndexNumber", "Programme"], ...rows].map((row) => csvLine(row)).join(""),
  );
  const summary = {
    row: MAX_LISTED_PROBLEMS + 2,
    column: null,
    reason: "and 1,500 more problems from this row on; only the first 500 are listed",
  };

  it("lists the first problems in the preview and counts the rest in a last line", async () => {
    const res = await upload("/api/admin/import/preview", csv, "records.csv");
    expect(res.statusCode).toBe(200);
    const { errors } = res.json();
    expect(errors).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(errors[0]).toEqual({ row: 2, column: "IndexNumber", reason: expect.any(String) });
    expect(errors.at(-1)).toEqual(summary);
  });

  it("says how many there are when it refuses the file", async () => {
    const res = await upload("/api/admin/import/apply", csv, "records.csv");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "The file has 2,000 problems; nothing was imported. Correct the rows listed and try again.",
    );
    expect(res.json().errors.at(-1)).toEqual(summary);
  });
});

describe("a file whose cells hold a NUL character", () => {
  // PostgreSQL refused the whole import (a 500) and SQLite stored the NUL.
  const csv = Buffer.from(
    "StudentName,IndexNumber,Programme,Contact\r\nA\u0000ma Owusu,10800301,MA English,024\u0000 1\r\n",
  );
  const problems = [
    { row: 2, column: "StudentName", reason: "must not contain a NUL character" },
    { row: 2, column: "Contact", reason: "must not contain a NUL character" },
  ];

  it("names each such cell in the preview", async () => {
    const res = await upload("/api/admin/import/preview", csv, "records.csv");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, inserts: 0, errors: problems });
  });

  it("is refused whole on apply, nothing imported", async () => {
    const before = await countSubmissions();
    const res = await upload("/api/admin/import/apply", csv, "records.csv");
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(problems);
    expect(await countSubmissions()).toBe(before);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { SharedStrings, readXlsxRows, type XlsxRow } from "./xlsx-reader.js";

/** A zip of these parts, as a spreadsheet program writes one. */
function zipOf(parts: Record<string, string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, text] of Object.entries(parts)) {
    zip.addBuffer(Buffer.from(text), name, { compress: true });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("error", reject);
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

async function rowsOf(bytes: Buffer): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  await readXlsxRows(bytes, (row) => {
    rows.push(row);
  });
  return rows;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";

describe("reading a workbook's first sheet", () => {
  it("reads what exceljs writes: shared and rich text, numbers, dates, booleans, formulas", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(["Name", "Index", "Received", "Done", "Sum"]);
    sheet.addRow([
      { richText: [{ text: "Ama " }, { text: "Owusu", font: { bold: true } }] },
      10800001,
      new Date(Date.UTC(2025, 4, 6)),
      true,
      { formula: "1+1", result: 2 },
    ]);
    sheet.getCell("B4").value = 2.5;
    const rows = await rowsOf(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(rows).toEqual([
      {
        row: 1,
        cells: ["Name", "Index", "Received", "Done", "Sum"].map((text, i) => ({
          column: i + 1,
          text,
        })),
      },
      {
        row: 2,
        cells: [
          { column: 1, text: "Ama Owusu" },
          { column: 2, text: "10800001" },
          { column: 3, text: "2025-05-06" },
          { column: 4, text: "true" },
          { column: 5, text: "2" },
        ],
      },
      { row: 4, cells: [{ column: 2, text: "2.5" }] },
    ]);
  });

  it("follows the workbook's relationships, prefixes, 1904 dates and escapes as Excel does", async () => {
    const bytes = await zipOf({
      "_rels/.rels": `<Relationships xmlns="${PKG}"><Relationship Id="r1" Type="${REL}/officeDocument" Target="book/main.xml"/></Relationships>`,
      "book/main.xml": `<x:workbook xmlns:x="${MAIN}" xmlns:r="${REL}"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="B" sheetId="2" r:id="s2"/><x:sheet name="A" sheetId="1" r:id="s1"/></x:sheets></x:workbook>`,
      "book/_rels/main.xml.rels": `<Relationships xmlns="${PKG}"><Relationship Id="s1" Type="${REL}/worksheet" Target="one.xml"/><Relationship Id="s2" Type="${REL}/worksheet" Target="/book/two.xml"/><Relationship Id="t" Type="${REL}/sharedStrings" Target="strings.xml"/><Relationship Id="y" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
      "book/strings.xml": `<sst xmlns="${MAIN}"><si><t>Kofi_x000D_Mensah &amp; _x005F_x0041_</t></si><si><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si></sst>`,
      "book/styles.xml": `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="[Red]&quot;on &quot;yyyy-mm-dd"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="2"/></cellXfs></styleSheet>`,
      "book/one.xml": "<worksheet/>",
      "book/two.xml": `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c s="1"><x:v>0</x:v></x:c><x:c s="2"><x:v>1.50</x:v></x:c><x:c t="e"><x:v>#N/A</x:v></x:c><x:c r="H1" t="str"><x:f>A1</x:f><x:v><![CDATA[<cached>]]></x:v></x:c></x:row></x:sheetData></x:worksheet>`,
    });
    expect(await rowsOf(bytes)).toEqual([
      {
        row: 1,
        cells: [
          { column: 1, text: "Kofi\rMensah & _x0041_" },
          { column: 2, text: "東京" },
          { column: 3, text: "1904-01-01" },
          { column: 4, text: "1.5" },
          { column: 8, text: "<cached>" },
        ],
      },
    ]);
  });

  it("reads markup cut anywhere between the pieces it is inflated in", async () => {
    // 3,000 rows of entities, character references, comments, CDATA and a ">" inside a quoted
    // attribute: the part is inflated 16 KB at a time, so every kind is cut somewhere.
    const rows: string[] = [];
    for (let row = 1; row <= 3000; row += 1) {
      rows.push(
        `<row r="${row}" x:note='a > b'><!-- row ${row} --><c r="A${row}" t="inlineStr"><is><t>Ama &amp; Kofi &#x1F600; &lt;${row}&gt;</t></is></c>` +
          `<c r="B${row}" t="str"><v><![CDATA[<${row}>]]></v></c><?keep going?><c r="C${row}"><v>${row}.50</v></c></row>`,
      );
    }
    const bytes = await zipOf({
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet r:id="s"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `<Relationships xmlns="${PKG}"><Relationship Id="s" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      "xl/worksheets/sheet1.xml": `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>${rows.join("")}</sheetData></worksheet>`,
    });
    const read = await rowsOf(bytes);
    expect(read).toHaveLength(3000);
    read.forEach(({ row, cells }, index) => {
      expect(row).toBe(index + 1);
      expect(cells).toEqual([
        { column: 1, text: `Ama & Kofi 😀 <${row}>` },
        { column: 2, text: `<${row}>` },
        { column: 3, text: `${row}.5` },
      ]);
    });
  });

  it("refuses an entity XML does not define", async () => {
    const bytes = await zipOf({
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet r:id="s"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `<Relationships xmlns="${PKG}"><Relationship Id="s" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      "xl/worksheets/sheet1.xml": `<worksheet xmlns="${MAIN}"><sheetData><row><c t="str"><v>&nbsp;</v></c></row></sheetData></worksheet>`,
    });
    await expect(rowsOf(bytes)).rejects.toMatchObject({ name: "XlsxUnreadable" });
  });

  it("refuses a part that declares an entity of its own", async () => {
    const bytes = await zipOf({
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet r:id="s"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `<Relationships xmlns="${PKG}"><Relationship Id="s" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      "xl/worksheets/sheet1.xml": `<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><worksheet xmlns="${MAIN}"><sheetData><row><c t="str"><v>&b;</v></c></row></sheetData></worksheet>`,
    });
    await expect(rowsOf(bytes)).rejects.toMatchObject({ name: "XlsxUnreadable" });
  });
});

describe("the shared strings, kept in a temporary file", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-xlsx-test-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** 2,000 rows of a long distinct note (over 1 MB of text: many windows) and a repeated value. */
  async function longWorkbook(): Promise<{ bytes: Buffer; notes: string[] }> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(["Note", "Programme"]);
    const notes: string[] = [];
    for (let i = 0; i < 2000; i += 1) {
      // One note longer than a window (64 KB), the rest some 600 bytes with non-ASCII text.
      const note =
        i === 700 ? "x".repeat(70_000) : `Note ${i}: Ɔdɔ ${"é".repeat(i % 7)} `.repeat(30);
      notes.push(note);
      sheet.addRow([note, `MPhil ${i % 3}`]);
    }
    return { bytes: Buffer.from(await workbook.xlsx.writeBuffer()), notes };
  }

  it("reads every string back and removes the file when the read ends", async () => {
    const dir = tempDir();
    const { bytes, notes } = await longWorkbook();
    const seen: string[][] = [];
    const rows: XlsxRow[] = [];
    await readXlsxRows(
      bytes,
      (row) => {
        if (row.row === 1) seen.push(fs.readdirSync(dir));
        rows.push(row);
      },
      { tempDir: dir },
    );
    expect(seen).toEqual([[expect.stringMatching(/^ets-xlsx-strings-/)]]);
    expect(rows).toHaveLength(2001);
    expect(rows.slice(1).map((row) => row.cells.map((cell) => cell.text))).toEqual(
      notes.map((note, i) => [note, `MPhil ${i % 3}`]),
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("removes the file when the read fails halfway", async () => {
    const dir = tempDir();
    const { bytes } = await longWorkbook();
    const seen: string[][] = [];
    await expect(
      readXlsxRows(
        bytes,
        (row) => {
          if (row.row === 1000) {
            seen.push(fs.readdirSync(dir));
            throw new Error("too many rows");
          }
        },
        { tempDir: dir },
      ),
    ).rejects.toThrow("too many rows");
    expect(seen).toEqual([[expect.stringMatching(/^ets-xlsx-strings-/)]]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("reads strings back in any order, across windows and longer than one", () => {
    const dir = tempDir();
    const strings = new SharedStrings(path.join(dir, "strings"));
    try {
      const texts = Array.from({ length: 5000 }, (_, i) =>
        i % 997 === 0
          ? `${i}`.padEnd(100_000, "ü")
          : i % 10 === 0
            ? ""
            : `${i} ${"ß".repeat(i % 300)}`,
      );
      for (const text of texts) strings.add(text);
      strings.finish();
      // A fixed shuffle: every string, then some twice, far apart in the file.
      const order = texts.map((_, i) => (i * 2_654_435_761) % texts.length);
      for (const index of [...order, 4999, 0, 2500, 0, 4999]) {
        expect(strings.get(index)).toBe(texts[index]);
      }
      expect(strings.get(5000)).toBe("");
      expect(strings.get(-1)).toBe("");
    } finally {
      strings.close();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { ReportCell, ReportTable } from "../../common/report-tables.js";
import { CSV_BOM, csvLine, protectCell } from "../submissions/csv.js";

/**
 * The Reports page's tables as files: one table as CSV, or tables as an XLSX workbook (a sheet
 * each). Both are streams: the CSV is written a row at a time, the workbook by exceljs's streaming
 * writer, so neither is held whole as text.
 */

export interface ReportFile {
  body: Readable;
  contentType: string;
  filename: string;
}

export const CSV_TYPE = "text/csv; charset=utf-8";
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Text a spreadsheet program would run as a formula is written as text (csv.ts' rule). */
function safeCell(value: ReportCell): ReportCell {
  return typeof value === "string" ? protectCell(value) : value;
}

/** One table as CSV: a byte order mark (Excel reads UTF-8 then), the header, the rows. */
export function tableCsv(table: ReportTable): Readable {
  return Readable.from(
    (function* () {
      yield CSV_BOM + csvLine(table.columns.map((column) => protectCell(column.label)));
      for (const row of table.rows) yield csvLine(row.map(safeCell));
    })(),
    { objectMode: false },
  );
}

/** A sheet's name: at most 31 characters, none of : \ / ? * [ ] (Excel's rules), unique. */
export function sheetName(title: string, taken: Set<string>): string {
  const base =
    title
      .replace(/[:\\/?*[\]]/g, " ")
      .slice(0, 28)
      .trim() || "Sheet";
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base} ${n}`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * Tables as one workbook, a sheet per table: the header row bold and frozen, numbers as numbers,
 * the table's note in a row after a blank one. Written as it is made.
 */
export function tablesXlsx(tables: readonly ReportTable[], now: Date): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = "ETS Tracking";
  workbook.created = now;
  const taken = new Set<string>();
  void (async () => {
    for (const table of tables) {
      const sheet = workbook.addWorksheet(sheetName(table.title, taken), {
        views: [{ state: "frozen", ySplit: 1 }],
      });
      sheet.columns = table.columns.map((column, index) => ({
        header: column.label,
        key: String(index),
        width: index === 0 ? 42 : Math.max(12, Math.min(30, column.label.length + 2)),
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      for (const row of table.rows) sheet.addRow(row.map(safeCell)).commit();
      if (table.note) {
        sheet.addRow([]).commit();
        sheet.addRow([protectCell(table.note)]).commit();
      }
      sheet.commit();
    }
    await workbook.commit();
  })().catch((error: unknown) =>
    out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}

/** A file name's safe part: letters, digits and hyphens. */
export function fileSlug(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "all"
  );
}

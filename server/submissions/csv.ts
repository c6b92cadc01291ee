/**
 * CSV as RFC 4180 writes it: comma-separated fields, records ended by CRLF (LF and a lone CR are
 * accepted too), fields holding a comma, quote or line break enclosed in double quotes with inner
 * quotes doubled. A UTF-8 byte-order mark at the start is skipped. Small enough to own, and
 * strict where a mistake would shift cells into the wrong columns.
 */

export class CsvSyntaxError extends Error {
  constructor(
    /** The record (spreadsheet row) where the problem is, counting from 1. */
    readonly row: number,
    message: string,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

const BOM = "\uFEFF";

/** Parses CSV text into records of fields. A trailing line break does not add an empty record. */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  // Whether the current record has started (so "a\n" is one record but "\n" is an empty one).
  let started = false;
  // A quote opens a quoted field only at the start of a field; inside unquoted text it is literal.
  let atFieldStart = true;

  const endField = () => {
    record.push(field);
    field = "";
    atFieldStart = true;
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
    started = false;
  };

  while (i < text.length) {
    const c = text[i];
    if (c === '"' && atFieldStart) {
      // A quoted field: read to the closing quote, "" standing for one quote.
      const startRow = records.length + 1;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(startRow, "a quoted cell is never closed");
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += q;
        i += 1;
      }
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\r" && next !== "\n") {
        throw new CsvSyntaxError(
          startRow,
          "a quoted cell is followed by more text before the comma",
        );
      }
      started = true;
      atFieldStart = false;
      continue;
    }
    if (c === ",") {
      endField();
      started = true;
      i += 1;
    } else if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      started = true;
      atFieldStart = false;
      i += 1;
    }
  }
  if (started || field !== "" || record.length > 0) endRecord();
  return records;
}

/**
 * Cells a spreadsheet program would run as a formula (=, +, -, @, tab, CR) are written with a
 * leading apostrophe, which those programs show as plain text; the importer removes it again.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function protectCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function unprotectCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** One CSV record with its CRLF; fields are quoted only when they need it. */
export function csvLine(cells: readonly (string | number | null)[]): string {
  return (
    cells
      .map((cell) => {
        const text = cell === null ? "" : String(cell);
        return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
      })
      .join(",") + "\r\n"
  );
}

export const CSV_BOM = BOM;

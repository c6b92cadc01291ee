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
const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/**
 * The parser fed text a piece at a time (an upload as it arrives): push() returns the records
 * completed by each piece, end() the last one. A piece may end anywhere, inside a quoted cell,
 * between the two quotes of "" or between CR and LF; the records, the messages and the rows they
 * name are the same as for the whole text at once. A record is held only until it is complete.
 */
export class CsvParser {
  private field = "";
  private record: string[] = [];
  /** Whether the current record has started (so "a\n" is one record but "\n" is an empty one). */
  private started = false;
  /** A quote opens a quoted cell only at a cell's start; inside unquoted text it is literal. */
  private atFieldStart = true;
  private inQuotes = false;
  /** Inside quotes, the piece ended on a quote: the next character says "" or closing. */
  private pendingQuote = false;
  /** A quoted cell just closed: only a comma, a line break or the end may follow. */
  private afterQuoted = false;
  /** The piece ended on CR: an LF starting the next piece belongs to the same line break. */
  private pendingCr = false;
  private first = true;
  /** The record a quoted cell started in (what an error names), counting from 1. */
  private quoteRow = 0;
  /** Records completed so far. */
  private completed = 0;

  push(text: string): string[][] {
    const out: string[][] = [];
    const n = text.length;
    if (n === 0) return out;
    let i = 0;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.charCodeAt(i) === LF) i += 1;
    }
    while (i < n) {
      if (this.inQuotes) {
        if (this.pendingQuote) {
          this.pendingQuote = false;
          if (text.charCodeAt(i) === QUOTE) {
            this.field += '"';
            i += 1;
            continue;
          }
          this.inQuotes = false;
          this.afterQuoted = true;
          continue;
        }
        const quote = text.indexOf('"', i);
        if (quote < 0) {
          this.field += text.slice(i);
          break;
        }
        this.field += text.slice(i, quote);
        if (quote + 1 >= n) {
          this.pendingQuote = true;
          break;
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          this.field += '"';
          i = quote + 2;
          continue;
        }
        this.inQuotes = false;
        this.afterQuoted = true;
        i = quote + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (this.afterQuoted) {
        if (c !== COMMA && c !== CR && c !== LF) {
          throw new CsvSyntaxError(
            this.quoteRow,
            "a quoted cell is followed by more text before the comma",
          );
        }
        this.afterQuoted = false;
      }
      if (c === QUOTE && this.atFieldStart) {
        this.inQuotes = true;
        this.quoteRow = this.completed + 1;
        this.started = true;
        this.atFieldStart = false;
        i += 1;
      } else if (c === COMMA) {
        this.endField();
        this.started = true;
        i += 1;
      } else if (c === CR || c === LF) {
        out.push(this.endRecord());
        i += 1;
        if (c === CR) {
          if (i >= n) this.pendingCr = true;
          else if (text.charCodeAt(i) === LF) i += 1;
        }
      } else {
        // An unquoted run up to the next comma or line break, taken in one slice.
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === CR || d === LF) break;
          j += 1;
        }
        this.field += text.slice(i, j);
        this.started = true;
        this.atFieldStart = false;
        i = j;
      }
    }
    return out;
  }

  /** The last record, if the text did not end with a line break; throws for an open quote. */
  end(): string[][] {
    if (this.inQuotes && !this.pendingQuote) {
      throw new CsvSyntaxError(this.quoteRow, "a quoted cell is never closed");
    }
    this.inQuotes = false;
    this.pendingQuote = false;
    if (this.started || this.field !== "" || this.record.length > 0) return [this.endRecord()];
    return [];
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = "";
    this.atFieldStart = true;
  }

  private endRecord(): string[] {
    this.endField();
    const record = this.record;
    this.record = [];
    this.started = false;
    this.completed += 1;
    return record;
  }
}

/** Parses CSV text into records of fields. A trailing line break does not add an empty record. */
export function parseCsv(input: string): string[][] {
  const parser = new CsvParser();
  const records = parser.push(input);
  for (const record of parser.end()) records.push(record);
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

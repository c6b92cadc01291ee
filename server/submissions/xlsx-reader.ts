import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path, { posix } from "node:path";
import { openZip, readZipEntry, type ZipEntry, type ZipLimits } from "./zip-guard.js";

/**
 * Reads the first sheet of an XLSX workbook as a stream of rows (docs/decisions/
 * 019-streamed-xlsx-import.md). The zip's directory is checked first (zip-guard), then only the
 * parts a sheet needs are inflated, a piece at a time, through a small XML tokenizer (XmlScanner): the workbook and its
 * relationships (which part is the first sheet), the styles (which cells are dates), the shared
 * strings (written to a temporary file, read back as cells refer to them: SharedStrings), then the
 * sheet, whose rows are handed over as they are parsed and never held together.
 *
 * A cell's text is what exceljs's `cellText` gave before: strings as written (SpreadsheetML's
 * _xHHHH_ escapes undone, as Excel does), numbers as JavaScript prints them, date-formatted
 * numbers as YYYY-MM-DD, booleans as true/false, a formula's cached result, errors blank.
 */

export type XlsxRowHandler = (row: XlsxRow) => void | Promise<void>;

/** A row holding at least one value: its number (1 the first) and its cells by column (1 the first). */
export interface XlsxRow {
  row: number;
  /** Columns and text of the cells with a value (not blank once trimmed), in the sheet's order. */
  cells: { column: number; text: string }[];
}

/** The XML is not what a workbook holds: the caller says "cannot be read as XLSX". */
export class XlsxUnreadable extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "XlsxUnreadable";
  }
}

const REL_OFFICE_DOCUMENT = /\/officeDocument$/;
const REL_WORKSHEET = /\/worksheet$/;
const REL_SHARED_STRINGS = /\/sharedStrings$/;
const REL_STYLES = /\/styles$/;

/**
 * Hands each row of the first sheet that holds a value to `onRow`, in the sheet's order. Throws a
 * ZipRefusal (zip-guard: a limit, or a zip it cannot read) or an XlsxUnreadable; whatever `onRow` throws
 * (a limit on rows or columns) ends the reading.
 */
export async function readXlsxRows(
  bytes: Buffer,
  onRow: XlsxRowHandler,
  options: XlsxReadOptions = {},
): Promise<void> {
  const entries = openZip(bytes, options.limits);
  const part = (name: string): ZipEntry | undefined => entries.get(name);

  const rootRels = part("_rels/.rels");
  const rootTargets = rootRels ? await readRelationships(bytes, rootRels, "") : [];
  const workbookName =
    rootTargets.find((rel) => REL_OFFICE_DOCUMENT.test(rel.type))?.target ?? "xl/workbook.xml";
  const workbookPart = part(workbookName);
  if (!workbookPart) throw new XlsxUnreadable(`no workbook part ${workbookName}`);
  const workbook = await readWorkbook(bytes, workbookPart);
  const relsName = posix.join(
    posix.dirname(workbookName),
    "_rels",
    `${posix.basename(workbookName)}.rels`,
  );
  const relsPart = part(relsName);
  const rels = relsPart
    ? await readRelationships(bytes, relsPart, posix.dirname(workbookName))
    : [];

  // A workbook without a sheet has no rows (as exceljs read it).
  if (workbook.firstSheetId === null) return;
  const sheetRel = rels.find(
    (rel) => rel.id === workbook.firstSheetId && REL_WORKSHEET.test(rel.type),
  );
  const sheetPart = sheetRel ? part(sheetRel.target) : undefined;
  if (!sheetPart) throw new XlsxUnreadable("the first sheet's part is missing");

  const stylesRel = rels.find((rel) => REL_STYLES.test(rel.type));
  const stylesPart = stylesRel ? part(stylesRel.target) : undefined;
  const dateStyles = stylesPart ? await readDateStyles(bytes, stylesPart) : [];

  const stringsRel = rels.find((rel) => REL_SHARED_STRINGS.test(rel.type));
  const stringsPart = stringsRel ? part(stringsRel.target) : undefined;
  if (!stringsPart) {
    await readSheet(
      bytes,
      sheetPart,
      { strings: new SharedStrings(null), dateStyles, date1904: workbook.date1904 },
      onRow,
    );
    return;
  }
  const strings = new SharedStrings(
    path.join(options.tempDir ?? os.tmpdir(), `ets-xlsx-strings-${randomUUID()}`),
  );
  try {
    await readSharedStrings(bytes, stringsPart, strings);
    await readSheet(bytes, sheetPart, { strings, dateStyles, date1904: workbook.date1904 }, onRow);
  } finally {
    strings.close();
  }
}

export interface XlsxReadOptions {
  /** The zip's limits: zip-guard's XLSX_LIMITS unless said. */
  limits?: ZipLimits;
  /** Where the shared strings' temporary file goes: the system's temporary folder unless said. */
  tempDir?: string;
}

// ---------------------------------------------------------------------------------------------
// Parsing a part

/** The element's name without its namespace prefix (some writers use `x:row`). */
const local = (name: string) => name.slice(name.indexOf(":") + 1);

interface PartHandlers {
  /** `attributes` is the tag's text after its name: read it with attribute(). */
  open?: (name: string, attributes: string) => void;
  close?: (name: string) => void;
  /** Text (and CDATA) between tags, its entities decoded. */
  text?: (text: string) => void;
}

/**
 * Streams one part through XmlScanner. `afterPiece` runs between pieces of the part, where the
 * caller may wait (to hand rows over); the handlers themselves are synchronous.
 */
async function parsePart(
  bytes: Buffer,
  entry: ZipEntry,
  handlers: PartHandlers,
  afterPiece?: () => Promise<void>,
): Promise<void> {
  const scanner = new XmlScanner(handlers, entry.name);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (piece?: Buffer) => {
    try {
      return piece ? decoder.decode(piece, { stream: true }) : decoder.decode();
    } catch {
      throw new XlsxUnreadable(`${entry.name} is not UTF-8`);
    }
  };
  for await (const piece of readZipEntry(bytes, entry)) {
    scanner.write(decode(piece));
    if (afterPiece) await afterPiece();
  }
  scanner.write(decode());
  scanner.end();
}

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/**
 * A small XML tokenizer for the parts of a workbook: tags (with their attributes left as text,
 * read only where needed), text with XML's five entities and character references decoded,
 * CDATA; comments and processing instructions skipped. It allocates no object per element: a
 * sheet of 700,000 cells through a general SAX parser (saxes) made some 200 MB of short-lived tag
 * objects, and the server's RSS grew by 264 MB reading the registrar's workbook. A document type
 * declaration is refused (no entity of a file's own is ever expanded), as is an unknown entity or
 * markup left open at the end; nesting is not checked (the readers only look for what they need).
 */
class XmlScanner {
  private rest = "";

  constructor(
    private readonly handlers: PartHandlers,
    private readonly part: string,
  ) {}

  write(piece: string): void {
    const text = this.rest + piece;
    this.rest = "";
    const length = text.length;
    let at = 0;
    while (at < length) {
      const open = text.indexOf("<", at);
      if (open < 0) {
        // Text to the end of the piece: kept until its end is known (an entity may be cut).
        this.rest = text.slice(at);
        return;
      }
      if (open > at) this.handlers.text?.(this.decode(text.slice(at, open)));
      const next = text.charCodeAt(open + 1);
      if (next === BANG || next === 0x3f) {
        const done = this.special(text, open);
        if (done < 0) {
          this.rest = text.slice(open);
          return;
        }
        at = done;
        continue;
      }
      // The tag's end: the first ">" outside a quoted attribute value.
      let end = open + 1;
      let quote = 0;
      for (; end < length; end += 1) {
        const code = text.charCodeAt(end);
        if (quote !== 0) {
          if (code === quote) quote = 0;
        } else if (code === QUOTE || code === APOSTROPHE) quote = code;
        else if (code === GT) break;
      }
      if (end >= length) {
        this.rest = text.slice(open);
        return;
      }
      const closing = next === SLASH;
      const selfClosing = !closing && text.charCodeAt(end - 1) === SLASH;
      const nameStart = closing ? open + 2 : open + 1;
      let nameEnd = nameStart;
      while (nameEnd < end) {
        const code = text.charCodeAt(nameEnd);
        if (code <= 0x20 || code === SLASH) break;
        nameEnd += 1;
      }
      const name = local(text.slice(nameStart, nameEnd));
      if (closing) this.handlers.close?.(name);
      else {
        this.handlers.open?.(name, text.slice(nameEnd, selfClosing ? end - 1 : end));
        if (selfClosing) this.handlers.close?.(name);
      }
      at = end + 1;
    }
  }

  end(): void {
    if (this.rest.trim() !== "") {
      throw new XlsxUnreadable(`${this.part} ends inside markup or text`);
    }
  }

  /** A comment, CDATA, processing instruction or declaration at `open`: where it ends, or -1 when it is cut off. */
  private special(text: string, open: number): number {
    const ends = (marker: string, from: number) => {
      const at = text.indexOf(marker, from);
      return at < 0 ? -1 : at + marker.length;
    };
    if (text.length - open < 9) return -1;
    if (text.startsWith("<!--", open)) return ends("-->", open + 4);
    if (text.startsWith("<?", open)) return ends("?>", open + 2);
    if (text.startsWith("<![CDATA[", open)) {
      const end = ends("]]>", open + 9);
      if (end >= 0) this.handlers.text?.(text.slice(open + 9, end - 3));
      return end;
    }
    throw new XlsxUnreadable(`${this.part} has a document type declaration`);
  }

  private decode(text: string): string {
    return decodeEntities(text, this.part);
  }
}

const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML text with its entities decoded; an unknown or broken one is unreadable. */
function decodeEntities(text: string, part: string): string {
  if (!text.includes("&")) return text;
  let known = 0;
  const decoded = text.replace(ENTITY, (_, name?: string, decimal?: string, hex?: string) => {
    known += 1;
    if (name !== undefined) return NAMED[name] ?? "";
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex ?? "", 16);
    if (!(code > 0 && code <= 0x10ffff))
      throw new XlsxUnreadable(`${part}: a bad character reference`);
    return String.fromCodePoint(code);
  });
  let ampersands = 0;
  for (let at = text.indexOf("&"); at >= 0; at = text.indexOf("&", at + 1)) ampersands += 1;
  if (ampersands !== known) throw new XlsxUnreadable(`${part}: an unknown entity`);
  return decoded;
}

/**
 * One attribute's value from a tag's attribute text, entities decoded; `anyPrefix` also matches
 * it under a namespace prefix (`r:id`). Found with indexOf, not a regular expression: a match
 * object for each of a sheet's 2 million attributes was most of what reading it allocated.
 */
function attribute(attributes: string, name: string, anyPrefix = false): string | undefined {
  for (let from = 0; ; ) {
    const at = attributes.indexOf(name, from);
    if (at < 0) return undefined;
    from = at + 1;
    const before = at === 0 ? 0x20 : attributes.charCodeAt(at - 1);
    if (!(before <= 0x20 || (anyPrefix && before === 0x3a))) continue;
    let index = at + name.length;
    while (attributes.charCodeAt(index) <= 0x20) index += 1;
    if (attributes.charCodeAt(index) !== 0x3d) continue;
    index += 1;
    while (attributes.charCodeAt(index) <= 0x20) index += 1;
    const quote = attributes.charCodeAt(index);
    if (quote !== QUOTE && quote !== APOSTROPHE) continue;
    const close = attributes.indexOf(quote === QUOTE ? '"' : "'", index + 1);
    if (close < 0) return undefined;
    const value = attributes.slice(index + 1, close);
    return value.includes("&") ? decodeEntities(value, "an attribute") : value;
  }
}

interface Relationship {
  id: string;
  type: string;
  /** The part's name in the zip. */
  target: string;
}

/** A .rels part; targets resolved against `base`, the folder of the part they belong to. */
async function readRelationships(
  bytes: Buffer,
  entry: ZipEntry,
  base: string,
): Promise<Relationship[]> {
  const rels: Relationship[] = [];
  await parsePart(bytes, entry, {
    open: (name, attributes) => {
      if (name !== "Relationship" || attribute(attributes, "TargetMode") === "External") return;
      const target = attribute(attributes, "Target") ?? "";
      rels.push({
        id: attribute(attributes, "Id") ?? "",
        type: attribute(attributes, "Type") ?? "",
        target: target.startsWith("/")
          ? posix.normalize(target).slice(1)
          : posix.normalize(posix.join(base, target)),
      });
    },
  });
  return rels;
}

/** The relationship id of the workbook's first sheet, and whether dates count from 1904. */
async function readWorkbook(bytes: Buffer, entry: ZipEntry) {
  let firstSheetId: string | null = null;
  let date1904 = false;
  await parsePart(bytes, entry, {
    open: (name, attributes) => {
      if (name === "sheet" && firstSheetId === null) {
        firstSheetId = attribute(attributes, "id", true) ?? "";
      }
      if (name === "workbookPr") {
        const value = attribute(attributes, "date1904");
        date1904 = value === "1" || value === "true";
      }
    },
  });
  return { firstSheetId: firstSheetId as string | null, date1904 };
}

/** Built-in number formats that show dates and times (ECMA-376 18.8.30, with the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** A format code shows a date when, outside quoted text and [brackets], it uses y m d h s (exceljs's rule). */
function isDateFormat(code: string): boolean {
  const plain = code.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, "");
  return /[ymdhMsb]+/.test(plain);
}

/** For each cell style (the `s` of a cell), whether it shows a date. */
async function readDateStyles(bytes: Buffer, entry: ZipEntry): Promise<boolean[]> {
  const customDates = new Map<number, boolean>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await parsePart(bytes, entry, {
    open: (name, attributes) => {
      if (name === "numFmt") {
        const id = Number(attribute(attributes, "numFmtId"));
        customDates.set(id, isDateFormat(attribute(attributes, "formatCode") ?? ""));
      } else if (name === "cellXfs") {
        inCellXfs = true;
      } else if (name === "xf" && inCellXfs) {
        const id = Number(attribute(attributes, "numFmtId") ?? 0);
        styles.push(customDates.get(id) ?? BUILT_IN_DATE_FORMATS.has(id));
      }
    },
    close: (name) => {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return styles;
}

/**
 * The shared strings, kept out of the process's memory: their text is written as UTF-8 to a
 * temporary file as it is parsed, with each string's end in a Uint32Array, and a string is read
 * back when a cell refers to it. Held in memory (as a JavaScript string each, or as one buffer of
 * UTF-8) the registrar's 700,000 strings cost the server some 45 MB of resident memory on top of
 * the reading itself, enough to take a fresh server past issue 24's 150 MB (ADR 019). Reads go
 * through a few 64 KB windows of the file: a sheet refers to its strings mostly in the order they
 * were written, and its repeated values (a programme, a status) to a few early ones. The file is
 * created only for a workbook that has shared strings, and `close` removes it; the reader calls
 * it when the read ends, however it ends.
 */
export class SharedStrings {
  private static readonly WINDOW = 64 * 1024;
  private static readonly WINDOWS = 8;

  private fd: number | null = null;
  private ends = new Uint32Array(1024);
  private count = 0;
  /** Bytes written to the file, and those waiting in `pending` to be. */
  private written = 0;
  private pending = Buffer.allocUnsafe(SharedStrings.WINDOW);
  private pendingUsed = 0;
  private readonly windows: { start: number; length: number; bytes: Buffer }[] = [];
  private nextWindow = 0;

  /** `file` is the temporary file's path; null keeps no strings (a workbook without them). */
  constructor(private readonly file: string | null) {
    if (file !== null) this.fd = fs.openSync(file, "wx+", 0o600);
  }

  get size(): number {
    return this.count;
  }

  add(text: string): void {
    if (this.fd === null) throw new Error("the shared strings are closed");
    const needed = Buffer.byteLength(text, "utf8");
    if (this.pendingUsed + needed > this.pending.length) this.flush();
    if (needed > this.pending.length) {
      this.writeFully(Buffer.from(text, "utf8"));
    } else {
      this.pendingUsed += this.pending.write(text, this.pendingUsed, "utf8");
    }
    const end = this.written + this.pendingUsed;
    if (end > 0xffff_ffff) throw new XlsxUnreadable("the shared strings are too long");
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count] = end;
    this.count += 1;
  }

  /** After the last string: the file is complete and can be read. */
  finish(): void {
    this.flush();
  }

  get(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.count || this.fd === null) {
      return "";
    }
    const start = index === 0 ? 0 : (this.ends[index - 1] ?? 0);
    const end = this.ends[index] ?? 0;
    if (end === start) return "";
    for (const window of this.windows) {
      if (start >= window.start && end <= window.start + window.length) {
        return window.bytes.toString("utf8", start - window.start, end - window.start);
      }
    }
    if (end - start > SharedStrings.WINDOW) {
      const bytes = Buffer.allocUnsafe(end - start);
      this.readFully(bytes, end - start, start);
      return bytes.toString("utf8");
    }
    let window = this.windows[this.nextWindow];
    if (!window) {
      window = { start: 0, length: 0, bytes: Buffer.allocUnsafe(SharedStrings.WINDOW) };
      this.windows.push(window);
    }
    this.nextWindow = (this.nextWindow + 1) % SharedStrings.WINDOWS;
    window.start = start;
    window.length = this.readFully(
      window.bytes,
      Math.min(SharedStrings.WINDOW, this.written - start),
      start,
    );
    return window.bytes.toString("utf8", 0, end - start);
  }

  /** Closes and removes the file; the strings read as blank afterwards. */
  close(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) fs.closeSync(fd);
    if (this.file !== null) fs.rmSync(this.file, { force: true });
  }

  private flush(): void {
    if (this.pendingUsed === 0) return;
    this.writeFully(this.pending.subarray(0, this.pendingUsed));
    this.pendingUsed = 0;
  }

  private writeFully(bytes: Buffer): void {
    if (this.fd === null) throw new Error("the shared strings are closed");
    for (let done = 0; done < bytes.length; ) {
      done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
    }
    this.written += bytes.length;
  }

  private readFully(into: Buffer, length: number, position: number): number {
    if (this.fd === null) return 0;
    let done = 0;
    while (done < length) {
      const read = fs.readSync(this.fd, into, done, length - done, position + done);
      if (read === 0) break;
      done += read;
    }
    return done;
  }
}

/**
 * Rich text keeps its runs' text (`r/t`), never the phonetic guide (`rPh/t`) shown above
 * East Asian names.
 */
async function readSharedStrings(
  bytes: Buffer,
  entry: ZipEntry,
  strings: SharedStrings,
): Promise<void> {
  let inItem = false;
  let inText = false;
  let inPhonetic = false;
  let text = "";
  await parsePart(bytes, entry, {
    open: (name) => {
      if (name === "si") {
        inItem = true;
        text = "";
      } else if (name === "rPh") inPhonetic = true;
      else if (name === "t" && inItem && !inPhonetic) inText = true;
    },
    close: (name) => {
      if (name === "si") {
        strings.add(unescapeText(text));
        inItem = false;
        text = "";
      } else if (name === "rPh") inPhonetic = false;
      else if (name === "t") inText = false;
    },
    text: (piece) => {
      if (inText) text += piece;
    },
  });
  strings.finish();
}

// ---------------------------------------------------------------------------------------------
// The sheet

interface SheetContext {
  strings: SharedStrings;
  dateStyles: boolean[];
  date1904: boolean;
}

/** The column number of a reference such as "AB12" (1 for A); 0 when it has no letters. */
function columnOf(ref: string): number {
  let column = 0;
  for (let index = 0; index < ref.length; index += 1) {
    const code = ref.charCodeAt(index) | 0x20;
    if (code < 0x61 || code > 0x7a) break;
    // Past Excel's last column (XFD) the number only has to stay past every limit.
    column = Math.min(column * 26 + (code - 0x60), 1_000_000);
  }
  return column;
}

async function readSheet(
  bytes: Buffer,
  entry: ZipEntry,
  context: SheetContext,
  onRow: XlsxRowHandler,
): Promise<void> {
  const ready: XlsxRow[] = [];
  let rowNumber = 0;
  let cells: XlsxRow["cells"] = [];
  let column = 0;
  let type = "";
  let style = 0;
  /** Which text is being gathered: a cell's value (v), or an inline string's (is/t). */
  let gathering: "v" | "t" | null = null;
  let inInline = false;
  let inPhonetic = false;
  let value = "";
  let inline = "";

  await parsePart(
    bytes,
    entry,
    {
      open: (name, attributes) => {
        switch (name) {
          case "row": {
            const r = Number(attribute(attributes, "r"));
            rowNumber = Number.isInteger(r) && r > 0 ? r : rowNumber + 1;
            cells = [];
            column = 0;
            break;
          }
          case "c": {
            const ref = attribute(attributes, "r");
            column = ref === undefined ? column + 1 : columnOf(ref) || column + 1;
            type = attribute(attributes, "t") ?? "n";
            style = Number(attribute(attributes, "s") ?? 0);
            value = "";
            inline = "";
            break;
          }
          case "v":
            gathering = "v";
            break;
          case "is":
            inInline = true;
            break;
          case "rPh":
            inPhonetic = true;
            break;
          case "t":
            if (inInline && !inPhonetic) gathering = "t";
            break;
        }
      },
      close: (name) => {
        switch (name) {
          case "v":
          case "t":
            gathering = null;
            break;
          case "is":
            inInline = false;
            break;
          case "rPh":
            inPhonetic = false;
            break;
          case "c": {
            const text = cellText(type, value, inline, style, context);
            if (text.trim() !== "") cells.push({ column, text });
            break;
          }
          case "row":
            if (cells.length > 0) ready.push({ row: rowNumber, cells });
            cells = [];
            break;
        }
      },
      text: (piece) => {
        if (gathering === "v") value += piece;
        else if (gathering === "t") inline += piece;
      },
    },
    async () => {
      // Rows are handed over between pieces: the parser's handlers cannot wait.
      for (const row of ready.splice(0)) {
        const pending = onRow(row);
        if (pending) await pending;
      }
    },
  );
  for (const row of ready.splice(0)) {
    const pending = onRow(row);
    if (pending) await pending;
  }
}

function cellText(
  type: string,
  value: string,
  inline: string,
  style: number,
  context: SheetContext,
): string {
  switch (type) {
    case "s":
      return context.strings.get(Number(value));
    case "inlineStr":
      return own(unescapeText(inline));
    case "str":
      return own(unescapeText(value));
    case "b":
      return value === "" ? "" : String(value.trim() === "1" || value.trim() === "true");
    case "e":
      return "";
    case "d":
      return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : own(value);
    default: {
      if (value.trim() === "") return "";
      const number = Number(value);
      if (!Number.isFinite(number)) return own(value);
      if (context.dateStyles[style] === true) return excelDate(number, context.date1904) ?? "";
      return String(number);
    }
  }
}

/** An Excel date serial as YYYY-MM-DD (Excel's dates have no time zone; read as UTC, as exceljs did). */
function excelDate(serial: number, date1904: boolean): string | null {
  const days = date1904 ? serial + 1462 : serial;
  const time = Math.round((days - 25569) * 24 * 3600 * 1000);
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

const ESCAPED = /_x([0-9A-Fa-f]{4})_/g;

/** SpreadsheetML's _xHHHH_ escapes (for characters XML cannot hold) undone, as Excel reads them. */
function unescapeText(text: string): string {
  if (!text.includes("_x")) return text;
  return text.replace(ESCAPED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A copy of the text that holds nothing else alive: the parser's text is cut from its input
 * pieces, and a cell kept by the importer would keep its whole 64 KB piece.
 */
function own(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, "utf8").toString("utf8");
}

import { promisify } from "node:util";
import { inflateRaw } from "node:zlib";

/**
 * Looks inside an XLSX (a zip) before anything unpacks it. exceljs hands the file to jszip, which
 * inflates every part whole into memory and only then compares it with the size the zip declared;
 * so a 5 MB upload of repeated rows can unfold into gigabytes. Here the central directory (the
 * zip's table of contents, at its end) is read first: too many parts, too much in total, or a big
 * part packed far tighter than real spreadsheets are, and the file is refused. Then each part is
 * inflated once with its declared size as a hard ceiling, because a directory can lie.
 */

export interface ZipLimits {
  /** The most all parts may add up to once unpacked. */
  maxExpandedBytes: number;
  maxEntries: number;
  /** The tightest packing (unpacked / packed) accepted for a part of at least ratioFromBytes. */
  maxRatio: number;
  ratioFromBytes: number;
}

const MEGABYTE = 1024 * 1024;

export const XLSX_LIMITS: ZipLimits = {
  maxExpandedBytes: 50 * MEGABYTE,
  maxEntries: 1000,
  maxRatio: 100,
  ratioFromBytes: MEGABYTE,
};

export type ZipVerdict =
  | { ok: true }
  /** Not a zip this reader understands; the caller says "cannot be read as XLSX". */
  | { ok: false; kind: "unreadable" }
  /** Past a limit: `message` says which, for the person who sent the file. */
  | { ok: false; kind: "limit"; message: string };

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x1;

const inflate = promisify(inflateRaw);
const unreadable: ZipVerdict = { ok: false, kind: "unreadable" };
const megabytes = (bytes: number) => `${Math.round(bytes / MEGABYTE)} MB`;
const count = (n: number) => n.toLocaleString("en-US");

export async function checkZip(
  bytes: Buffer,
  limits: ZipLimits = XLSX_LIMITS,
): Promise<ZipVerdict> {
  const entries = readDirectory(bytes, limits);
  if (!Array.isArray(entries)) return entries;

  let total = 0;
  for (const entry of entries) {
    if (entry.flags & ENCRYPTED) return unreadable;
    if (entry.method !== STORED && entry.method !== DEFLATED) return unreadable;
    total += entry.uncompressedSize;
    if (total > limits.maxExpandedBytes) {
      return limit(
        `The workbook unpacks to more than ${megabytes(limits.maxExpandedBytes)}; at most ${megabytes(limits.maxExpandedBytes)} is read. Save it as CSV, or split it into smaller files.`,
      );
    }
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize >= limits.ratioFromBytes && ratio > limits.maxRatio) {
      return limit(
        `The workbook's part ${printable(entry.name)} unpacks to ${count(Math.round(ratio))} times its packed size, more than the ${limits.maxRatio} times a real spreadsheet reaches; the file was refused.`,
      );
    }
  }

  for (const entry of entries) {
    const verdict = await checkInflatedSize(bytes, entry);
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}

/** The central directory's entries, or why the file is refused before any of them is read. */
function readDirectory(bytes: Buffer, limits: ZipLimits): Entry[] | ZipVerdict {
  const end = findEndOfDirectory(bytes);
  if (end < 0) return unreadable;
  const entryCount = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  // ZIP64 records: no spreadsheet small enough to upload needs them.
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    return unreadable;
  }
  if (entryCount > limits.maxEntries) {
    return limit(
      `The workbook holds ${count(entryCount)} parts; at most ${count(limits.maxEntries)} are read.`,
    );
  }
  if (directoryOffset + directorySize > end) return unreadable;

  const entries: Entry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < entryCount; i += 1) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return unreadable;
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > end) return unreadable;
    const entry: Entry = {
      name: bytes.toString("utf8", at + 46, at + 46 + nameLength),
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    };
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    if (!applyZip64Sizes(entry, extra)) return unreadable;
    entries.push(entry);
    at = next;
  }
  return entries;
}

/** The end-of-directory record sits in the last 22 bytes, or before a comment of up to 64 KB. */
function findEndOfDirectory(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

/**
 * A size of 0xffffffff means the real one is in the ZIP64 extra field, which lists the saturated
 * sizes in a fixed order (unpacked, then packed, then the header's offset). False: unreadable.
 */
function applyZip64Sizes(entry: Entry, extra: Buffer): boolean {
  const saturated = (n: number) => n === 0xffffffff;
  if (![entry.uncompressedSize, entry.compressedSize, entry.localHeaderOffset].some(saturated)) {
    return true;
  }
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const read = () => {
        if (field + 8 > at + 4 + size || field + 8 > extra.length) return null;
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      for (const key of ["uncompressedSize", "compressedSize", "localHeaderOffset"] as const) {
        if (!saturated(entry[key])) continue;
        const value = read();
        if (value === null) return false;
        entry[key] = value;
      }
      return true;
    }
    at += 4 + size;
  }
  return false;
}

/** Inflates one part with its declared size as the ceiling: more than declared is refused. */
async function checkInflatedSize(bytes: Buffer, entry: Entry): Promise<ZipVerdict> {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) return unreadable;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const packed = bytes.subarray(start, start + entry.compressedSize);
  if (packed.length !== entry.compressedSize) return unreadable;
  if (entry.method === STORED) {
    return entry.compressedSize === entry.uncompressedSize ? { ok: true } : unreadable;
  }
  try {
    const unpacked = await inflate(packed, {
      maxOutputLength: Math.max(entry.uncompressedSize, 1),
    });
    return unpacked.length === entry.uncompressedSize ? { ok: true } : unreadable;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
      return limit(
        `The workbook's part ${printable(entry.name)} unpacks to more than the size its zip directory declares; the file was refused.`,
      );
    }
    return unreadable;
  }
}

function limit(message: string): ZipVerdict {
  return { ok: false, kind: "limit", message };
}

/** A part's name as sent, short and without control characters, for a message. */
function printable(name: string): string {
  const plain = Array.from(name)
    .map((char) => ((char.codePointAt(0) ?? 0) < 0x20 ? "?" : char))
    .join("");
  return plain.length > 80 ? `${plain.slice(0, 80)}…` : plain;
}

import { Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";

/**
 * Looks inside an XLSX (a zip) before anything is unpacked, then unpacks only the parts the reader
 * asks for, as streams. The central directory (the zip's table of contents, at its end; ZIP64's
 * when the file has one) is read first: too many parts, too much in total, or a big part packed
 * far tighter than real spreadsheets are, and the file is refused. A part is then inflated a
 * piece at a time with its declared size as a hard ceiling counted on the bytes read, because a
 * directory can lie; nothing is ever inflated whole into memory.
 */

export interface ZipLimits {
  /** The most all parts may add up to once unpacked (declared, and so read). */
  maxExpandedBytes: number;
  maxEntries: number;
  /** The tightest packing (unpacked / packed) accepted for a part of at least ratioFromBytes. */
  maxRatio: number;
  ratioFromBytes: number;
}

const MEGABYTE = 1024 * 1024;

/**
 * 200 MB: three times the 67 MB a registrar's real 50,000-row, 14-column workbook with long cells
 * unpacks to. The sheet is read as a stream, so this bounds time (about a second per 50 MB here),
 * not memory; what stays in memory is the shared strings' text (ADR 019).
 */
export const XLSX_LIMITS: ZipLimits = {
  maxExpandedBytes: 200 * MEGABYTE,
  maxEntries: 1000,
  maxRatio: 100,
  ratioFromBytes: MEGABYTE,
};

/** Why a zip is refused: "unreadable" (the caller says "cannot be read as XLSX") or a limit. */
export class ZipRefusal extends Error {
  constructor(
    readonly kind: "unreadable" | "limit",
    message: string,
  ) {
    super(message);
    this.name = "ZipRefusal";
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x1;
/** Packed bytes handed to zlib at a time, so its output waits for the reader. */
const PIECE = 64 * 1024;

const unreadable = () => new ZipRefusal("unreadable", "not a zip this reader understands");
const limit = (message: string) => new ZipRefusal("limit", message);
const megabytes = (bytes: number) => `${Math.round(bytes / MEGABYTE)} MB`;
const count = (n: number) => n.toLocaleString("en-US");

/**
 * The zip's parts by name, once the directory passes the limits; throws a ZipRefusal otherwise.
 * Nothing is inflated here.
 */
export function openZip(bytes: Buffer, limits: ZipLimits = XLSX_LIMITS): Map<string, ZipEntry> {
  const entries = readDirectory(bytes, limits);
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & ENCRYPTED) throw unreadable();
    if (entry.method !== STORED && entry.method !== DEFLATED) throw unreadable();
    total += entry.uncompressedSize;
    if (total > limits.maxExpandedBytes) {
      throw limit(
        `The workbook unpacks to more than ${megabytes(limits.maxExpandedBytes)}; at most ${megabytes(limits.maxExpandedBytes)} is read. Save it as CSV, or split it into smaller files.`,
      );
    }
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize >= limits.ratioFromBytes && ratio > limits.maxRatio) {
      throw limit(
        `The workbook's part ${printable(entry.name)} unpacks to ${count(Math.round(ratio))} times its packed size, more than the ${limits.maxRatio} times a real spreadsheet reaches; the file was refused.`,
      );
    }
  }
  return new Map(entries.map((entry) => [entry.name, entry]));
}

/**
 * One part's unpacked bytes, a piece at a time. More bytes than the directory declares is a
 * limit refusal as soon as they are read; fewer, or a broken stream, is unreadable.
 */
export async function* readZipEntry(bytes: Buffer, entry: ZipEntry): AsyncGenerator<Buffer> {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) throw unreadable();
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const packed = bytes.subarray(start, start + entry.compressedSize);
  if (packed.length !== entry.compressedSize) throw unreadable();
  if (entry.method === STORED) {
    if (entry.compressedSize !== entry.uncompressedSize) throw unreadable();
    for (let from = 0; from < packed.length; from += PIECE) {
      yield packed.subarray(from, from + PIECE);
    }
    return;
  }
  const pieces = (function* () {
    for (let from = 0; from < packed.length; from += PIECE) {
      yield packed.subarray(from, from + PIECE);
    }
  })();
  const inflater = Readable.from(pieces).pipe(createInflateRaw());
  let read = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > entry.uncompressedSize) {
        throw limit(
          `The workbook's part ${printable(entry.name)} unpacks to more than the size its zip directory declares; the file was refused.`,
        );
      }
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ZipRefusal) throw error;
    // zlib's own errors: the part's data is not a deflate stream.
    throw unreadable();
  } finally {
    inflater.destroy();
  }
  if (read !== entry.uncompressedSize) throw unreadable();
}

/** The central directory's entries, or a refusal before any of them is read. */
function readDirectory(bytes: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEndOfDirectory(bytes);
  if (end < 0) throw unreadable();
  let entryCount = bytes.readUInt16LE(end + 10);
  let directorySize = bytes.readUInt32LE(end + 12);
  let directoryOffset = bytes.readUInt32LE(end + 16);
  let directoryEnd = end;
  // Saturated fields: the real ones are in the ZIP64 end-of-directory record, which the locator
  // just before this record points at. Some writers (Java's and .NET's among them) always use it.
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_LOCATOR) throw unreadable();
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    if (record + 56 > locator || bytes.readUInt32LE(record) !== ZIP64_END_OF_DIRECTORY) {
      throw unreadable();
    }
    entryCount = Number(bytes.readBigUInt64LE(record + 32));
    directorySize = Number(bytes.readBigUInt64LE(record + 40));
    directoryOffset = Number(bytes.readBigUInt64LE(record + 48));
    directoryEnd = record;
  }
  if (entryCount > limits.maxEntries) {
    throw limit(
      `The workbook holds ${count(entryCount)} parts; at most ${count(limits.maxEntries)} are read.`,
    );
  }
  if (directoryOffset + directorySize > directoryEnd) throw unreadable();

  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < entryCount; i += 1) {
    if (at + 46 > directoryEnd || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw unreadable();
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directoryEnd) throw unreadable();
    const entry: ZipEntry = {
      name: bytes.toString("utf8", at + 46, at + 46 + nameLength),
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    };
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    if (!applyZip64Sizes(entry, extra)) throw unreadable();
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
function applyZip64Sizes(entry: ZipEntry, extra: Buffer): boolean {
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

/** A part's name as sent, short and without control characters, for a message. */
function printable(name: string): string {
  const plain = Array.from(name)
    .map((char) => ((char.codePointAt(0) ?? 0) < 0x20 ? "?" : char))
    .join("");
  return plain.length > 80 ? `${plain.slice(0, 80)}…` : plain;
}

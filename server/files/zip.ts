import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";

/**
 * A streaming zip writer (PKWARE APPNOTE 6.3): entries go out one after another, each a local
 * header, its data and a data descriptor carrying the CRC-32 and the sizes once the data has
 * passed, so nothing is buffered but the entry's current chunk. The zip is an async generator
 * behind `Readable.from`: the next chunk is made only when the reader asks for one, so the HTTP
 * reply (or the file being written) sets the pace, and a destroyed stream stops the generator,
 * which closes the entry's source and the entries' iterator.
 *
 * What the zip must remember until its end is the central directory: one record per entry, kept
 * as its encoded bytes (46 bytes plus the name and any ZIP64 field), packed into 64 KB pages;
 * with `spoolDir`, every full page is written to a temporary file there (removed when the zip
 * ends or is destroyed), so memory stays at one page however many entries the zip holds.
 *
 * ZIP64 records are written where a value passes its field: an entry's size or offset past 32
 * bits, more than 65,535 entries, a directory past 32 bits. The limits are options so a test can
 * force ZIP64 with a few bytes.
 */

export interface ZipEntry {
  /** The path inside the zip, with `/` between folders. Non-ASCII names set the UTF-8 flag. */
  name: string;
  /** Bytes in hand, or a function that opens the data when the zip reaches the entry. */
  data: Buffer | (() => Promise<Readable>);
  /** Deflate (true, the default) or store the bytes as they are. */
  compress?: boolean;
  /** Last modified; now when absent. */
  mtime?: Date;
  /**
   * The data's expected size for streamed data, deciding whether the entry needs ZIP64 sizes
   * before the data is read. Absent: ZIP64 sizes, which fit any size.
   */
  sizeHint?: number;
}

export interface ZipLimits {
  /** Largest size or offset a 32-bit field holds (0xFFFFFFFF less one, which means "see ZIP64"). */
  maxUint32: number;
  /** Most entries a 16-bit count holds. */
  maxEntries16: number;
}

export interface ZipOptions {
  /** Where the central directory's full pages are spooled; kept in memory when absent. */
  spoolDir?: string;
  /** For tests: smaller limits force the ZIP64 records. */
  limits?: Partial<ZipLimits>;
  /** For tests: the directory's page size (64 KB), smaller to spool after a few entries. */
  directoryPageSize?: number;
}

const DEFAULT_LIMITS: ZipLimits = { maxUint32: 0xfffffffe, maxEntries16: 0xfffe };

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_EXTRA = 0x0001;

const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
/** Version 2.0 (deflate, folders) or 4.5 (ZIP64) needed to extract; made by Unix. */
const VERSION_20 = 20;
const VERSION_45 = 45;
const MADE_BY_UNIX = 3 << 8;
/** A regular file, rw-r--r--, in the Unix mode's high half of the external attributes. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const PAGE_SIZE = 64 * 1024;
// Headers are allocUnsafe(...).fill(0): small ones come from Buffer's shared pool instead of an
// allocation each, which the collector frees late (the server's RSS grew with them).

/** The zip of `entries`, made as it is read. */
export function zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions = {},
): Readable {
  return Readable.from(zipChunks(entries, options), { objectMode: false });
}

async function* zipChunks(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions,
): AsyncGenerator<Buffer> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const directory = new CentralDirectory(options.spoolDir, options.directoryPageSize ?? PAGE_SIZE);
  let offset = 0;
  let count = 0;
  try {
    for await (const entry of entries) {
      const name = Buffer.from(entry.name, "utf8");
      if (name.length === 0 || name.length > 0xffff) {
        throw new Error(`zip entry name must be 1 to 65,535 bytes: ${entry.name.slice(0, 80)}`);
      }
      const compress = entry.compress !== false;
      const size = Buffer.isBuffer(entry.data) ? entry.data.length : entry.sizeHint;
      // Sizes are decided before the data: ZIP64 when the size may pass 32 bits. A deflated
      // entry can come out a little larger than it went in, hence the margin.
      const zip64Sizes = size === undefined || size + (compress ? 1024 : 0) > limits.maxUint32;
      const flags = FLAG_DATA_DESCRIPTOR | (isAscii(entry.name) ? 0 : FLAG_UTF8);
      const method = compress ? METHOD_DEFLATE : METHOD_STORE;
      const { time, date } = dosDateTime(entry.mtime ?? new Date());
      const header = localHeader(name, flags, method, time, date, zip64Sizes);
      const entryOffset = offset;
      yield header;
      offset += header.length;

      let crc = 0;
      let uncompressed = 0;
      let compressed = 0;
      if (Buffer.isBuffer(entry.data)) {
        crc = zlib.crc32(entry.data);
        uncompressed = entry.data.length;
        const body = compress ? deflateSmall(entry.data) : entry.data;
        compressed = body.length;
        if (body.length > 0) yield body;
      } else {
        const source = await entry.data();
        // chunksOf reads a failure from `source.errored`; without a listener of its own, an error
        // emitted while no read is waiting (the reader busy with the last chunk) would be thrown
        // as an uncaught exception and end the process.
        source.on("error", noteFailure);
        try {
          if (compress) {
            const counted = (async function* (): AsyncGenerator<Buffer> {
              for await (const chunk of chunksOf(source)) {
                const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
                crc = zlib.crc32(bytes, crc);
                uncompressed += bytes.length;
                yield bytes;
              }
            })();
            for await (const chunk of deflated(source, counted)) {
              compressed += chunk.length;
              yield chunk;
            }
          } else {
            // Stored: the chunks go out as they come, through no generator of their own.
            for await (const chunk of chunksOf(source)) {
              const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
              crc = zlib.crc32(bytes, crc);
              uncompressed += bytes.length;
              compressed += bytes.length;
              yield bytes;
            }
          }
        } finally {
          if (!source.destroyed) source.destroy();
        }
      }
      offset += compressed;
      if (!zip64Sizes && Math.max(compressed, uncompressed) > limits.maxUint32) {
        throw new Error(
          `zip entry ${entry.name} is larger than its announced size; it needs ZIP64 sizes`,
        );
      }
      const descriptor = dataDescriptor(crc, compressed, uncompressed, zip64Sizes);
      yield descriptor;
      offset += descriptor.length;

      await directory.add(
        centralHeader(
          name,
          flags,
          method,
          time,
          date,
          crc,
          compressed,
          uncompressed,
          entryOffset,
          limits,
        ),
      );
      count += 1;
    }

    const directoryOffset = offset;
    for await (const page of directory.pages()) {
      yield page;
      offset += page.length;
    }
    const directorySize = offset - directoryOffset;
    const zip64End =
      count > limits.maxEntries16 ||
      directorySize > limits.maxUint32 ||
      directoryOffset > limits.maxUint32;
    if (zip64End) {
      const record = zip64EndRecord(count, directorySize, directoryOffset);
      yield record;
      yield zip64Locator(offset);
      offset += record.length;
    }
    yield endOfCentralDirectory(count, directorySize, directoryOffset, zip64End);
  } finally {
    await directory.close();
  }
}

/**
 * A stream's chunks, read with `read()` and waiting on its events: lighter than the stream's own
 * async iterator, which sets up enough per stream that a zip of thousands of small files left the
 * server's heap tens of MB larger before the collector caught up.
 */
/** The source's 'error' listener: the failure itself is read from `source.errored`. */
function noteFailure(): void {
  // Nothing to do here: chunksOf throws `source.errored` at its next read.
}

async function* chunksOf(source: Readable): AsyncGenerator<Buffer | string> {
  for (;;) {
    const chunk: unknown = source.read();
    if (chunk !== null) {
      yield chunk as Buffer | string;
      continue;
    }
    if (source.readableEnded) return;
    if (source.errored) throw source.errored;
    if (source.destroyed) throw new Error("the entry's data stream was closed early");
    await new Promise<void>((resolve) => {
      const done = () => {
        source.off("readable", done);
        source.off("end", done);
        source.off("error", done);
        source.off("close", done);
        resolve();
      };
      source.on("readable", done);
      source.on("end", done);
      source.on("error", done);
      source.on("close", done);
    });
  }
}

/** The data through deflateRaw; an error on either side ends the iteration with that error. */
function deflated(source: Readable, counted: AsyncGenerator<Buffer>): AsyncIterable<Buffer> {
  const deflate = zlib.createDeflateRaw();
  pipeline(Readable.from(counted), deflate, (error) => {
    if (error) {
      deflate.destroy(error);
      if (!source.destroyed) source.destroy();
    }
  });
  return deflate;
}

/**
 * Bytes in hand deflated at once, with a window and output chunks no larger than they need:
 * zlib's defaults (a 32 KB window, memLevel 8, 16 KB output chunks) allocate some 300 KB per
 * call that lingers until the collector runs, and a zip of thousands of small metadata files
 * made the server's RSS climb by 100 MB that way (half that with these). Readers inflate any
 * window size.
 */
function deflateSmall(data: Buffer): Buffer {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(data.length + 262))));
  return zlib.deflateRawSync(data, {
    windowBits,
    memLevel: Math.min(8, Math.max(1, windowBits - 6)),
    // From Buffer's shared pool rather than an allocation of its own.
    chunkSize: 1024,
  });
}

function isAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/** MS-DOS date and time, local time, two-second steps, from 1980 (earlier dates are 1980). */
function dosDateTime(when: Date): { time: number; date: number } {
  const year = Math.min(Math.max(when.getFullYear(), 1980), 2107);
  const date = ((year - 1980) << 9) | ((when.getMonth() + 1) << 5) | when.getDate();
  const time = (when.getHours() << 11) | (when.getMinutes() << 5) | (when.getSeconds() >> 1);
  return { time, date };
}

function localHeader(
  name: Buffer,
  flags: number,
  method: number,
  time: number,
  date: number,
  zip64Sizes: boolean,
): Buffer {
  // With a data descriptor the CRC and sizes here are zero; a ZIP64 entry says so with 0xFFFFFFFF
  // and a ZIP64 field holding both sizes (zero too), which tells a streaming reader that the
  // descriptor's sizes are 8 bytes each (APPNOTE 4.3.9.2, 4.5.3).
  const extra = zip64Sizes ? 20 : 0;
  const header = Buffer.allocUnsafe(30 + name.length + extra).fill(0);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(zip64Sizes ? VERSION_45 : VERSION_20, 4);
  header.writeUInt16LE(flags, 6);
  header.writeUInt16LE(method, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(0, 14);
  header.writeUInt32LE(zip64Sizes ? 0xffffffff : 0, 18);
  header.writeUInt32LE(zip64Sizes ? 0xffffffff : 0, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra, 28);
  name.copy(header, 30);
  if (zip64Sizes) {
    const at = 30 + name.length;
    header.writeUInt16LE(ZIP64_EXTRA, at);
    header.writeUInt16LE(16, at + 2);
    // Both sizes zero: they follow the data, in the descriptor.
  }
  return header;
}

function dataDescriptor(
  crc: number,
  compressed: number,
  uncompressed: number,
  zip64: boolean,
): Buffer {
  const descriptor = Buffer.allocUnsafe(zip64 ? 24 : 16).fill(0);
  descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
  descriptor.writeUInt32LE(crc >>> 0, 4);
  if (zip64) {
    descriptor.writeBigUInt64LE(BigInt(compressed), 8);
    descriptor.writeBigUInt64LE(BigInt(uncompressed), 16);
  } else {
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(uncompressed, 12);
  }
  return descriptor;
}

function centralHeader(
  name: Buffer,
  flags: number,
  method: number,
  time: number,
  date: number,
  crc: number,
  compressed: number,
  uncompressed: number,
  offset: number,
  limits: ZipLimits,
): Buffer {
  // The ZIP64 field holds, in this order, only the values whose own field says 0xFFFFFFFF.
  const big = [uncompressed, compressed, offset].map((value) => value > limits.maxUint32);
  const wide = [uncompressed, compressed, offset].filter((_, i) => big[i]);
  const extra = wide.length > 0 ? 4 + 8 * wide.length : 0;
  const header = Buffer.allocUnsafe(46 + name.length + extra).fill(0);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  const version = extra > 0 ? VERSION_45 : VERSION_20;
  header.writeUInt16LE(MADE_BY_UNIX | version, 4);
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(flags, 8);
  header.writeUInt16LE(method, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(crc >>> 0, 16);
  header.writeUInt32LE(big[1] ? 0xffffffff : compressed, 20);
  header.writeUInt32LE(big[0] ? 0xffffffff : uncompressed, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra, 30);
  header.writeUInt16LE(0, 32); // comment length
  header.writeUInt16LE(0, 34); // disk number
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE(FILE_ATTRIBUTES, 38);
  header.writeUInt32LE(big[2] ? 0xffffffff : offset, 42);
  name.copy(header, 46);
  if (extra > 0) {
    let at = 46 + name.length;
    header.writeUInt16LE(ZIP64_EXTRA, at);
    header.writeUInt16LE(extra - 4, at + 2);
    at += 4;
    for (const value of wide) {
      header.writeBigUInt64LE(BigInt(value), at);
      at += 8;
    }
  }
  return header;
}

function zip64EndRecord(count: number, size: number, offset: number): Buffer {
  const record = Buffer.allocUnsafe(56).fill(0);
  record.writeUInt32LE(ZIP64_END, 0);
  record.writeBigUInt64LE(44n, 4); // the record's size after this field
  record.writeUInt16LE(MADE_BY_UNIX | VERSION_45, 12);
  record.writeUInt16LE(VERSION_45, 14);
  record.writeUInt32LE(0, 16); // this disk
  record.writeUInt32LE(0, 20); // the directory's disk
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  return record;
}

function zip64Locator(recordOffset: number): Buffer {
  const locator = Buffer.allocUnsafe(20).fill(0);
  locator.writeUInt32LE(ZIP64_LOCATOR, 0);
  locator.writeUInt32LE(0, 4);
  locator.writeBigUInt64LE(BigInt(recordOffset), 8);
  locator.writeUInt32LE(1, 16); // disks in all
  return locator;
}

function endOfCentralDirectory(
  count: number,
  size: number,
  offset: number,
  zip64: boolean,
): Buffer {
  const record = Buffer.allocUnsafe(22).fill(0);
  record.writeUInt32LE(END_OF_CENTRAL, 0);
  const entries = zip64 ? 0xffff : count;
  record.writeUInt16LE(entries, 8);
  record.writeUInt16LE(entries, 10);
  record.writeUInt32LE(zip64 ? 0xffffffff : size, 12);
  record.writeUInt32LE(zip64 ? 0xffffffff : offset, 16);
  return record;
}

/**
 * The central directory's records, packed into pages; full pages go to a temporary file when a
 * spool folder is given. Read back, in order, once the last entry is written.
 */
class CentralDirectory {
  private page: Buffer;
  private used = 0;
  private spool: { path: string; handle: fs.promises.FileHandle; size: number } | null = null;

  constructor(
    private readonly spoolDir: string | undefined,
    private readonly pageSize: number,
  ) {
    this.page = Buffer.allocUnsafe(pageSize);
  }

  async add(record: Buffer): Promise<void> {
    if (this.used + record.length > this.page.length) await this.flush(record.length);
    record.copy(this.page, this.used);
    this.used += record.length;
  }

  private async flush(needed: number): Promise<void> {
    if (this.spoolDir === undefined) {
      this.full.push(this.page.subarray(0, this.used));
    } else {
      if (!this.spool) {
        await fs.promises.mkdir(this.spoolDir, { recursive: true });
        const file = path.join(
          this.spoolDir,
          `zip-directory-${randomBytes(6).toString("hex")}.tmp`,
        );
        this.spool = { path: file, handle: await fs.promises.open(file, "wx+", 0o600), size: 0 };
      }
      await this.spool.handle.write(this.page, 0, this.used, this.spool.size);
      this.spool.size += this.used;
    }
    this.page = Buffer.allocUnsafe(Math.max(this.pageSize, needed));
    this.used = 0;
  }

  private readonly full: Buffer[] = [];

  async *pages(): AsyncGenerator<Buffer> {
    yield* this.full;
    if (this.spool) {
      for (let at = 0; at < this.spool.size; ) {
        // A buffer per read: the reader may still hold the last one.
        const buffer = Buffer.allocUnsafe(PAGE_SIZE);
        const { bytesRead } = await this.spool.handle.read(buffer, 0, PAGE_SIZE, at);
        if (bytesRead === 0) throw new Error("the zip's spooled directory ended early");
        yield buffer.subarray(0, bytesRead);
        at += bytesRead;
      }
    }
    if (this.used > 0) yield this.page.subarray(0, this.used);
  }

  async close(): Promise<void> {
    const spool = this.spool;
    this.spool = null;
    if (!spool) return;
    await spool.handle.close().catch(() => undefined);
    await fs.promises.rm(spool.path, { force: true });
  }
}

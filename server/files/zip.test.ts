import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import JSZip from "jszip";
import { afterEach, describe, expect, it } from "vitest";
import { zipStream, type ZipEntry, type ZipOptions } from "./zip.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ets-zip-test-"));
  folders.push(folder);
  return folder;
}

async function zipBytes(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  options?: ZipOptions,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(entries, options)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Text that repeats only at distances longer than deflate's 32 KB window, 300 KB of it. */
function largeText(): Buffer {
  const lines: string[] = [];
  let seed = 7;
  let length = 0;
  for (let i = 0; length < 300_000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const line = `line ${i} Mensah Ama ${seed.toString(36)} ${(seed * 31).toString(16)}`;
    lines.push(line);
    length += line.length + 1;
  }
  return Buffer.from(lines.join("\n"), "utf8");
}

/** A stream of `bytes` in 16 KB chunks. */
function streamOf(bytes: Buffer): () => Promise<Readable> {
  return () => {
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 16_384) chunks.push(bytes.subarray(at, at + 16_384));
    return Promise.resolve(Readable.from(chunks));
  };
}

interface CentralRecord {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
  version: number;
}

/**
 * The zip read the way APPNOTE lays it out, not through a library: the end record (and ZIP64's,
 * when its fields say so), each central record with its ZIP64 field, and, at each record's
 * offset, the local header and the data descriptor after the data, which must agree.
 */
function readZip(zip: Buffer): { records: CentralRecord[]; zip64End: boolean } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBe(zip.length - 22);
  let count = zip.readUInt16LE(end + 10);
  let directoryOffset = zip.readUInt32LE(end + 16);
  const zip64End = count === 0xffff || directoryOffset === 0xffffffff;
  if (zip64End) {
    const locator = end - 20;
    expect(zip.readUInt32LE(locator)).toBe(0x07064b50);
    const record = Number(zip.readBigUInt64LE(locator + 8));
    expect(zip.readUInt32LE(record)).toBe(0x06064b50);
    count = Number(zip.readBigUInt64LE(record + 32));
    directoryOffset = Number(zip.readBigUInt64LE(record + 48));
  }
  const records: CentralRecord[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const record: CentralRecord = {
      version: zip.readUInt16LE(at + 6),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressed: zip.readUInt32LE(at + 20),
      uncompressed: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
      name: zip.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
    };
    if (extraLength > 0) {
      let field = at + 46 + nameLength;
      expect(zip.readUInt16LE(field)).toBe(0x0001);
      field += 4;
      for (const key of ["uncompressed", "compressed", "offset"] as const) {
        if (record[key] === 0xffffffff) {
          record[key] = Number(zip.readBigUInt64LE(field));
          field += 8;
        }
      }
    }
    records.push(record);
    at += 46 + nameLength + extraLength;
  }
  for (const record of records) {
    const local = record.offset;
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.readUInt16LE(local + 6)).toBe(record.flags);
    expect(record.flags & 0x0008).toBe(0x0008);
    const nameLength = zip.readUInt16LE(local + 26);
    const extraLength = zip.readUInt16LE(local + 28);
    expect(zip.subarray(local + 30, local + 30 + nameLength).toString("utf8")).toBe(record.name);
    // A local ZIP64 field means 8-byte sizes in the descriptor.
    const wide = extraLength > 0 && zip.readUInt16LE(local + 30 + nameLength) === 0x0001;
    const descriptor = local + 30 + nameLength + extraLength + record.compressed;
    expect(zip.readUInt32LE(descriptor)).toBe(0x08074b50);
    expect(zip.readUInt32LE(descriptor + 4)).toBe(record.crc);
    const sizes = wide
      ? [Number(zip.readBigUInt64LE(descriptor + 8)), Number(zip.readBigUInt64LE(descriptor + 16))]
      : [zip.readUInt32LE(descriptor + 8), zip.readUInt32LE(descriptor + 12)];
    expect(sizes).toEqual([record.compressed, record.uncompressed]);
  }
  return { records, zip64End };
}

describe("the streaming zip writer", () => {
  it("writes buffers, streams, an empty file, a file larger than the deflate window and a UTF-8 name, read back by a zip library", async () => {
    const large = largeText();
    expect(large.length).toBeGreaterThan(256 * 1024);
    const entries: ZipEntry[] = [
      { name: "item_1/dublin_core.xml", data: Buffer.from("<dublin_core/>\n") },
      { name: "item_1/empty.txt", data: Buffer.alloc(0) },
      { name: "item_1/empty-stream.txt", data: streamOf(Buffer.alloc(0)), sizeHint: 0 },
      { name: "item_1/large.txt", data: streamOf(large), sizeHint: large.length },
      { name: "item_1/stored.pdf", data: streamOf(large), compress: false, sizeHint: large.length },
      { name: "item_2/Thèse d'Abena Nyarko — Ɔkɔmfo.pdf", data: Buffer.from("%PDF-1.7\n") },
    ];
    const zip = await zipBytes(entries);

    const { records, zip64End } = readZip(zip);
    expect(zip64End).toBe(false);
    expect(records.map((r) => r.name)).toEqual(entries.map((e) => e.name));
    const [, , , deflatedLarge, storedLarge, accented] = records;
    expect(deflatedLarge!.method).toBe(8);
    expect(deflatedLarge!.compressed).toBeLessThan(large.length);
    expect(deflatedLarge!.crc).toBe(zlib.crc32(large));
    expect(storedLarge!.method).toBe(0);
    expect(storedLarge!.compressed).toBe(large.length);
    expect(accented!.flags & 0x0800).toBe(0x0800);
    expect(records[0]!.flags & 0x0800).toBe(0);

    const read = await JSZip.loadAsync(zip, { checkCRC32: true });
    expect(Object.keys(read.files)).toEqual(entries.map((e) => e.name));
    expect(await read.file("item_1/dublin_core.xml")!.async("string")).toBe("<dublin_core/>\n");
    expect((await read.file("item_1/empty.txt")!.async("nodebuffer")).length).toBe(0);
    expect((await read.file("item_1/empty-stream.txt")!.async("nodebuffer")).length).toBe(0);
    expect((await read.file("item_1/large.txt")!.async("nodebuffer")).equals(large)).toBe(true);
    expect((await read.file("item_1/stored.pdf")!.async("nodebuffer")).equals(large)).toBe(true);
    expect(await read.file("item_2/Thèse d'Abena Nyarko — Ɔkɔmfo.pdf")!.async("string")).toBe(
      "%PDF-1.7\n",
    );
  });

  it("writes ZIP64 sizes, offsets and end records when values pass the limits, read back by a zip library", async () => {
    const large = largeText();
    const entries: ZipEntry[] = [
      { name: "a.txt", data: Buffer.from("Kwame Boateng\n".repeat(20)) },
      { name: "b.txt", data: streamOf(large), sizeHint: large.length },
      { name: "c.txt", data: streamOf(large), compress: false },
      { name: "d.txt", data: Buffer.from("Efua Asante\n") },
    ];
    // 200-byte "32-bit" fields and at most two entries in a "16-bit" count.
    const zip = await zipBytes(entries, { limits: { maxUint32: 200, maxEntries16: 2 } });

    const { records, zip64End } = readZip(zip);
    expect(zip64End).toBe(true);
    expect(records.map((r) => r.name)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(records.every((r) => r.version === 45 || r.offset <= 200)).toBe(true);
    expect(records[3]!.offset).toBeGreaterThan(large.length);

    const read = await JSZip.loadAsync(zip, { checkCRC32: true });
    expect(Object.keys(read.files)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect((await read.file("b.txt")!.async("nodebuffer")).equals(large)).toBe(true);
    expect((await read.file("c.txt")!.async("nodebuffer")).equals(large)).toBe(true);
    expect(await read.file("d.txt")!.async("string")).toBe("Efua Asante\n");
  });

  it("fails instead of writing a wrong size when a stream outgrows the size it announced", async () => {
    const large = largeText();
    const zip = zipBytes([{ name: "x.txt", data: streamOf(large), sizeHint: 10 }], {
      limits: { maxUint32: 5000 },
    });
    await expect(zip).rejects.toThrow(/larger than its announced size/);
  });

  it("spools the directory to a temporary file and removes it at the end", async () => {
    const spoolDir = tempFolder();
    const entries = Array.from({ length: 500 }, (_, i) => ({
      name: `item_${i}/contents`,
      data: Buffer.from(`thesis-${i}.pdf\tbundle:ORIGINAL\n`),
    }));
    let spooled = false;
    const chunks: Buffer[] = [];
    for await (const chunk of zipStream(entries, { spoolDir, directoryPageSize: 4096 })) {
      if (fs.readdirSync(spoolDir).length > 0) spooled = true;
      chunks.push(chunk as Buffer);
    }
    expect(spooled).toBe(true);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    const zip = Buffer.concat(chunks);
    expect(readZip(zip).records.map((r) => r.name)).toEqual(entries.map((e) => e.name));
    const read = await JSZip.loadAsync(zip);
    expect(await read.file("item_499/contents")!.async("string")).toBe(
      "thesis-499.pdf\tbundle:ORIGINAL\n",
    );
  });

  it("reads entries only as fast as the reader reads the zip", async () => {
    let pulled = 0;
    function* entries(): Generator<ZipEntry> {
      for (let i = 0; i < 2000; i++) {
        pulled += 1;
        yield { name: `f${i}.bin`, data: Buffer.alloc(8192, i % 251), compress: false };
      }
    }
    const zip = zipStream(entries());
    const first = await new Promise<Buffer>((resolve) => zip.once("data", resolve));
    zip.pause();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(first.length).toBeGreaterThan(0);
    // 2,000 entries of 8 KB: a reader that stops leaves nearly all of them unread.
    expect(pulled).toBeLessThan(50);
    zip.destroy();
    await once(zip, "close");
  });

  it("when destroyed halfway, closes the open file, ends the entries and removes its spooled directory", async () => {
    const spoolDir = tempFolder();
    let entriesClosed = false;
    let source: Readable | null = null;
    async function* entries(): AsyncGenerator<ZipEntry> {
      try {
        for (let i = 0; i < 300; i++) {
          yield { name: `item_${i}/contents`, data: Buffer.from(`contents of ${i}\n`) };
        }
        yield {
          name: "big.pdf",
          compress: false,
          sizeHint: 64 * 1024 * 1024,
          data: () => {
            // 64 MB made as it is read: the zip is destroyed long before its end.
            source = Readable.from(
              (function* () {
                for (let i = 0; i < 1024; i++) yield Buffer.alloc(65_536, i % 256);
              })(),
            );
            return Promise.resolve(source);
          },
        };
        yield { name: "never.txt", data: Buffer.from("never") };
      } finally {
        entriesClosed = true;
      }
    }
    const zip = zipStream(entries(), { spoolDir, directoryPageSize: 2048 });
    let bytes = 0;
    for await (const chunk of zip) {
      bytes += (chunk as Buffer).length;
      if (bytes > 1024 * 1024) break; // the client goes away halfway through big.pdf
    }
    // The stream closes once the writer's clean-up has run.
    if (!zip.closed) await new Promise((resolve) => zip.once("close", resolve));
    expect(zip.destroyed).toBe(true);
    expect(source).not.toBeNull();
    expect(source!.destroyed).toBe(true);
    expect(entriesClosed).toBe(true);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });

  it("ends with the source's error when a file fails midway", async () => {
    const failing = () =>
      Promise.resolve(
        Readable.from(
          (async function* () {
            yield Buffer.from("%PDF-1.7 part");
            throw new Error("the disk went away");
          })(),
        ),
      );
    await expect(zipBytes([{ name: "a.pdf", data: failing }])).rejects.toThrow(
      "the disk went away",
    );
    await expect(zipBytes([{ name: "a.pdf", data: failing, compress: false }])).rejects.toThrow(
      "the disk went away",
    );
  });
});

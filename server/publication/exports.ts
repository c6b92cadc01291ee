import { Readable } from "node:stream";
import type { PublishedRecord } from "../../common/publication.js";
import { nowIso, type Executor } from "../db/database.js";
import { AppError, conflict, notFound, validationError } from "../errors.js";
import type { FileStorage } from "../files/storage.js";
import { zipStream, type ZipEntry, type ZipOptions } from "../files/zip.js";
import { dublinCore } from "./formats/dublin-core.js";
import { dspaceDublinCore, dspaceEtdms } from "./formats/dspace.js";
import { etdms } from "./formats/etdms.js";
import type { FormatLinks } from "./formats/links.js";
import {
  MARC_COLLECTION_END,
  MARC_COLLECTION_START,
  marcXmlInCollection,
} from "./formats/marcxml.js";
import { findFinalThesisFile, openFinalThesis, readPublishedRecord } from "./repository.js";

/**
 * The library's exports (docs/decisions/026-library-exports-and-deposit.md): one thesis, or every
 * published thesis awarded in a date range, as a DSpace Simple Archive Format zip, a MARCXML
 * collection, ETD-MS or Dublin Core. Everything streams: records are read a page at a time by
 * keyset and written as they come, files are opened only when the zip reaches them, so memory
 * stays flat however many theses the range holds.
 *
 * Withdrawn theses are left out (the library should not ingest them). Embargoed ones are in,
 * files included, with the embargo's end written where DSpace reads it: the export goes to the
 * library, which enforces the embargo, not to the public (ADR 026).
 */

export const EXPORT_FORMATS = ["saf", "marcxml", "etdms", "dc"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  saf: "application/zip",
  marcxml: "application/marcxml+xml",
  etdms: "application/xml",
  dc: "application/xml",
};

const EXTENSIONS: Record<ExportFormat, string> = {
  saf: "zip",
  marcxml: "xml",
  etdms: "xml",
  dc: "xml",
};

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const PAGE_SIZE = 200;

export interface ExportDeps {
  db: Executor;
  storage: FileStorage;
  links: FormatLinks;
  /** ISO now: decides whether an embargo still runs. */
  now?: string;
}

export interface ExportDownload {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/** One published thesis in `format`; 404 unless published, 409 once withdrawn. */
export async function exportThesis(
  deps: ExportDeps,
  submissionId: number,
  format: ExportFormat,
): Promise<ExportDownload> {
  const record = await readPublishedRecord(deps.db, submissionId, deps.now ?? nowIso());
  if (!record) {
    throw notFound("This thesis is not published: there is nothing to export for the library yet.");
  }
  if (record.withdrawn) {
    throw conflict("This thesis was withdrawn: it is no longer exported for the library.");
  }
  if (format === "saf" && record.file) {
    // Checked before the first byte goes out: once the zip streams, a missing file can only cut
    // the download short.
    const file = await findFinalThesisFile(deps.db, submissionId);
    if (!file || !(await deps.storage.exists(file.sha256))) {
      throw new AppError(
        "internal",
        `The thesis file (${record.file.fileName}) is missing from the file store. Ask the technical team to restore it.`,
      );
    }
  }
  return {
    fileName: `thesis-${submissionId}-${format}.${EXTENSIONS[format]}`,
    contentType: EXPORT_CONTENT_TYPES[format],
    stream: exportStream(format, oneRecord(record), deps),
  };
}

/**
 * The most theses one Simple Archive Format zip holds. The zip writer keeps only its directory's
 * records (about 100 bytes an entry, spooled to a temporary file), not yazl's 50-90 KB a thesis:
 * the server's peak RSS grew +55 MB (SQLite) and +148 MB (PostgreSQL) at 20,000, against yazl's
 * +265/+248 MB at 5,000 (`npm run bench -- exports`, docs/benchmarks.md: the 100 MB target is met
 * on SQLite, not on PostgreSQL). 20,000 is the largest size measured. It also bounds the download: with real theses
 * (3-10 MB each) 20,000 is 60-200 GB in one HTTP reply, which restarts from nothing if the
 * connection drops, and DSpace's import unpacks the whole zip before it starts. More than a large
 * school awards in a decade; a longer range is exported by years.
 */
export const MAX_SAF_THESES = 20_000;

/** Published, not withdrawn theses awarded in the range. */
export async function countAwarded(
  db: Executor,
  range: { from: string; to: string },
): Promise<number> {
  const row = await db
    .selectFrom("publications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("published_at", "is not", null)
    .where("withdrawn_at", "is", null)
    .where("award_date", ">=", range.from)
    .where("award_date", "<=", range.to)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Every published, not withdrawn thesis awarded from `from` to `to` (inclusive, YYYY-MM-DD). A
 * zip of more than `maxSafTheses` theses is refused, naming awardTo, before anything is sent.
 */
export async function exportAwarded(
  deps: ExportDeps,
  range: { from: string; to: string },
  format: ExportFormat,
  maxSafTheses = MAX_SAF_THESES,
): Promise<ExportDownload> {
  const now = deps.now ?? nowIso();
  if (format === "saf") {
    const count = await countAwarded(deps.db, range);
    if (count > maxSafTheses) {
      throw validationError(
        "awardTo",
        `the range holds ${count.toLocaleString("en")} published theses; one Simple Archive Format zip takes at most ${maxSafTheses.toLocaleString("en")}: export a shorter range of award dates`,
      );
    }
  }
  return {
    fileName: `theses-${range.from}-to-${range.to}-${format}.${EXTENSIONS[format]}`,
    contentType: EXPORT_CONTENT_TYPES[format],
    stream: exportStream(format, awardedRecords(deps.db, range, now), deps),
  };
}

export function exportStream(
  format: ExportFormat,
  records: AsyncIterable<PublishedRecord>,
  deps: ExportDeps,
): Readable {
  switch (format) {
    case "saf":
      return safZip(records, deps);
    case "marcxml":
      return xmlDocument(MARC_COLLECTION_START, MARC_COLLECTION_END, records, (r) =>
        marcXmlInCollection(r, deps.links),
      );
    case "etdms":
      return xmlDocument("<records>", "</records>", records, (r) => etdms(r, deps.links));
    case "dc":
      return xmlDocument("<records>", "</records>", records, (r) => dublinCore(r, deps.links));
  }
}

async function* oneRecord(record: PublishedRecord): AsyncGenerator<PublishedRecord> {
  yield record;
}

/**
 * The ids of published, not withdrawn theses awarded in the range, by (award_date,
 * submission_id), a page at a time: each page starts after the last row of the one before, so
 * a page costs the same at the end of a long range as at its start.
 */
export async function* awardedIds(
  db: Executor,
  range: { from: string; to: string },
  pageSize = PAGE_SIZE,
): AsyncGenerator<number> {
  let after: { awardDate: string; id: number } | null = null;
  for (;;) {
    let query = db
      .selectFrom("publications")
      .select(["submission_id", "award_date"])
      .where("published_at", "is not", null)
      .where("withdrawn_at", "is", null)
      .where("award_date", ">=", range.from)
      .where("award_date", "<=", range.to);
    if (after) {
      const { awardDate, id } = after;
      // The tighter lower bound lets the index on (award_date, submission_id) start each page at
      // the cursor instead of at the range's first day; the OR then skips the cursor's own day.
      query = query
        .where("award_date", ">=", awardDate)
        .where((eb) =>
          eb.or([
            eb("award_date", ">", awardDate),
            eb.and([eb("award_date", "=", awardDate), eb("submission_id", ">", id)]),
          ]),
        );
    }
    const rows = await query
      .orderBy("award_date")
      .orderBy("submission_id")
      .limit(pageSize)
      .execute();
    for (const row of rows) yield Number(row.submission_id);
    const last = rows.at(-1);
    if (rows.length < pageSize || !last || last.award_date === null) return;
    after = { awardDate: last.award_date, id: Number(last.submission_id) };
  }
}

export async function* awardedRecords(
  db: Executor,
  range: { from: string; to: string },
  now: string,
): AsyncGenerator<PublishedRecord> {
  for await (const id of awardedIds(db, range)) {
    const record = await readPublishedRecord(db, id, now);
    // Withdrawn or unpublished since the page was read: left out, as the page would have.
    if (record && !record.withdrawn) yield record;
  }
}

/** A document: the opening, each record as it is read, the closing; pulled as the reader reads. */
function xmlDocument(
  open: string,
  close: string,
  records: AsyncIterable<PublishedRecord>,
  write: (record: PublishedRecord) => string,
): Readable {
  async function* text(): AsyncGenerator<string> {
    yield `${XML_DECLARATION}${open}\n`;
    for await (const record of records) yield `${write(record)}\n`;
    yield `${close}\n`;
  }
  return Readable.from(text(), { objectMode: false });
}

// ---------------------------------------------------------------------------------------------
// DSpace Simple Archive Format

/** The item's folder in the archive: one per thesis. */
export function safFolder(record: PublishedRecord): string {
  return `item_${record.submissionId}`;
}

/**
 * The thesis file's name inside the item folder: the student's name for it made safe to unpack
 * anywhere (no folders, controls or characters Windows refuses), ending in .pdf.
 */
export function safFileName(fileName: string): string {
  const base = fileName
    .normalize("NFC")
    .replace(/\.pdf$/i, "")
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/^[\s.]+/, "")
    .replace(/[\s.]+$/, "")
    .slice(0, 120)
    .trim();
  return `${base === "" ? "thesis" : base}.pdf`;
}

/**
 * The `contents` file: one line per file, its name, a tab and `bundle:NAME`. The licence goes to
 * the LICENSE bundle. DSpace's import has no option for an embargo date on a file: an embargoed
 * thesis's file is made readable by administrators only (`permissions:-r 'Administrator'`) and its
 * end date travels in dc.embargo.terms, which DSpace's embargo lifter reads (ADR 026).
 */
export function safContents(record: PublishedRecord): string {
  const lines: string[] = [];
  if (record.file) {
    const embargoed = !record.filesPublic && record.embargo.until !== null;
    lines.push(
      `${safFileName(record.file.fileName)}\tbundle:ORIGINAL` +
        (embargoed ? `\tpermissions:-r 'Administrator'` : ""),
    );
  }
  lines.push("license.txt\tbundle:LICENSE");
  return `${lines.join("\n")}\n`;
}

/**
 * The zip, one item folder per record: `dublin_core.xml`, `metadata_etdms.xml`, `license.txt`
 * (the licence the student accepted), `contents` and the thesis file. The zip writer pulls the
 * entries as the reader reads, so the next record is read only when the last one's file has gone
 * out, and a file is opened only when its entry starts: one record and one open file at a time.
 * The zip's directory is spooled to the store's staging folder (server/files/zip.ts), so memory
 * stays flat however many theses the range holds.
 */
export function safZip(
  records: AsyncIterable<PublishedRecord>,
  deps: ExportDeps,
  zipOptions: ZipOptions = { spoolDir: deps.storage.stagingDir },
): Readable {
  return zipStream(safEntries(records, deps), zipOptions);
}

async function* safEntries(
  records: AsyncIterable<PublishedRecord>,
  deps: ExportDeps,
): AsyncGenerator<ZipEntry> {
  for await (const record of records) {
    const folder = safFolder(record);
    const mtime = new Date(record.datestamp);
    // Stored, not deflated: a few KB of XML a thesis saves little, and deflating thousands of
    // small files left the server's RSS some 85 MB higher at 5,000 theses (zlib's native memory
    // per call, released late; docs/benchmarks.md).
    const text = (name: string, value: string): ZipEntry => ({
      name: `${folder}/${name}`,
      data: Buffer.from(value, "utf8"),
      compress: false,
      mtime,
    });
    yield text("dublin_core.xml", XML_DECLARATION + dspaceDublinCore(record, deps.links));
    yield text("metadata_etdms.xml", XML_DECLARATION + dspaceEtdms(record, deps.links));
    yield text("license.txt", record.licence.text);
    yield text("contents", safContents(record));
    const file = record.file;
    if (!file) continue;
    yield {
      name: `${folder}/${safFileName(file.fileName)}`,
      // PDFs hardly deflate; stored, they cost no CPU.
      compress: false,
      mtime,
      sizeHint: file.size,
      data: async () => {
        const opened = await openFinalThesis(deps.db, deps.storage, record.submissionId);
        if (!opened) throw new Error(`the thesis file of ${record.submissionId} is gone`);
        return opened.stream;
      },
    };
  }
}

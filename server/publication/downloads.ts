import { createHmac } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { publicSecret } from "./public-secrets.js";

/**
 * Downloads of a published thesis's file (docs/decisions/027-oai-pmh-and-public-pages.md): byte
 * ranges (RFC 9110 section 14) and the count shown on the public page, where the same reader
 * downloading twice within a minute counts once.
 */

/** The same reader within this long counts once. */
export const SAME_READER_WINDOW_MS = 60_000;

export type RangeAnswer =
  | { kind: "whole" }
  | { kind: "part"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * What to send for a Range header against a file of `size` bytes. One range only: several (or a
 * header we do not understand) get the whole file, which RFC 9110 allows a server to do.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: "whole" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: "whole" };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(end) || end < start) return { kind: "whole" };
  return { kind: "part", start, end };
}

/**
 * Whether an If-Range validator still names the file: only our strong ETag does (we send no
 * Last-Modified, so a date never matches and the whole file goes, as RFC 9110 13.1.5 says).
 */
export function ifRangeHolds(ifRange: string | undefined, etag: string): boolean {
  return ifRange === undefined || ifRange.trim() === etag;
}

/** The bytes [start, end] of a stream that begins at byte 0: the rest is read and let go. */
export function sliceStream(source: Readable, start: number, end: number): Readable {
  let position = 0;
  const slicer = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const chunkStart = position;
      position += chunk.length;
      if (position <= start || chunkStart > end) return callback();
      const from = Math.max(0, start - chunkStart);
      const to = Math.min(chunk.length, end - chunkStart + 1);
      callback(null, chunk.subarray(from, to));
      if (position > end) {
        // Everything wanted is out: stop reading the store.
        source.unpipe(slicer);
        source.destroy();
        slicer.end();
      }
    },
  });
  source.on("error", (error) => slicer.destroy(error));
  // The reader went away (or the part is out): the store's stream is let go with it.
  slicer.on("close", () => {
    if (!source.destroyed) source.destroy();
  });
  return source.pipe(slicer);
}

/**
 * The reader's key: an HMAC of address and user agent under a key the servers share, so the
 * stored value cannot be turned back into an address by trying them all. Never the raw values.
 */
export async function readerHash(
  db: Executor,
  address: string,
  userAgent: string,
): Promise<string> {
  const key = await publicSecret(db, "download-reader");
  return createHmac("sha256", key).update(`${address}\n${userAgent}`).digest("base64url");
}

/**
 * Counts a download unless the same reader was counted for this thesis within the last minute.
 * One transaction: the reader's row moves only when it is older than the window (or new), and the
 * count goes up only then, so two requests racing count once.
 */
export async function countDownload(
  db: Db,
  submissionId: number,
  reader: string,
  now: Date = new Date(),
): Promise<boolean> {
  const at = nowIso(now);
  const cutoff = nowIso(new Date(now.getTime() - SAME_READER_WINDOW_MS));
  return db.transaction().execute(async (trx) => {
    const seen = await trx
      .insertInto("thesis_download_readers")
      .values({ submission_id: submissionId, reader_hash: reader, counted_at: at })
      .onConflict((oc) =>
        oc
          .columns(["submission_id", "reader_hash"])
          .doUpdateSet({ counted_at: at })
          .where("thesis_download_readers.counted_at", "<=", cutoff),
      )
      .executeTakeFirst();
    if (Number(seen.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    await trx
      .insertInto("thesis_download_counts")
      .values({ submission_id: submissionId, downloads: 1, updated_at: at })
      .onConflict((oc) =>
        oc.column("submission_id").doUpdateSet((eb) => ({
          downloads: eb("thesis_download_counts.downloads", "+", 1),
          updated_at: at,
        })),
      )
      .execute();
    return true;
  });
}

export async function downloadCount(db: Executor, submissionId: number): Promise<number> {
  const row = await db
    .selectFrom("thesis_download_counts")
    .select("downloads")
    .where("submission_id", "=", submissionId)
    .executeTakeFirst();
  return row ? Number(row.downloads) : 0;
}

/** Readers' rows past the window say nothing any more: the hourly housekeeping removes them. */
export async function sweepDownloadReaders(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("thesis_download_readers")
    .where("counted_at", "<", nowIso(new Date(now.getTime() - SAME_READER_WINDOW_MS)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

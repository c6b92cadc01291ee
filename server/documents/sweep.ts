import type { Dir } from "node:fs";
import { opendir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "../files/storage.js";
import type { Executor } from "../db/database.js";
import {
  abandonedUploads,
  settlePendingUpload,
  uploadOfSameBytesUnderWay,
} from "../files/pending-uploads.js";

/**
 * Removes the stored files this installation wrote and abandoned: an upload puts its file before
 * the row that refers to it commits (so a row never points at nothing), and writes a pending-upload
 * record before the put (pending-uploads.ts), removed in that transaction. A record older than the
 * grace period is an upload whose transaction failed or whose server stopped: its file is removed
 * unless a row of ours refers to the same bytes, another upload of them is under way, or the store
 * had them before that upload (stored by someone else, or by an earlier upload that committed).
 *
 * The store is never listed: a file this installation has no record of is never touched, so two
 * installations sharing a store (a staging copy beside production, a restored backup, two test
 * servers on the default ./data/files) keep each other's uploads (issue 24). Staging files left by
 * an upload cut off halfway or a crash are removed after the grace period too (upload-*.part, the
 * names this code gives them; no upload runs for an hour).
 *
 * What remains is a narrow race the interface cannot close: an upload of the very same bytes as an
 * abandoned one that records, renews and commits between this sweep's check and its delete.
 */

export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Records read per page; bounds memory and each query. */
const BATCH_SIZE = 500;
/**
 * The staging files this code writes and removes when done, left behind only by a crash: an
 * upload's (server/documents/upload.ts), a zip's spooled directory (server/files/zip.ts) and a
 * SWORD package (server/publication/deposit-package.ts). A zip or package still in use holds its
 * file open, so removing it after the grace period cannot break a slow download on this system.
 */
const STAGING_FILE =
  /^(?:upload-[0-9a-f-]{36}\.part|zip-directory-[0-9a-f]{12}\.tmp|sword-\d+-[0-9a-f]{12}\.zip)$/;

export interface OrphanSweepReport {
  /** Stored files removed: written by an upload of ours that never committed, and unreferenced. */
  files: number;
  /** Staging files removed: older than the grace period. */
  stagingFiles: number;
}

export async function sweepOrphanFiles(
  db: Executor,
  storage: FileStorage,
  now: Date = new Date(),
  options: { graceMs?: number; batchSize?: number } = {},
): Promise<OrphanSweepReport> {
  const before = new Date(now.getTime() - (options.graceMs ?? ORPHAN_GRACE_MS));
  const batchSize = options.batchSize ?? BATCH_SIZE;
  let files = 0;
  let afterId = 0;
  for (;;) {
    const batch = await abandonedUploads(db, before, afterId, batchSize);
    if (batch.length === 0) break;
    const referenced = await referencedKeys(
      db,
      batch.map((upload) => upload.sha256),
    );
    for (const upload of batch) {
      afterId = upload.id;
      // Another upload of the same bytes is under way: it may commit a row that refers to them.
      // The record stays, and the next sweep looks again.
      if (await uploadOfSameBytesUnderWay(db, upload.sha256, upload.id, before)) continue;
      if (
        upload.storedNew &&
        !referenced.has(upload.sha256) &&
        // Asked again just before the delete: narrows the race with an upload committing now.
        !(await referencedKeys(db, [upload.sha256])).has(upload.sha256)
      ) {
        await storage.delete(upload.sha256);
        files += 1;
      }
      await settlePendingUpload(db, upload.id);
    }
  }
  const stagingFiles = await sweepStaging(storage.stagingDir, before.getTime());
  return { files, stagingFiles };
}

/**
 * The keys a row still points at: a document version's file, or an examiner's report (issue 9),
 * which lives in the same store.
 */
async function referencedKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  const unique = [...new Set(keys)];
  const documents = await db
    .selectFrom("submission_documents")
    .select("sha256")
    .distinct()
    .where("sha256", "in", unique)
    .execute();
  const reports = await db
    .selectFrom("examinations")
    .select("report_sha256")
    .distinct()
    .where("report_sha256", "in", unique)
    .execute();
  return new Set([
    ...documents.map((row) => row.sha256),
    ...reports.flatMap((row) => (row.report_sha256 === null ? [] : [row.report_sha256])),
  ]);
}

/** This code's staging files directly in the staging folder, last written before `before` (ms). */
async function sweepStaging(dir: string, before: number): Promise<number> {
  let folder: Dir;
  try {
    folder = await opendir(dir);
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  let removed = 0;
  // Read entry by entry (the iterator closes the folder), never the whole listing at once.
  for await (const entry of folder) {
    if (!entry.isFile() || !STAGING_FILE.test(entry.name)) continue;
    const file = path.join(dir, entry.name);
    try {
      if ((await stat(file)).mtimeMs >= before) continue;
      await rm(file, { force: true });
      removed += 1;
    } catch (error) {
      // Moved into the store or removed by its upload meanwhile: nothing left to sweep.
      if (!isMissing(error)) throw error;
    }
  }
  return removed;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

import type { Dir } from "node:fs";
import { opendir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { FileStorage, StoredFile } from "../files/storage.js";
import type { Executor } from "../db/database.js";

/**
 * Removes stored files that neither a document version nor an examiner's report refers to. They
 * come from uploads whose transaction failed after the file was stored (the file is put before
 * the row commits, so a row never points at nothing), and from staging files left by an upload
 * cut off halfway or a crash.
 *
 * A grace period spares anything touched recently: an upload in flight has put its file (or
 * renewed the time of an identical one) but not yet committed its row. What remains is a narrow
 * race the interface cannot close: an upload of the very same bytes as an hour-old orphan that
 * renews and commits between this sweep's check and its delete.
 */

export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Keys checked against the database per query; bounds memory and the query's parameters. */
const BATCH_SIZE = 500;

export interface OrphanSweepReport {
  /** Stored keys removed: old and unreferenced. */
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
  const before = now.getTime() - (options.graceMs ?? ORPHAN_GRACE_MS);
  const batchSize = options.batchSize ?? BATCH_SIZE;
  let files = 0;
  let batch: StoredFile[] = [];
  for await (const stored of storage.list()) {
    if (stored.modifiedAt.getTime() >= before) continue;
    batch.push(stored);
    if (batch.length >= batchSize) {
      files += await deleteUnreferenced(db, storage, batch);
      batch = [];
    }
  }
  if (batch.length > 0) files += await deleteUnreferenced(db, storage, batch);
  const stagingFiles = await sweepStaging(storage.stagingDir, before);
  return { files, stagingFiles };
}

async function deleteUnreferenced(
  db: Executor,
  storage: FileStorage,
  batch: StoredFile[],
): Promise<number> {
  const referenced = await referencedKeys(
    db,
    batch.map((f) => f.key),
  );
  let deleted = 0;
  for (const { key } of batch) {
    if (referenced.has(key)) continue;
    // Asked again just before the delete: narrows the race with an upload committing now.
    if ((await referencedKeys(db, [key])).has(key)) continue;
    await storage.delete(key);
    deleted += 1;
  }
  return deleted;
}

/**
 * The keys a row still points at: a document version's file, or an examiner's report (issue 9),
 * which lives in the same store.
 */
async function referencedKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  const documents = await db
    .selectFrom("submission_documents")
    .select("sha256")
    .distinct()
    .where("sha256", "in", keys)
    .execute();
  const reports = await db
    .selectFrom("examinations")
    .select("report_sha256")
    .distinct()
    .where("report_sha256", "in", keys)
    .execute();
  return new Set([
    ...documents.map((row) => row.sha256),
    ...reports.flatMap((row) => (row.report_sha256 === null ? [] : [row.report_sha256])),
  ]);
}

/** Regular files directly in the staging folder, last written before `before` (ms). */
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
    if (!entry.isFile()) continue;
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

import { nowIso } from "../db/database.js";
import type { Executor } from "../db/database.js";

/**
 * The uploads this installation is storing (migration 013, server/documents/README.md): a row is
 * written before the file is put into the store and removed in the transaction that records the
 * file (a document version, an examiner's report). A row still there after the grace period names
 * a file this installation wrote and abandoned, the only kind the orphan sweep removes.
 */

export interface PendingUpload {
  id: number;
  sha256: string;
  /** The store did not have the key before this upload put it: the file is ours to remove. */
  storedNew: boolean;
}

export async function recordPendingUpload(
  db: Executor,
  upload: { sha256: string; storedNew: boolean },
  now: Date = new Date(),
): Promise<number> {
  const row = await db
    .insertInto("pending_uploads")
    .values({
      sha256: upload.sha256,
      stored_new: upload.storedNew ? 1 : 0,
      created_at: nowIso(now),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Called in the transaction that records the file: from its commit on, a row refers to it. */
export async function settlePendingUpload(db: Executor, id: number): Promise<void> {
  await db.deleteFrom("pending_uploads").where("id", "=", id).execute();
}

/** A page of the uploads begun before `before`, oldest first, after the id `afterId`. */
export async function abandonedUploads(
  db: Executor,
  before: Date,
  afterId: number,
  limit: number,
): Promise<PendingUpload[]> {
  const rows = await db
    .selectFrom("pending_uploads")
    .select(["id", "sha256", "stored_new"])
    .where("created_at", "<", nowIso(before))
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, sha256: row.sha256, storedNew: row.stored_new === 1 }));
}

/** Whether another upload of the same bytes is still under way (begun at or after `since`). */
export async function uploadOfSameBytesUnderWay(
  db: Executor,
  sha256: string,
  exceptId: number,
  since: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom("pending_uploads")
    .select("id")
    .where("sha256", "=", sha256)
    .where("id", "!=", exceptId)
    .where("created_at", ">=", nowIso(since))
    .executeTakeFirst();
  return row !== undefined;
}

import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ReviewState } from "../common/documents.js";
import type { DocumentItem } from "../common/workflow.js";
import type { Db } from "../server/db/database.js";
import { nowIso } from "../server/db/database.js";
import {
  findDocumentVersion,
  insertCurrentVersion,
  type StoredDocumentVersion,
} from "../server/documents/repository.js";
import type { FileStorage } from "../server/files/storage.js";
import { insertSubmissionEvents } from "../server/submissions/repository.js";
import { validPdf } from "./pdf-fixtures.js";

/**
 * A document version as if uploaded, for tests about what happens after an upload (review, zip,
 * lists, the sweep) without going through the upload route: the bytes go into the app's file
 * store under their SHA-256, the row and its `upload.<item>` event into the database.
 */

export interface TestDocumentOptions {
  submissionId: number;
  item: DocumentItem;
  /** The student (or any user) recorded as the uploader. */
  uploadedBy: number;
  /** The PDF's bytes; by default a valid PDF made unique, so each version has its own key. */
  bytes?: Buffer;
  fileName?: string;
  pageCount?: number;
  /** The review state to leave the version in (the row only; the checklist is not touched). */
  reviewState?: ReviewState;
  returnReason?: string | null;
  uploadedAt?: string;
}

export interface TestDocument {
  version: StoredDocumentVersion;
  bytes: Buffer;
}

/** A valid PDF with a comment after its end, so its hash differs from every other call's. */
export function uniquePdf(): Buffer {
  return Buffer.concat([validPdf(), Buffer.from(`%${randomBytes(8).toString("hex")}\n`)]);
}

export async function addDocumentVersion(
  target: { db: Db; storage: FileStorage },
  options: TestDocumentOptions,
): Promise<TestDocument> {
  const { submissionId, item, uploadedBy } = options;
  const bytes = options.bytes ?? uniquePdf();
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const staged = path.join(target.storage.stagingDir, `test-${randomBytes(8).toString("hex")}`);
  fs.writeFileSync(staged, bytes);
  try {
    await target.storage.put(sha256, staged);
  } finally {
    fs.rmSync(staged, { force: true });
  }

  const at = options.uploadedAt ?? nowIso();
  const fileName = options.fileName ?? `${item}.pdf`;
  const id = await target.db.transaction().execute(async (trx) => {
    const versionId = await insertCurrentVersion(trx, {
      submissionId,
      item,
      fileName,
      sizeBytes: bytes.length,
      sha256,
      pageCount: options.pageCount ?? 1,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
      uploadedBy,
      uploadedAt: at,
    });
    await insertSubmissionEvents(trx, [
      {
        submissionId,
        actorUserId: uploadedBy,
        at,
        field: `upload.${item}`,
        from: null,
        to: fileName,
        kind: "upload",
        confirmedOutOfOrder: false,
      },
    ]);
    const state = options.reviewState ?? "pending";
    if (state !== "pending") {
      await trx
        .updateTable("submission_documents")
        .set({
          review_state: state,
          reviewed_at: state === "superseded" ? null : at,
          return_reason: state === "returned" ? (options.returnReason ?? "Not readable.") : null,
        })
        .where("id", "=", versionId)
        .execute();
    }
    return versionId;
  });
  const version = await findDocumentVersion(target.db, id);
  if (!version) throw new Error(`the test document ${id} was not stored`);
  return { version, bytes };
}

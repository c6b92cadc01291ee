import type { ReturnDocumentInput } from "../../common/documents.js";
import { DOCUMENT_LABELS } from "../../common/workflow.js";
import type { SessionUser } from "../auth/session.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { conflict, notFound } from "../errors.js";
import { notifyDocumentDecision } from "../messages/service.js";
import { diffFields, eventsFor, fieldsOf } from "../submissions/changes.js";
import {
  findSubmissionById,
  insertSubmissionEvents,
  lockSubmission,
  updateSubmissionFields,
} from "../submissions/repository.js";
import { findDocumentVersion, type StoredDocumentVersion } from "./repository.js";

/**
 * The school's decisions on uploaded documents. Each decision is one transaction: the version's
 * review state, the checklist item it sets or clears (through the same change machinery as an
 * edit: version bump and a `documents.<item>` event), a `review.<item>` event for the timeline,
 * and the student's notice with its mail in the outbox. A failure anywhere leaves all as it was.
 */

export interface ReviewContext {
  db: Db;
  config: Pick<Config, "publicUrl">;
}

const NO_VERSION = "There is no uploaded document with this id.";

/**
 * Accepts the current version of an item while it waits for review: the checklist item becomes
 * received today (UTC).
 */
export async function acceptDocument(
  ctx: ReviewContext,
  admin: SessionUser,
  versionId: number,
  now: Date = new Date(),
): Promise<StoredDocumentVersion> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    const version = await lockedVersion(trx, versionId);
    const label = DOCUMENT_LABELS[version.item];
    if (!version.isCurrent) {
      throw conflict(`A newer version of the ${label} was uploaded; review that one.`);
    }
    if (version.reviewState === "accepted") throw conflict("This version was already accepted.");
    if (version.reviewState !== "pending") {
      throw conflict(
        `This version of the ${label} was returned to the student; review the new version they upload.`,
      );
    }

    await recordAcceptance(trx, ctx.config, version, admin.id, at);
    return reread(trx, version.id);
  });
}

/**
 * Returns the current version of an item to the student with a reason, while it waits for review
 * or after it was accepted (the way to undo an acceptance). Returning an accepted version clears
 * the checklist item: the acceptance is what set it, as uploads are refused while an item is
 * received.
 */
export async function returnDocument(
  ctx: ReviewContext,
  admin: SessionUser,
  versionId: number,
  input: ReturnDocumentInput,
  now: Date = new Date(),
): Promise<StoredDocumentVersion> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    const version = await lockedVersion(trx, versionId);
    const label = DOCUMENT_LABELS[version.item];
    if (!version.isCurrent) {
      throw conflict(`A newer version of the ${label} was uploaded; review that one.`);
    }
    if (version.reviewState === "returned") throw conflict("This version was already returned.");

    await recordReturn(trx, ctx.config, version, input.reason, admin.id, at);
    return reread(trx, version.id);
  });
}

/**
 * The writes of an acceptance, inside the caller's transaction, once the caller has checked that
 * the version is current and waiting: review state, the checklist item received that day, the
 * `review.<item>` event and the student's notice. The sample data's journeys use it too
 * (server/sample-journeys.ts), with no administrator (`actorId` null).
 */
export async function recordAcceptance(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  version: StoredDocumentVersion,
  actorId: number | null,
  at: string,
): Promise<void> {
  const receivedOn = at.slice(0, 10);
  await setReviewState(trx, version.id, {
    state: "accepted",
    reviewedBy: actorId,
    reviewedAt: at,
    returnReason: null,
  });
  const submission = await setChecklistItem(
    trx,
    version,
    { submitted: true, receivedOn },
    actorId,
    at,
  );
  await insertSubmissionEvents(trx, [
    {
      submissionId: version.submissionId,
      actorUserId: actorId,
      at,
      field: `review.${version.item}`,
      from: version.reviewState,
      to: version.fileName,
      kind: "accept",
      confirmedOutOfOrder: false,
    },
  ]);
  await notifyDocumentDecision(
    trx,
    config,
    submission,
    { kind: "accept", item: version.item, fileName: version.fileName, receivedOn },
    actorId,
    at,
  );
}

/**
 * The writes of a return with its reason, inside the caller's transaction (checked as for
 * recordAcceptance); returning an accepted version clears its checklist item.
 */
export async function recordReturn(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  version: StoredDocumentVersion,
  reason: string,
  actorId: number | null,
  at: string,
): Promise<void> {
  await setReviewState(trx, version.id, {
    state: "returned",
    reviewedBy: actorId,
    reviewedAt: at,
    returnReason: reason,
  });
  const submission =
    version.reviewState === "accepted"
      ? await setChecklistItem(trx, version, { submitted: false, receivedOn: null }, actorId, at)
      : await submissionOf(trx, version);
  await insertSubmissionEvents(trx, [
    {
      submissionId: version.submissionId,
      actorUserId: actorId,
      at,
      field: `review.${version.item}`,
      from: version.reviewState,
      to: reason,
      kind: "return",
      confirmedOutOfOrder: false,
    },
  ]);
  await notifyDocumentDecision(
    trx,
    config,
    submission,
    { kind: "return", item: version.item, fileName: version.fileName, reason },
    actorId,
    at,
  );
}

/**
 * The version, read after taking its submission's lock, so a concurrent upload of the same item
 * (which makes this version no longer current) or another decision is seen, never overwritten.
 */
async function lockedVersion(trx: Executor, versionId: number): Promise<StoredDocumentVersion> {
  const found = await findDocumentVersion(trx, versionId);
  if (!found) throw notFound(NO_VERSION);
  await lockSubmission(trx, found.submissionId);
  const version = await findDocumentVersion(trx, versionId);
  if (!version) throw notFound(NO_VERSION);
  return version;
}

async function reread(trx: Executor, versionId: number): Promise<StoredDocumentVersion> {
  const version = await findDocumentVersion(trx, versionId);
  if (!version) throw notFound(NO_VERSION);
  return version;
}

async function submissionOf(trx: Executor, version: StoredDocumentVersion) {
  const submission = await findSubmissionById(trx, version.submissionId);
  if (!submission) throw notFound("The submission of this document was removed.");
  return submission;
}

/** Writes the item's checklist state as an edit would: version bump and a `documents.<item>` event. */
async function setChecklistItem(
  trx: Executor,
  version: StoredDocumentVersion,
  state: { submitted: boolean; receivedOn: string | null },
  actorId: number | null,
  at: string,
) {
  const submission = await submissionOf(trx, version);
  const before = fieldsOf(submission);
  const after = { ...before, documents: { ...before.documents, [version.item]: state } };
  const changes = diffFields(before, after);
  if (changes.length === 0) return submission;
  const saved = await updateSubmissionFields(trx, submission.id, after, at, null);
  if (!saved) throw notFound("The submission of this document was removed.");
  await insertSubmissionEvents(trx, eventsFor(saved.id, changes, "review", actorId, at, false));
  return saved;
}

async function setReviewState(
  trx: Executor,
  versionId: number,
  review: {
    state: "accepted" | "returned";
    reviewedBy: number | null;
    reviewedAt: string;
    returnReason: string | null;
  },
): Promise<void> {
  await trx
    .updateTable("submission_documents")
    .set({
      review_state: review.state,
      reviewed_by: review.reviewedBy,
      reviewed_at: review.reviewedAt,
      return_reason: review.returnReason,
    })
    .where("id", "=", versionId)
    .execute();
}

import type { Readable } from "node:stream";
import type { ThesisDetails, ThesisDetailsInput } from "../../common/documents.js";
import type { DocumentItem } from "../../common/workflow.js";
import type { IncomingFile, UploadLog } from "../files/upload.js";
import { recordAudit } from "../accounts/audit.js";
import type { SessionUser } from "../auth/session.js";
import { canReadDocument, canReadSubmission, canUploadDocument } from "../auth/policy.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { conflict, forbidden, notFound, validationError } from "../errors.js";
import type { VirusScanner } from "../files/clamd.js";
import { FileMissingError, type FileStorage } from "../files/storage.js";
import { readCorrections } from "../examiners/outcome.js";
import { mailCorrectionsReady } from "../examiners/service.js";
import { recordExaminationEvent } from "../examiners/transitions.js";
import {
  findSubmissionById,
  insertSubmissionEvents,
  lockSubmission,
} from "../submissions/repository.js";
import { maxBytesFor, slotState } from "./presenter.js";
import {
  findDocumentChecklist,
  findDocumentChecklistById,
  findDocumentVersion,
  insertCurrentVersion,
  listDocumentVersions,
  updateThesisDetails,
  type DocumentChecklist,
  type StoredDocumentVersion,
} from "./repository.js";
import { displayFileName, receiveDocument, refusals } from "../files/upload.js";
import { settlePendingUpload } from "../files/pending-uploads.js";

/** What the document services need from the app. */
export interface DocumentContext {
  db: Db;
  /** Upload limits; the examiners' settings for the corrected thesis's fresh link. */
  config: Pick<
    Config,
    "maxThesisBytes" | "maxFormBytes" | "publicUrl" | "contactEmail" | "examiners"
  >;
  storage: FileStorage;
  scanner: VirusScanner | null;
}

const NO_SUBMISSION =
  "No submission is on file for your index number yet. If you have handed in your thesis, please contact the School of Graduate Studies.";

/** The same answer for a version that does not exist and one the user may not read. */
const NO_DOCUMENT = "There is no such document.";

async function readableSubmission(
  db: Db,
  user: SessionUser,
  indexNumber: string,
): Promise<DocumentChecklist> {
  // Checked before the lookup, so a student learns nothing about other index numbers.
  if (!canReadSubmission(user, indexNumber)) throw forbidden();
  const submission = await findDocumentChecklist(db, indexNumber);
  if (!submission) throw notFound(NO_SUBMISSION);
  return submission;
}

/**
 * Whether the student may upload the thesis again although the school accepted it: after a
 * "Minor corrections" or "Major corrections" outcome, until the corrections are approved
 * (docs/decisions/009-examiners.md).
 */
async function correctionsOpen(db: Executor, submissionId: number): Promise<boolean> {
  const { state } = await readCorrections(db, submissionId);
  return state === "to_upload" || state === "to_confirm";
}

/** A submission's checklist, thesis details and every uploaded version. */
export async function getSubmissionDocuments(
  ctx: Pick<DocumentContext, "db">,
  user: SessionUser,
  indexNumber: string,
): Promise<{
  submission: DocumentChecklist & { correctionsOpen: boolean };
  versions: StoredDocumentVersion[];
}> {
  const submission = await readableSubmission(ctx.db, user, indexNumber);
  const [versions, open] = await Promise.all([
    listDocumentVersions(ctx.db, submission.submissionId),
    correctionsOpen(ctx.db, submission.submissionId),
  ]);
  return { submission: { ...submission, correctionsOpen: open }, versions };
}

/** Saves the thesis title and abstract; a changed title lands in the record's history. */
export async function saveThesisDetails(
  ctx: Pick<DocumentContext, "db">,
  user: SessionUser,
  indexNumber: string,
  input: ThesisDetailsInput,
): Promise<ThesisDetails> {
  const found = await readableSubmission(ctx.db, user, indexNumber);
  const at = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    await lockSubmission(trx, found.submissionId);
    const submission = await findDocumentChecklistById(trx, found.submissionId);
    if (!submission) throw notFound(NO_SUBMISSION);
    // What the school accepted is what examiners read: after that, only the school changes it.
    if (user.role !== "admin" && submission.checklist.thesis.submitted) {
      throw conflict(
        "The school has accepted your thesis, so its title and abstract can no longer be changed here. If they must change, contact the School of Graduate Studies.",
      );
    }
    await updateThesisDetails(trx, submission.submissionId, input);
    if (submission.thesisTitle !== input.title) {
      await insertSubmissionEvents(trx, [
        {
          submissionId: submission.submissionId,
          actorUserId: user.id,
          at,
          field: "thesisTitle",
          from: submission.thesisTitle,
          to: input.title,
          kind: "edit",
          confirmedOutOfOrder: false,
        },
      ]);
    }
    return { title: input.title, abstract: input.abstract };
  });
}

export interface UploadRequest {
  indexNumber: string;
  item: DocumentItem;
  /** Opens the request's file part; called only once the upload is allowed. */
  openFile(maxBytes: number): Promise<IncomingFile>;
  ip: string;
  /** Where an operator's problem (the file store failing) is logged. */
  log?: UploadLog;
}

/** Why an upload cannot go ahead whatever the file holds; checked before and inside the write. */
function refuseBeforeReading(
  submission: DocumentChecklist,
  current: StoredDocumentVersion | null,
  item: DocumentItem,
  fileName: string,
  /** The thesis is open again for its corrected version (correctionsOpen). */
  correcting: boolean,
): void {
  if (slotState(submission.checklist[item], current) === "accepted" && !correcting) {
    throw refusals.alreadyAccepted(fileName, item);
  }
  if (item === "thesis") {
    const missing = (
      [
        ["title", submission.thesisTitle],
        ["abstract", submission.thesisAbstract],
      ] as const
    )
      .filter(([, value]) => value === null || value.trim() === "")
      .map(([field]) => field);
    if (missing.length > 0) throw refusals.detailsMissing(fileName, missing);
  }
}

const currentOf = (versions: StoredDocumentVersion[], item: DocumentItem) =>
  versions.find((v) => v.item === item && v.isCurrent) ?? null;

/**
 * A student's upload of one checklist item: the file is received, checked and stored first
 * (files/upload.ts), then the version and its history event are written in one transaction. A failure
 * before the transaction commits leaves at most a stored file without a row, which nothing serves
 * and the orphan sweep removes (its pending-upload record stays behind to say so).
 */
export async function uploadDocument(
  ctx: DocumentContext,
  user: SessionUser,
  upload: UploadRequest,
): Promise<StoredDocumentVersion> {
  const { indexNumber, item } = upload;
  if (user.role === "admin") {
    throw forbidden(
      "Students upload their own documents. To record a paper copy, mark the item as received on the submission.",
    );
  }
  if (!canUploadDocument(user, indexNumber)) throw forbidden();
  const submission = await findDocumentChecklist(ctx.db, indexNumber);
  if (!submission) throw notFound(NO_SUBMISSION);

  const maxBytes = maxBytesFor(item, ctx.config);
  const file = await upload.openFile(maxBytes);
  const fileName = displayFileName(file.clientName);
  const versions = await listDocumentVersions(ctx.db, submission.submissionId);
  const correcting = item === "thesis" && (await correctionsOpen(ctx.db, submission.submissionId));
  refuseBeforeReading(submission, currentOf(versions, item), item, fileName, correcting);

  const received = await receiveDocument({
    db: ctx.db,
    source: file.stream,
    fileName,
    item,
    maxBytes,
    storage: ctx.storage,
    scanner: ctx.scanner,
    ...(upload.log ? { log: upload.log } : {}),
    onInfected: (signature, sha256) =>
      recordAudit(ctx.db, {
        event: "upload.infected",
        actorUserId: user.id,
        subject: user.email,
        ip: upload.ip,
        details: { indexNumber, item, fileName, signature, sha256 },
      }),
  });

  const at = nowIso();
  const id = await ctx.db.transaction().execute(async (trx) => {
    await lockSubmission(trx, submission.submissionId);
    // The school may have decided while the file streamed in.
    const now = await findDocumentChecklistById(trx, submission.submissionId);
    if (!now) throw notFound(NO_SUBMISSION);
    // The corrections may have been approved while the file streamed in.
    const correctingNow = item === "thesis" && (await correctionsOpen(trx, now.submissionId));
    refuseBeforeReading(
      now,
      currentOf(await listDocumentVersions(trx, now.submissionId), item),
      item,
      fileName,
      correctingNow,
    );
    const versionId = await insertCurrentVersion(trx, {
      submissionId: now.submissionId,
      item,
      fileName,
      sizeBytes: received.sizeBytes,
      sha256: received.sha256,
      pageCount: received.pageCount,
      hasJavaScript: received.hasJavaScript,
      hasEmbeddedFiles: received.hasEmbeddedFiles,
      uploadedBy: user.id,
      uploadedAt: at,
    });
    await insertSubmissionEvents(trx, [
      {
        submissionId: now.submissionId,
        actorUserId: user.id,
        at,
        field: `upload.${item}`,
        from: null,
        to: fileName,
        kind: "upload",
        confirmedOutOfOrder: false,
      },
    ]);
    if (correctingNow) await correctedThesisUploaded(trx, ctx.config, now.submissionId, at);
    // The version refers to the file from this commit on: no longer an upload under way.
    await settlePendingUpload(trx, received.pendingUploadId);
    return versionId;
  });
  const saved = await findDocumentVersion(ctx.db, id);
  if (!saved) throw notFound(NO_DOCUMENT);
  return saved;
}

/**
 * The corrected thesis is in: the internal examiner gets a fresh link by mail to confirm the
 * corrections (examiners/service.ts says why a fresh one), with an event in the record's history.
 */
async function correctedThesisUploaded(
  trx: Executor,
  config: DocumentContext["config"],
  submissionId: number,
  at: string,
): Promise<void> {
  const submission = await findSubmissionById(trx, submissionId);
  if (!submission) throw notFound(NO_SUBMISSION);
  const token = await mailCorrectionsReady(trx, config, submission, new Date(at));
  if (token === null) return;
  await recordExaminationEvent(trx, {
    submissionId,
    actor: null,
    at,
    field: "examination.internal",
    from: null,
    to: "corrected thesis sent",
    kind: "corrections",
  });
}

/** The bytes of one version, for its student or an administrator. */
export async function openDocumentFile(
  ctx: Pick<DocumentContext, "db" | "storage">,
  user: SessionUser,
  id: number,
  log: { error(details: object, message: string): void },
): Promise<{ version: StoredDocumentVersion; stream: Readable; size: number }> {
  const version = await findDocumentVersion(ctx.db, id);
  // Another student's id gets the answer a missing id gets, so ids reveal nothing.
  if (!version || !canReadDocument(user, version)) throw notFound(NO_DOCUMENT);
  try {
    const { stream, size } = await ctx.storage.read(version.sha256);
    return { version, stream, size };
  } catch (error) {
    if (error instanceof FileMissingError) {
      log.error(
        { documentId: version.id, sha256: version.sha256, storage: ctx.storage.kind },
        "a document's stored file is missing",
      );
      throw notFound("The file is missing from the store; ask the school.");
    }
    throw error;
  }
}

export const noFileAttached = () =>
  validationError("file", "Attach the PDF as a form upload named file.");

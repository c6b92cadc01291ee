import {
  documentLabel,
  type DocumentSlot,
  type DocumentVersion,
  type SlotState,
  type SubmissionDocumentsResponse,
} from "../../common/documents.js";
import { DOCUMENTS, type DocumentItem } from "../../common/workflow.js";
import type { ChecklistEntry, DocumentChecklist, StoredDocumentVersion } from "./repository.js";

/** The one place that shapes documents for the API. */

/** Where a version's PDF is read (GET; inline, or an attachment with ?download=1). */
export function documentFileHref(id: number): string {
  return `/api/documents/${id}/file`;
}

export function presentDocumentVersion(v: StoredDocumentVersion): DocumentVersion {
  return {
    id: v.id,
    item: v.item,
    version: v.version,
    fileName: v.fileName,
    sizeBytes: v.sizeBytes,
    pageCount: v.pageCount,
    hasJavaScript: v.hasJavaScript,
    hasEmbeddedFiles: v.hasEmbeddedFiles,
    uploadedAt: v.uploadedAt,
    reviewState: v.reviewState,
    reviewedAt: v.reviewedAt,
    returnReason: v.returnReason,
    href: documentFileHref(v.id),
  };
}

/** The largest file accepted for an item, in bytes: the thesis has its own limit. */
export interface UploadLimits {
  maxThesisBytes: number;
  maxFormBytes: number;
}

export function maxBytesFor(item: DocumentItem, limits: UploadLimits): number {
  return item === "thesis" ? limits.maxThesisBytes : limits.maxFormBytes;
}

/**
 * A checklist item's state: accepted while the record says it is received (an accepted upload or
 * a paper copy); otherwise what the school did with the current version; otherwise to upload.
 * A current version that was accepted while the record no longer says received (an
 * administrator cleared the item) needs a new upload.
 */
export function slotState(entry: ChecklistEntry, current: StoredDocumentVersion | null): SlotState {
  if (entry.submitted) return "accepted";
  switch (current?.reviewState) {
    case "pending":
      return "with_school";
    case "returned":
      return "returned";
    case "accepted":
    case "superseded":
    case undefined:
      return "to_upload";
  }
}

/**
 * One slot per checklist item, in checklist order; `versions` may hold every item's versions.
 * `correctionsOpen`: the examination's outcome asks for corrections not yet approved, so the
 * accepted thesis takes its corrected version (the slot stays accepted: the school has it).
 */
export function presentDocumentSlots(
  checklist: Record<DocumentItem, ChecklistEntry>,
  versions: StoredDocumentVersion[],
  limits: UploadLimits,
  options: { correctionsOpen?: boolean } = {},
): DocumentSlot[] {
  return DOCUMENTS.map((item) => {
    const entry = checklist[item];
    const ofItem = versions
      .filter((v) => v.item === item)
      .sort((a, b) => b.version - a.version || b.id - a.id);
    const current = ofItem.find((v) => v.isCurrent) ?? null;
    const state = slotState(entry, current);
    return {
      item,
      label: documentLabel(item),
      state,
      receivedOn: entry.submitted ? entry.receivedOn : null,
      paperCopy: entry.submitted && !ofItem.some((v) => v.reviewState === "accepted"),
      ...(entry.clearedBy ? { clearedBy: { ...entry.clearedBy } } : {}),
      canUpload: state !== "accepted" || (item === "thesis" && options.correctionsOpen === true),
      maxBytes: maxBytesFor(item, limits),
      current: current ? presentDocumentVersion(current) : null,
      earlier: ofItem.filter((v) => v !== current).map(presentDocumentVersion),
    };
  });
}

export function presentSubmissionDocuments(
  submission: DocumentChecklist & { correctionsOpen?: boolean },
  versions: StoredDocumentVersion[],
  limits: UploadLimits,
): SubmissionDocumentsResponse["data"] {
  return {
    submissionId: submission.submissionId,
    indexNumber: submission.indexNumber,
    thesis: { title: submission.thesisTitle, abstract: submission.thesisAbstract },
    items: presentDocumentSlots(submission.checklist, versions, limits, {
      correctionsOpen: submission.correctionsOpen === true,
    }),
  };
}

import { z } from "zod";
import { DOCUMENTS, DOCUMENT_LABELS, type DocumentItem } from "./workflow.js";

/**
 * Electronic documents: the student uploads each checklist item as a PDF, the school reviews each
 * version (docs/api.md, "Documents"). Server routes and web fetchers and forms share these
 * schemas, so every field is named and checked once.
 */

// ---------------------------------------------------------------------------------------------
// Review states

/**
 * A version's review state. "pending": with the school, not yet decided; "accepted": the
 * checklist item is received on the review date; "returned": sent back with a reason, the student
 * uploads a new version; "superseded": replaced by a newer upload before anyone reviewed it.
 */
export const REVIEW_STATES = ["pending", "accepted", "returned", "superseded"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  pending: "With the school",
  accepted: "Accepted",
  returned: "Returned",
  superseded: "Replaced before review",
};

/**
 * One checklist item as the student and the administrator see it, derived from its versions and
 * the record's checklist flags:
 * - "to_upload": nothing uploaded and no paper copy recorded;
 * - "with_school": the current version waits for review;
 * - "accepted": received (an accepted upload, or a paper copy recorded by an administrator);
 * - "returned": the current version was returned; the student uploads a new one.
 */
export const SLOT_STATES = ["to_upload", "with_school", "accepted", "returned"] as const;
export type SlotState = (typeof SLOT_STATES)[number];

export const SLOT_STATE_LABELS: Record<SlotState, string> = {
  to_upload: "To upload",
  with_school: "With the school",
  accepted: "Accepted",
  returned: "Returned",
};

/** The list filter over documents: an item missing, a version waiting for review, one returned. */
export const DOCUMENT_FILTERS = ["missing", "waiting", "returned"] as const;
export type DocumentFilter = (typeof DOCUMENT_FILTERS)[number];

export const DOCUMENT_FILTER_LABELS: Record<DocumentFilter, string> = {
  missing: "Documents missing",
  waiting: "Waiting for review",
  returned: "Returned to the student",
};

// ---------------------------------------------------------------------------------------------
// Limits

/** The thesis is large; the forms are a few pages. Megabytes are 1024 * 1024 bytes. */
export const DEFAULT_MAX_THESIS_MB = 100;
export const DEFAULT_MAX_FORM_MB = 10;
export const MAX_FILE_NAME_LENGTH = 200;
export const MAX_TITLE_LENGTH = 500;
export const MAX_ABSTRACT_LENGTH = 5000;
export const MAX_RETURN_REASON_LENGTH = 2000;

export function documentLabel(item: DocumentItem): string {
  return DOCUMENT_LABELS[item];
}

// ---------------------------------------------------------------------------------------------
// Responses

export const documentVersionSchema = z.object({
  id: z.number().int(),
  item: z.enum(DOCUMENTS),
  /** 1 for the first upload of this item, then 2, 3, ... */
  version: z.number().int(),
  /** The name the student's file had; for display only, never a path. */
  fileName: z.string(),
  sizeBytes: z.number().int(),
  pageCount: z.number().int(),
  /** The PDF carries JavaScript: accepted, but flagged to the reviewer. */
  hasJavaScript: z.boolean(),
  /** The PDF carries embedded files (attachments): accepted, but flagged to the reviewer. */
  hasEmbeddedFiles: z.boolean(),
  uploadedAt: z.string(),
  reviewState: z.enum(REVIEW_STATES),
  reviewedAt: z.string().nullable(),
  /** Why the school returned it, in full, when returned. */
  returnReason: z.string().nullable(),
  /** Where the PDF is read: GET, inline; add `?download=1` for an attachment. */
  href: z.string(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

export const documentSlotSchema = z.object({
  item: z.enum(DOCUMENTS),
  label: z.string(),
  state: z.enum(SLOT_STATES),
  /** ISO date the school received it (accepted upload or paper copy), else null. */
  receivedOn: z.string().nullable(),
  /** Received on paper, recorded by an administrator, with no accepted upload. */
  paperCopy: z.boolean(),
  /** Whether the student may upload a new version now (not while accepted). */
  canUpload: z.boolean(),
  /** Largest file accepted for this item, in bytes. */
  maxBytes: z.number().int(),
  /** The newest version, if any was uploaded. */
  current: documentVersionSchema.nullable(),
  /** Older versions, newest first. */
  earlier: z.array(documentVersionSchema),
});
export type DocumentSlot = z.infer<typeof documentSlotSchema>;

export const thesisDetailsSchema = z.object({
  title: z.string().nullable(),
  abstract: z.string().nullable(),
});
export type ThesisDetails = z.infer<typeof thesisDetailsSchema>;

/** GET /api/submissions/:indexNumber/documents (the student who owns it, or an administrator). */
export const submissionDocumentsResponseSchema = z.object({
  data: z.object({
    submissionId: z.number().int(),
    indexNumber: z.string(),
    thesis: thesisDetailsSchema,
    items: z.array(documentSlotSchema),
  }),
});
export type SubmissionDocumentsResponse = z.infer<typeof submissionDocumentsResponseSchema>;

export const documentVersionResponseSchema = z.object({ data: documentVersionSchema });

// ---------------------------------------------------------------------------------------------
// Requests

const trimmedText = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);

/** PUT /api/submissions/:indexNumber/thesis: the thesis title and abstract. */
export const thesisDetailsInputSchema = z.strictObject({
  title: trimmedText(MAX_TITLE_LENGTH),
  abstract: trimmedText(MAX_ABSTRACT_LENGTH),
});
export type ThesisDetailsInput = z.infer<typeof thesisDetailsInputSchema>;

/** POST /api/admin/documents/:id/return. */
export const returnDocumentInputSchema = z.strictObject({
  reason: trimmedText(MAX_RETURN_REASON_LENGTH),
});
export type ReturnDocumentInput = z.infer<typeof returnDocumentInputSchema>;

/**
 * Why an upload was refused, sent as `reason` beside `message` in the error body (400, 413, 503).
 * The message names the file and says what to do.
 */
export const UPLOAD_REFUSALS = [
  "empty",
  "not_pdf",
  "encrypted",
  "corrupt",
  "too_large",
  "infected",
  "scanner_unavailable",
  "storage_unavailable",
  "details_missing",
  "already_accepted",
] as const;
export type UploadRefusal = (typeof UPLOAD_REFUSALS)[number];

/** Sizes as people read them: "840 KB", "12.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

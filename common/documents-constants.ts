/**
 * Electronic documents: the review states, the checklist items' states, the list's document
 * filter, the limits and the small helpers that show them (docs/api.md, "Documents").
 *
 * Plain constants without zod, apart from ./documents.ts (which re-exports them beside its
 * schemas), so a page that only shows a label or a size does not load zod (issue 11: JavaScript
 * on the first load).
 */

import { DOCUMENT_LABELS, type DocumentItem } from "./workflow.js";

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

import { z } from "zod";
import {
  MAX_ABSTRACT_LENGTH,
  MAX_RETURN_REASON_LENGTH,
  MAX_TITLE_LENGTH,
  REVIEW_STATES,
  SLOT_STATES,
} from "./documents-constants.js";
import { DOCUMENTS } from "./workflow.js";

/**
 * Electronic documents: the student uploads each checklist item as a PDF, the school reviews each
 * version (docs/api.md, "Documents"). Server routes and web fetchers and forms share these
 * schemas, so every field is named and checked once. The states, labels, limits and helpers live
 * in ./documents-constants.ts (no zod) and are re-exported here, so every importer keeps working.
 */

export {
  REVIEW_STATES,
  REVIEW_STATE_LABELS,
  SLOT_STATES,
  SLOT_STATE_LABELS,
  DOCUMENT_FILTERS,
  DOCUMENT_FILTER_LABELS,
  DEFAULT_MAX_THESIS_MB,
  DEFAULT_MAX_FORM_MB,
  MAX_FILE_NAME_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_ABSTRACT_LENGTH,
  MAX_RETURN_REASON_LENGTH,
  UPLOAD_REFUSALS,
  documentLabel,
  formatBytes,
  type ReviewState,
  type SlotState,
  type DocumentFilter,
  type UploadRefusal,
} from "./documents-constants.js";

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
  /** Marked by another system through the API (Financial Clearance, issue 21): which, and when. */
  clearedBy: z.object({ system: z.string(), at: z.string() }).optional(),
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

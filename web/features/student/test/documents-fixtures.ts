import type {
  DocumentSlot,
  DocumentVersion,
  SubmissionDocumentsResponse,
} from "../../../../common/documents.js";
import { DOCUMENT_LABELS, DOCUMENTS, type DocumentItem } from "../../../../common/workflow.js";

export const MB = 1024 * 1024;

let nextId = 1;

/** A version as the server describes it; each test states what matters to it. */
export function documentVersion(
  item: DocumentItem,
  overrides: Partial<DocumentVersion> = {},
): DocumentVersion {
  const id = overrides.id ?? nextId++;
  return {
    id,
    item,
    version: 1,
    fileName: `${item}.pdf`,
    sizeBytes: 2 * MB,
    pageCount: 12,
    hasJavaScript: false,
    hasEmbeddedFiles: false,
    uploadedAt: "2026-03-02T10:00:00.000Z",
    reviewState: "pending",
    reviewedAt: null,
    returnReason: null,
    href: `/api/documents/${id}/file`,
    ...overrides,
  };
}

export function documentSlot(
  item: DocumentItem,
  overrides: Partial<DocumentSlot> = {},
): DocumentSlot {
  return {
    item,
    label: DOCUMENT_LABELS[item],
    state: "to_upload",
    receivedOn: null,
    paperCopy: false,
    canUpload: true,
    maxBytes: (item === "thesis" ? 100 : 10) * MB,
    current: null,
    earlier: [],
    ...overrides,
  };
}

/** GET /api/submissions/PG1234567/documents: every item to upload unless a test says otherwise. */
export function documentsResponse(
  slots: Partial<Record<DocumentItem, Partial<DocumentSlot>>> = {},
  thesis: { title: string | null; abstract: string | null } = {
    title: "Informal credit and household consumption in Northern Ghana",
    abstract: "This thesis studies how informal credit smooths consumption.",
  },
): SubmissionDocumentsResponse {
  return {
    data: {
      submissionId: 41,
      indexNumber: "PG1234567",
      thesis,
      items: DOCUMENTS.map((item) => documentSlot(item, slots[item])),
    },
  };
}

import type { DocumentVersion } from "../../../../common/documents.js";
import {
  REVIEW_STATES,
  type ReviewState,
  type UploadRefusal,
} from "../../../../common/documents-constants.js";
import { DOCUMENTS, type DocumentItem } from "../../../../common/workflow.js";
import { ApiError } from "../../../lib/api-client.js";
import type { paths } from "../../../lib/api-types.js";
import {
  uploadRefusalReason,
  uploadWithProgress,
  type UploadProgressCallbacks,
  type UploadWithProgressHandle,
} from "../../../lib/upload-with-progress.js";

/**
 * POST /api/submissions/:indexNumber/documents/:item, multipart with one field `file`.
 *
 * Sent by lib/upload-with-progress (XMLHttpRequest, for the progress bar): a cancel rejects with
 * an AbortError, a dropped connection with an ApiError of status 0, and a refusal with an
 * UploadError carrying the server's message (which names the file) and its `reason`.
 */

export class UploadError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** Why the server refused the file, when it said (common/documents.ts UPLOAD_REFUSALS). */
    readonly reason: UploadRefusal | null,
    body: unknown,
  ) {
    super(status, code, message, [], body);
    this.name = "UploadError";
  }
}

/** Bytes of the file sent so far, and the moment every byte is sent (lib/upload-with-progress). */
export type UploadCallbacks = UploadProgressCallbacks;

/** The stored version, or one of the failures above; `abort` rejects `result` with an AbortError. */
export type UploadHandle = UploadWithProgressHandle<DocumentVersion>;

/** The contract's route (web/lib/api-types.ts): renamed there, this fails the typecheck. */
const UPLOAD_ROUTE = "/api/submissions/{indexNumber}/documents/{item}" satisfies keyof paths;

export function uploadDocumentPath(indexNumber: string, item: DocumentItem): string {
  return UPLOAD_ROUTE.replace("{indexNumber}", encodeURIComponent(indexNumber)).replace(
    "{item}",
    item,
  );
}

export function uploadDocument(
  { indexNumber, item, file }: { indexNumber: string; item: DocumentItem; file: File },
  callbacks: UploadCallbacks = {},
): UploadHandle {
  const form = new FormData();
  form.append("file", file, file.name);
  return uploadWithProgress(
    {
      path: uploadDocumentPath(indexNumber, item),
      form,
      file,
      readSuccess: readDocumentVersion,
      unreadableAnswer: (status, body) =>
        new UploadError(status, "bad_response", unreadableAnswer(file.name), null, body),
      refusal: (status, body) => refusal(status, body, file.name),
    },
    callbacks,
  );
}

function refusal(status: number, body: unknown, fileName: string): UploadError {
  const err = (body && typeof body === "object" ? body : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const reason = uploadRefusalReason(body);
  const code = typeof err.code === "string" ? err.code : "error";
  const message = typeof err.message === "string" && err.message ? err.message : null;
  // A named refusal's message is written for the student (it names the file and says what to do);
  // so is every 4xx message. A 5xx without a reason, or an answer from a proxy, gets our own words.
  if (message && (reason !== null || status < 500)) {
    return new UploadError(status, code, message, reason, body);
  }
  return new UploadError(status, code, fallbackMessage(status, fileName), reason, body);
}

function fallbackMessage(status: number, fileName: string): string {
  if (status === 413) {
    return `${fileName} is larger than the server accepts. Make the file smaller and upload it again.`;
  }
  if (status === 429) {
    return "You have uploaded several files in a short time. Wait a few minutes and try again.";
  }
  if (status === 401) {
    return "Your session has ended. Log in again, then upload the file.";
  }
  if (status >= 500) {
    return `We could not store ${fileName} because of a problem on our side. Try again in a few minutes.`;
  }
  return `${fileName} was not accepted (the server answered ${status}). Try again, or contact the School of Graduate Studies.`;
}

function unreadableAnswer(fileName: string): string {
  return `${fileName} was sent, but the server's answer could not be read. Reload the page to see whether it arrived.`;
}

/**
 * The stored version from the upload's answer (`{ data: version }`), or undefined when the answer
 * has another shape. A hand check of documentVersionResponseSchema (common/documents.ts), so the
 * status page's uploads do not load zod with the page (issue 11); upload-document.test.ts proves
 * it accepts and refuses what the schema does and keeps the same fields (no others).
 */
export function readDocumentVersion(body: unknown): DocumentVersion | undefined {
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data)) return undefined;
  const {
    id,
    item,
    version,
    fileName,
    sizeBytes,
    pageCount,
    hasJavaScript,
    hasEmbeddedFiles,
    uploadedAt,
    reviewState,
    reviewedAt,
    returnReason,
    href,
  } = data;
  if (
    isInteger(id) &&
    oneOf(DOCUMENTS, item) &&
    isInteger(version) &&
    typeof fileName === "string" &&
    isInteger(sizeBytes) &&
    isInteger(pageCount) &&
    typeof hasJavaScript === "boolean" &&
    typeof hasEmbeddedFiles === "boolean" &&
    typeof uploadedAt === "string" &&
    oneOf<ReviewState>(REVIEW_STATES, reviewState) &&
    (reviewedAt === null || typeof reviewedAt === "string") &&
    (returnReason === null || typeof returnReason === "string") &&
    typeof href === "string"
  ) {
    return {
      id,
      item,
      version,
      fileName,
      sizeBytes,
      pageCount,
      hasJavaScript,
      hasEmbeddedFiles,
      uploadedAt,
      reviewState,
      reviewedAt,
      returnReason,
      href,
    };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** z.number().int(): a whole number zod accepts (a safe integer). */
function isInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

function oneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}

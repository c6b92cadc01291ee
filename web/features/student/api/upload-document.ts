import {
  documentVersionResponseSchema,
  UPLOAD_REFUSALS,
  type DocumentVersion,
  type UploadRefusal,
} from "../../../../common/documents.js";
import type { DocumentItem } from "../../../../common/workflow.js";
import { ApiError } from "../../../lib/api-client.js";

/**
 * POST /api/submissions/:indexNumber/documents/:item, multipart with one field `file`.
 *
 * XMLHttpRequest rather than fetch: only XHR reports upload progress, and a thesis can be 100 MB
 * on a phone connection. The failures keep the shapes of lib/api-client: a cancel rejects with
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

export interface UploadCallbacks {
  /** Bytes of the file sent so far, out of the file's size. */
  onProgress?: (sent: number, size: number) => void;
  /** Every byte is sent: the server now scans the file and reads the PDF before it answers. */
  onSent?: () => void;
}

export interface UploadHandle {
  /** The stored version, or one of the failures above. */
  result: Promise<DocumentVersion>;
  /** Stops sending at once; `result` then rejects with an AbortError. */
  abort: () => void;
}

export function uploadDocumentPath(indexNumber: string, item: DocumentItem): string {
  return `/api/submissions/${encodeURIComponent(indexNumber)}/documents/${item}`;
}

export function uploadDocument(
  { indexNumber, item, file }: { indexNumber: string; item: DocumentItem; file: File },
  { onProgress, onSent }: UploadCallbacks = {},
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const result = new Promise<DocumentVersion>((resolve, reject) => {
    xhr.open("POST", uploadDocumentPath(indexNumber, item));
    xhr.setRequestHeader("accept", "application/json");

    // Upload listeners must be in place before send(), or the browser reports no progress.
    xhr.upload.addEventListener("progress", (event) => {
      // The request carries multipart framing around the file: show progress in the file's bytes.
      const fraction = event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0;
      onProgress?.(Math.min(file.size, Math.round(fraction * file.size)), file.size);
    });
    xhr.upload.addEventListener("load", () => onSent?.());

    xhr.addEventListener("load", () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = documentVersionResponseSchema.safeParse(body);
        if (parsed.success) resolve(parsed.data.data);
        else
          reject(
            new UploadError(xhr.status, "bad_response", unreadableAnswer(file.name), null, body),
          );
        return;
      }
      reject(refusal(xhr.status, body, file.name));
    });
    xhr.addEventListener("error", () =>
      reject(
        new ApiError(
          0,
          "network",
          `The connection dropped while sending ${file.name}. Check your connection and try again.`,
        ),
      ),
    );
    xhr.addEventListener("abort", () =>
      reject(new DOMException(`Upload of ${file.name} cancelled`, "AbortError")),
    );

    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
  return { result, abort: () => xhr.abort() };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isRefusal(value: unknown): value is UploadRefusal {
  return typeof value === "string" && (UPLOAD_REFUSALS as readonly string[]).includes(value);
}

function refusal(status: number, body: unknown, fileName: string): UploadError {
  const err = (body && typeof body === "object" ? body : {}) as {
    code?: unknown;
    message?: unknown;
    reason?: unknown;
  };
  const reason = isRefusal(err.reason) ? err.reason : null;
  const code = typeof err.code === "string" ? err.code : "error";
  const message = typeof err.message === "string" && err.message ? err.message : null;
  // A named refusal's message is written for the student (it names the file and says what to do);
  // so is any 4xx message. A 5xx without a reason, or an answer from a proxy, gets our own words.
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

import { UPLOAD_REFUSALS, type UploadRefusal } from "../../common/documents-constants.js";
import { ApiError } from "./api-client.js";

/**
 * The one way the web app sends a file with a progress bar: a multipart POST over
 * XMLHttpRequest rather than fetch, because only XHR reports upload progress (a thesis can be
 * 100 MB on a phone connection). Used by the student's document upload and the examiner's
 * report upload, which differ only in path, headers and how they read the answer.
 *
 * The failures keep the shapes of lib/api-client: a cancel rejects with an AbortError, a dropped
 * connection with an ApiError of status 0, and every answer that is not a readable success with
 * the error the caller builds (its own ApiError subclass carrying the server's `reason`).
 */

export interface UploadProgressCallbacks {
  /** Bytes of the file sent so far, out of the file's size. */
  onProgress?: (sent: number, size: number) => void;
  /** Every byte is sent: the server now scans the file and reads the PDF before it answers. */
  onSent?: () => void;
}

export interface UploadWithProgressHandle<T> {
  /** The caller's reading of the success, or one of the failures above. */
  result: Promise<T>;
  /** Stops sending at once; `result` then rejects with an AbortError. */
  abort: () => void;
}

export interface UploadWithProgressRequest<T> {
  path: string;
  form: FormData;
  /** The file inside `form`: progress counts its bytes and the failures' messages name it. */
  file: File;
  /** Sent besides `accept: application/json`. */
  headers?: Record<string, string>;
  /** Set on the request when given; left at the browser's default otherwise. */
  withCredentials?: boolean;
  /** The value of a 2xx answer's JSON body, or undefined when the body is not of the expected shape. */
  readSuccess: (body: unknown) => T | undefined;
  /** The error for a 2xx answer that readSuccess could not read: the file may have arrived. */
  unreadableAnswer: (status: number, body: unknown) => ApiError;
  /** The error for a non-2xx answer (body is the parsed JSON, or null). */
  refusal: (status: number, body: unknown) => ApiError;
}

export function uploadWithProgress<T>(
  request: UploadWithProgressRequest<T>,
  { onProgress, onSent }: UploadProgressCallbacks = {},
): UploadWithProgressHandle<T> {
  const { path, form, file, headers = {}, withCredentials } = request;
  const xhr = new XMLHttpRequest();
  const result = new Promise<T>((resolve, reject) => {
    xhr.open("POST", path);
    xhr.setRequestHeader("accept", "application/json");
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (withCredentials !== undefined) xhr.withCredentials = withCredentials;

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
        const value = request.readSuccess(body);
        if (value !== undefined) resolve(value);
        else reject(request.unreadableAnswer(xhr.status, body));
        return;
      }
      reject(request.refusal(xhr.status, body));
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

    xhr.send(form);
  });
  return { result, abort: () => xhr.abort() };
}

/** Why the server refused the file, when its answer names one of common/documents.ts UPLOAD_REFUSALS. */
export function uploadRefusalReason(body: unknown): UploadRefusal | null {
  const reason = (body && typeof body === "object" ? body : {}) as { reason?: unknown };
  return isRefusal(reason.reason) ? reason.reason : null;
}

function isRefusal(value: unknown): value is UploadRefusal {
  return typeof value === "string" && (UPLOAD_REFUSALS as readonly string[]).includes(value);
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

import {
  EXAMINER_AUTH_SCHEME,
  examinerAssignmentResponseSchema,
  type ExaminerAssignment,
  type ExaminerReportFields,
} from "../../../../common/examiners.js";
import { UPLOAD_REFUSALS, type UploadRefusal } from "../../../../common/documents.js";
import { ApiError } from "../../../lib/api-client.js";
import { examinerApiError, LinkRefusedError, parseJson } from "./examiner-request.js";

/**
 * POST /api/examiner/report: multipart with the text fields first (`recommendation`, then `note`
 * when given) and the PDF last, so the server can refuse a bad recommendation before it reads a
 * large file. XMLHttpRequest rather than fetch: only XHR reports upload progress (as the student's
 * upload in features/student/api/upload-document.ts). Failures: an AbortError on cancel, an
 * ApiError of status 0 for a dropped connection, a LinkRefusedError for a link that stopped
 * working, or a ReportUploadError with the server's message (which names the file) and `reason`.
 */

export const REPORT_UPLOAD_PATH = "/api/examiner/report";

export class ReportUploadError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly reason: UploadRefusal | null,
    body: unknown,
  ) {
    super(status, code, message, [], body);
    this.name = "ReportUploadError";
  }
}

export interface ReportUploadCallbacks {
  onProgress?: (sent: number, size: number) => void;
  /** Every byte is sent: the server now scans the file and reads the PDF. */
  onSent?: () => void;
}

export interface ReportUploadHandle {
  result: Promise<ExaminerAssignment>;
  abort: () => void;
}

export function reportFormData(fields: ExaminerReportFields, file: File): FormData {
  const form = new FormData();
  form.append("recommendation", fields.recommendation);
  if (fields.note) form.append("note", fields.note);
  form.append("file", file, file.name);
  return form;
}

export function uploadReport(
  token: string,
  fields: ExaminerReportFields,
  file: File,
  { onProgress, onSent }: ReportUploadCallbacks = {},
): ReportUploadHandle {
  const xhr = new XMLHttpRequest();
  const result = new Promise<ExaminerAssignment>((resolve, reject) => {
    xhr.open("POST", REPORT_UPLOAD_PATH);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("authorization", `${EXAMINER_AUTH_SCHEME} ${token}`);
    // No cookie travels with the report: the link alone authorises it.
    xhr.withCredentials = false;

    xhr.upload.addEventListener("progress", (event) => {
      const fraction = event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0;
      onProgress?.(Math.min(file.size, Math.round(fraction * file.size)), file.size);
    });
    xhr.upload.addEventListener("load", () => onSent?.());

    xhr.addEventListener("load", () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = examinerAssignmentResponseSchema.safeParse(body);
        if (parsed.success) resolve(parsed.data.data);
        else
          reject(
            new ReportUploadError(
              xhr.status,
              "bad_response",
              `${file.name} was sent, but the server's answer could not be read. Reload the page to see whether your report arrived.`,
              null,
              body,
            ),
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

    xhr.send(reportFormData(fields, file));
  });
  return { result, abort: () => xhr.abort() };
}

function isRefusal(value: unknown): value is UploadRefusal {
  return typeof value === "string" && (UPLOAD_REFUSALS as readonly string[]).includes(value);
}

function refusal(status: number, body: unknown, fileName: string): ApiError {
  const general = examinerApiError(status, body);
  if (general instanceof LinkRefusedError || status === 429) return general;
  const err = (body && typeof body === "object" ? body : {}) as { reason?: unknown };
  const reason = isRefusal(err.reason) ? err.reason : null;
  const serverMessage =
    typeof (body as { message?: unknown } | null)?.message === "string"
      ? (body as { message: string }).message || null
      : null;
  if (serverMessage && (reason !== null || status < 500)) {
    return new ReportUploadError(status, general.code, serverMessage, reason, body);
  }
  const message =
    status === 413
      ? `${fileName} is larger than the server accepts. Make the file smaller and upload it again.`
      : status >= 500
        ? `We could not store ${fileName} because of a problem on our side. Try again in a few minutes.`
        : `${fileName} was not accepted (the server answered ${status}). Try again, or contact the School of Graduate Studies.`;
  return new ReportUploadError(status, general.code, message, reason, body);
}

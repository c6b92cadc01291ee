import {
  examinerAssignmentResponseSchema,
  type ExaminerAssignment,
  type ExaminerReportFields,
} from "../../../../common/examiners.js";
import type { UploadRefusal } from "../../../../common/documents.js";
import { ApiError } from "../../../lib/api-client.js";
import type { paths } from "../../../lib/api-types.js";
import {
  uploadRefusalReason,
  uploadWithProgress,
  type UploadProgressCallbacks,
  type UploadWithProgressHandle,
} from "../../../lib/upload-with-progress.js";
import { examinerApiError, examinerHeaders, LinkRefusedError } from "./examiner-request.js";

/**
 * POST /api/examiner/report: multipart with the text fields first (`recommendation`, then `note`
 * when given) and the PDF last, so the server can refuse a bad recommendation before it reads a
 * large file. Sent by lib/upload-with-progress (XMLHttpRequest, for the progress bar), as the
 * student's upload in features/student/api/upload-document.ts. Failures: an AbortError on cancel, an
 * ApiError of status 0 for a dropped connection, a LinkRefusedError for a link that stopped
 * working, or a ReportUploadError with the server's message (which names the file) and `reason`.
 */

export const REPORT_UPLOAD_PATH = "/api/examiner/report" satisfies keyof paths;

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

/** Bytes of the file sent so far, and the moment every byte is sent (lib/upload-with-progress). */
export type ReportUploadCallbacks = UploadProgressCallbacks;

export type ReportUploadHandle = UploadWithProgressHandle<ExaminerAssignment>;

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
  callbacks: ReportUploadCallbacks = {},
): ReportUploadHandle {
  return uploadWithProgress(
    {
      path: REPORT_UPLOAD_PATH,
      form: reportFormData(fields, file),
      file,
      headers: examinerHeaders(token),
      // No cookie travels with the report: the link alone authorises it.
      withCredentials: false,
      readSuccess: (body) => {
        const parsed = examinerAssignmentResponseSchema.safeParse(body);
        return parsed.success ? parsed.data.data : undefined;
      },
      unreadableAnswer: (status, body) =>
        new ReportUploadError(
          status,
          "bad_response",
          `${file.name} was sent, but the server's answer could not be read. Reload the page to see whether your report arrived.`,
          null,
          body,
        ),
      refusal: (status, body) => refusal(status, body, file.name),
    },
    callbacks,
  );
}

function refusal(status: number, body: unknown, fileName: string): ApiError {
  const general = examinerApiError(status, body);
  if (general instanceof LinkRefusedError || status === 429) return general;
  const reason = uploadRefusalReason(body);
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

import type { Multipart, MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import {
  examinerReportFieldsSchema,
  type ExaminerAssignment,
  type ExaminerReportFields,
} from "../../common/examiners.js";
import { recordAudit } from "../accounts/audit.js";
import { nowIso } from "../db/database.js";
import { settlePendingUpload } from "../files/pending-uploads.js";
import { AppError, conflict, notFound, validationError, type FieldError } from "../errors.js";
import { clientFileStream, multipartReadError } from "../files/multipart.js";
import type { IncomingFile, UploadLog } from "../files/upload.js";
import { displayFileName, receiveDocument } from "../files/upload.js";
import { enqueueMail } from "../mail/outbox.js";
import { findSubmissionById } from "../submissions/repository.js";
import { fieldWithNul } from "../validation.js";
import { linkRefusalFor } from "./link-auth.js";
import {
  findExaminationNow,
  listActiveAdminEmails,
  lockExamination,
  saveReport,
  type LinkExamination,
} from "./link-repository.js";
import { moveExaminerForward, readAssignment, type LinkContext } from "./link-service.js";
import { reportReceivedMail } from "./mail.js";
import { recordExaminationEvent } from "./transitions.js";

/**
 * The examiner's report (issue 9): a multipart form whose text fields (`recommendation`, an
 * optional `note`) come first and whose `file` comes last, so the fields are checked before a
 * byte of the PDF is read. The PDF takes the student's upload path (files/upload.ts: the
 * thesis's size limit, the PDF checks, the virus scan, the content-addressed store), then one
 * transaction records it, moves the examination and the record to "Report Submitted", adds the
 * timeline event and the audit row, and mails every active administrator.
 *
 * One report per examination: a second upload is refused (409) with the date of the first, and
 * the examiner is asked to contact the school. Replacing a report the administrators may already
 * have read, before or after an outcome, is the school's decision, not the link's.
 */

/** The size refusal's words: "larger than 100 MB, the limit for an examination report". */
const REPORT_LIMIT_LABEL = "an examination report";

const SCHOOL = "the School of Graduate Studies";

export interface ReportForm {
  fields: ExaminerReportFields;
  file: IncomingFile;
}

export const reportFileMissing = () =>
  validationError(
    "file",
    "Attach your report as a PDF in a form upload named file, after the recommendation.",
  );

/**
 * Reads the form up to its file part: the text fields before it, checked, and the file's stream
 * (not read yet). A file sent before the recommendation is refused at once.
 */
export async function readReportForm(
  request: FastifyRequest,
  maxBytes: number,
): Promise<ReportForm> {
  if (!request.isMultipart()) throw reportFileMissing();
  // Part by part, in the order sent: a part's `fields` is the whole form so far and fills in as
  // later fields arrive, so only the fields seen before the file count.
  // One byte over the limit, so the upload pipeline sees the file pass it and refuses it.
  const parts = request.parts({ limits: { fileSize: maxBytes + 1 } })[Symbol.asyncIterator]();
  const raw: Record<string, string> = {};
  const problems: FieldError[] = [];
  let file: MultipartFile | null = null;
  while (file === null) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      throw multipartReadError(error);
    }
    if (next.done) break;
    const part = next.value;
    if (part.type === "file") {
      file = part;
    } else if (part.fieldname in raw) {
      problems.push({ field: part.fieldname, message: "is given more than once" });
    } else if (part.valueTruncated) {
      problems.push({ field: part.fieldname, message: "is too long" });
    } else {
      raw[part.fieldname] = String(part.value);
    }
  }
  if (file === null || file.fieldname !== "file") throw reportFileMissing();
  if (problems.length === 0 && !("recommendation" in raw)) {
    throw new AppError(
      "validation",
      "recommendation: choose a recommendation. The form must send it before the file.",
      [{ field: "recommendation", message: "is required, before the file" }],
    );
  }
  const parsed = examinerReportFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          problems.push({ field: key, message: "is not a field of the report form" });
        }
      } else {
        problems.push({ field: issue.path.join(".") || "body", message: issue.message });
      }
    }
  }
  const nul = parsed.success ? fieldWithNul(parsed.data) : null;
  if (nul !== null) problems.push({ field: nul, message: "must not contain a NUL character" });
  if (problems.length > 0 || !parsed.success) {
    const shown = problems.slice(0, 10);
    throw new AppError(
      "validation",
      shown.map((p) => `${p.field}: ${p.message}`).join("; "),
      shown,
    );
  }
  return {
    fields: parsed.data,
    file: { stream: clientFileStream(file.file), clientName: file.filename },
  };
}

export interface ReportUpload {
  /** Reads the form; called only once the examination may take a report. */
  openForm(maxBytes: number): Promise<ReportForm>;
  ip: string;
  log?: UploadLog;
}

function alreadyReceived(uploadedAt: string | null, contactEmail: string | null): AppError {
  const day = uploadedAt ? uploadedAt.slice(0, 10) : "an earlier day";
  const contact = contactEmail ? `${SCHOOL} (${contactEmail})` : SCHOOL;
  return conflict(
    `Your report was already received on ${day}. If it must be changed, please contact ${contact}.`,
  );
}

/** Why the examination takes no report now, or null when it does. */
function refuseReport(
  examination: {
    state: LinkExamination["state"];
    reportUploadedAt: string | null;
    linkExpiresAt: string | null;
    linkRevokedAt: string | null;
  },
  contactEmail: string | null,
): AppError | null {
  if (examination.state === "report_submitted") {
    return alreadyReceived(examination.reportUploadedAt, contactEmail);
  }
  if (examination.state !== "sent" && examination.state !== "received") {
    return conflict(`This examination takes no report now. Please contact ${SCHOOL}.`);
  }
  return null;
}

/**
 * POST /api/examiner/report. Checks the examination before reading the form, again inside the
 * transaction (a second report, a replacement or a revocation may have landed while the file
 * streamed in). A failure before the commit leaves at most a stored file without a row, which
 * the orphan sweep removes.
 */
export async function submitExaminerReport(
  ctx: LinkContext,
  link: LinkExamination,
  upload: ReportUpload,
  now: Date = new Date(),
): Promise<ExaminerAssignment> {
  const before = await findExaminationNow(ctx.db, link);
  if (!before) throw notFound("This examination no longer exists.");
  const early = refuseReport(before, ctx.config.contactEmail);
  if (early) throw early;

  const maxBytes = ctx.config.maxThesisBytes;
  const form = await upload.openForm(maxBytes);
  const fileName = displayFileName(form.file.clientName);
  const received = await receiveDocument({
    db: ctx.db,
    source: form.file.stream,
    fileName,
    limitLabel: REPORT_LIMIT_LABEL,
    maxBytes,
    storage: ctx.storage,
    scanner: ctx.scanner,
    ...(upload.log ? { log: upload.log } : {}),
    onInfected: (signature, sha256) =>
      recordAudit(ctx.db, {
        event: "upload.infected",
        subject: link.examinerEmail,
        ip: upload.ip,
        details: {
          examinationId: link.examinationId,
          submissionId: link.submissionId,
          item: "examinerReport",
          fileName,
          signature,
          sha256,
        },
      }),
  });

  const at = nowIso(now);
  await ctx.db.transaction().execute(async (trx) => {
    await lockExamination(trx, link.examinationId);
    const current = await findExaminationNow(trx, link);
    if (!current) throw notFound("This examination no longer exists.");
    const stopped = linkRefusalFor({ ...link, ...current }, now);
    if (stopped !== null) {
      throw conflict(
        `Your report was not saved: this examination link stopped working while the file was uploading. Please contact ${SCHOOL}.`,
      );
    }
    const refused = refuseReport(current, ctx.config.contactEmail);
    if (refused) throw refused;

    await saveReport(
      trx,
      link.examinationId,
      {
        sha256: received.sha256,
        fileName,
        sizeBytes: received.sizeBytes,
        pageCount: received.pageCount,
        hasJavaScript: received.hasJavaScript,
        hasEmbeddedFiles: received.hasEmbeddedFiles,
        recommendation: form.fields.recommendation,
        note: form.fields.note ?? null,
      },
      at,
    );
    await moveExaminerForward(trx, ctx.config, link, "report_submitted", at);
    // The examination refers to the file from this commit on: no longer an upload under way.
    await settlePendingUpload(trx, received.pendingUploadId);
    await recordExaminationEvent(trx, {
      submissionId: link.submissionId,
      actor: null,
      at,
      field: `examination.${link.role}`,
      from: current.state,
      to: "report_submitted",
      kind: "report",
    });
    const submission = await findSubmissionById(trx, link.submissionId);
    if (!submission) throw notFound("The submission was removed.");
    await recordAudit(
      trx,
      {
        event: "examiner.report_submitted",
        subject: link.examinerEmail,
        ip: upload.ip,
        details: {
          examinationId: link.examinationId,
          indexNumber: submission.indexNumber,
          role: link.role,
          recommendation: form.fields.recommendation,
          fileName,
          sha256: received.sha256,
        },
      },
      now,
    );
    const recordLink = `${ctx.config.publicUrl}/admin/all_submissions?q=${encodeURIComponent(submission.indexNumber)}`;
    for (const to of await listActiveAdminEmails(trx)) {
      await enqueueMail(
        trx,
        reportReceivedMail({
          to,
          role: link.role,
          studentName: submission.studentName,
          indexNumber: submission.indexNumber,
          recommendation: form.fields.recommendation,
          recordLink,
        }),
        now,
      );
    }
  });
  return readAssignment(ctx.db, ctx.config, link);
}

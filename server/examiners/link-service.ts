import type { Readable } from "node:stream";
import { CORRECTION_OUTCOMES, type ExaminerAssignment } from "../../common/examiners.js";
import { examinerStateRank, type ExaminerState } from "../../common/workflow.js";
import { recordAudit } from "../accounts/audit.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { conflict, forbidden, notFound } from "../errors.js";
import type { VirusScanner } from "../files/clamd.js";
import { FileMissingError, type FileStorage } from "../files/storage.js";
import { findSubmissionById } from "../submissions/repository.js";
import {
  findAssignment,
  markOpened,
  markReceived,
  type ExaminerAssignmentRecord,
  type LinkExamination,
} from "./link-repository.js";
import { findCurrentThesis, type CurrentThesis } from "./repository.js";
import { approveCorrections, readCorrections, type Corrections } from "./outcome.js";
import { examinerField, moveRecord, recordExaminationEvent } from "./transitions.js";

/**
 * What the examiner does through their link (issue 9): open the page, download the thesis,
 * confirm the corrections. The report upload is in report-upload.ts. Every function takes the
 * examination the link's check found (link-auth.ts) and reads nothing but it and its own
 * submission.
 */

/** What the link services need from the app. */
export interface LinkContext {
  db: Db;
  config: Pick<Config, "publicUrl" | "contactEmail" | "maxThesisBytes">;
  storage: FileStorage;
  scanner: VirusScanner | null;
}

/**
 * Openings of the page closer together than this are one visit for the audit log: the page
 * refetches its assignment on focus and after each action, and an audit row for each would bury
 * the rest. `last_opened_at` itself is kept exact.
 */
export const OPENED_AUDIT_QUIET_MS = 60 * 60 * 1000;

const SCHOOL = "the School of Graduate Studies";

function contactPhrase(config: Pick<Config, "contactEmail">): string {
  return config.contactEmail ? `${SCHOOL} (${config.contactEmail})` : SCHOOL;
}

// ---------------------------------------------------------------------------------------------
// The assignment

/**
 * The page's view of the examination: the thesis's title, abstract and programme, never the
 * student's name, contact, email or index number.
 */
export function presentAssignment(
  record: ExaminerAssignmentRecord,
  link: Pick<LinkExamination, "linkExpiresAt">,
  thesis: CurrentThesis | null,
  corrections: Corrections,
  config: Pick<Config, "contactEmail">,
): ExaminerAssignment {
  // Only the internal examiner confirms corrections, and only after an outcome that asks for them.
  const showCorrections =
    record.role === "internal" &&
    corrections.outcome !== null &&
    CORRECTION_OUTCOMES.includes(corrections.outcome.decision);
  const correctionsView = showCorrections
    ? {
        requested: corrections.outcome?.corrections ?? null,
        state: corrections.state,
        approvedAt: corrections.outcome?.correctionsApprovedAt ?? null,
      }
    : null;
  // Done once the report is in and nothing more will be asked: corrections still to come
  // ("to_upload") or waiting for this examiner ("to_confirm") keep the page open.
  const done =
    record.report !== null &&
    (correctionsView === null ||
      correctionsView.state === "approved" ||
      correctionsView.state === "not_needed");
  return {
    examinerName: record.examinerName,
    role: record.role,
    thesis: {
      title: record.thesisTitle,
      abstract: record.thesisAbstract,
      programme: record.programme,
      file: thesis
        ? {
            fileName: thesis.fileName,
            sizeBytes: thesis.sizeBytes,
            pageCount: thesis.pageCount,
            uploadedAt: thesis.uploadedAt,
          }
        : null,
    },
    dueOn: record.dueOn,
    state: record.state,
    receivedAt: record.receivedAt,
    report: record.report,
    corrections: correctionsView,
    done,
    // The link the page was opened with: the link check refuses one without an expiry.
    linkExpiresAt: link.linkExpiresAt ?? "",
    schoolContact: config.contactEmail,
  };
}

/** The examination as the page opened with this link shows it, read afresh. */
export async function readAssignment(
  db: Executor,
  config: Pick<Config, "contactEmail">,
  link: Pick<LinkExamination, "examinationId" | "linkExpiresAt">,
): Promise<ExaminerAssignment> {
  const record = await findAssignment(db, link.examinationId);
  if (!record) throw notFound("This examination no longer exists.");
  const [thesis, corrections] = await Promise.all([
    findCurrentThesis(db, record.submissionId),
    readCorrections(db, record.submissionId),
  ]);
  return presentAssignment(record, link, thesis, corrections, config);
}

/**
 * GET /api/examiner/assignment: records the opening (last_opened_at always; an
 * `examiner.opened` audit row at most once per OPENED_AUDIT_QUIET_MS) and answers the page.
 */
export async function openAssignment(
  ctx: Pick<LinkContext, "db" | "config">,
  link: LinkExamination,
  ip: string,
  now: Date = new Date(),
): Promise<ExaminerAssignment> {
  const at = nowIso(now);
  const quietBefore = nowIso(new Date(now.getTime() - OPENED_AUDIT_QUIET_MS));
  await ctx.db.transaction().execute(async (trx) => {
    if (await markOpened(trx, link.examinationId, at, quietBefore)) {
      await recordAudit(
        trx,
        {
          event: "examiner.opened",
          subject: link.examinerEmail,
          ip,
          details: {
            examinationId: link.examinationId,
            submissionId: link.submissionId,
            role: link.role,
          },
        },
        now,
      );
    }
  });
  return readAssignment(ctx.db, ctx.config, link);
}

// ---------------------------------------------------------------------------------------------
// The thesis download

/** Moves the record's examiner field forward to `to`; a record already past it keeps its state. */
export async function moveExaminerForward(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  link: Pick<LinkExamination, "submissionId" | "role">,
  to: ExaminerState,
  at: string,
): Promise<void> {
  const submission = await findSubmissionById(trx, link.submissionId);
  if (!submission) throw notFound("The submission was removed.");
  const field = examinerField(link.role);
  if (examinerStateRank(submission[field]) >= examinerStateRank(to)) return;
  await moveRecord(trx, config, link.submissionId, { [field]: to }, null, at);
}

export interface ThesisDownload {
  fileName: string;
  stream: Readable;
  size: number;
}

/**
 * GET /api/examiner/thesis: the current thesis PDF. The first download moves the examination
 * "sent" → "received" and the record's examiner field to "Received", with its timeline event, in
 * one transaction; a second (or a simultaneous) download finds it moved and changes nothing.
 * Every download is audited.
 */
export async function openThesisForExaminer(
  ctx: Pick<LinkContext, "db" | "config" | "storage">,
  link: LinkExamination,
  ip: string,
  log: { error(details: object, message: string): void },
  now: Date = new Date(),
): Promise<ThesisDownload> {
  const thesis = await findCurrentThesis(ctx.db, link.submissionId);
  if (!thesis) {
    throw conflict(
      `There is no thesis to download yet: the student has not uploaded it. Please contact ${contactPhrase(ctx.config)}.`,
    );
  }
  let opened: { stream: Readable; size: number };
  try {
    opened = await ctx.storage.read(thesis.sha256);
  } catch (error) {
    if (error instanceof FileMissingError) {
      log.error(
        { documentId: thesis.documentId, sha256: thesis.sha256, storage: ctx.storage.kind },
        "the thesis an examiner asked for is missing from the store",
      );
      throw notFound(
        `The thesis file is missing on our side. Please contact ${contactPhrase(ctx.config)}.`,
      );
    }
    throw error;
  }

  const at = nowIso(now);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const first = await markReceived(trx, link.examinationId, at);
      if (first) {
        await moveExaminerForward(trx, ctx.config, link, "received", at);
        await recordExaminationEvent(trx, {
          submissionId: link.submissionId,
          actor: null,
          at,
          field: `examination.${link.role}`,
          from: "sent",
          to: "received",
          kind: "download",
        });
      }
      await recordAudit(
        trx,
        {
          event: "examiner.thesis_downloaded",
          subject: link.examinerEmail,
          ip,
          details: {
            examinationId: link.examinationId,
            submissionId: link.submissionId,
            documentId: thesis.documentId,
            thesisVersion: thesis.version,
            first,
          },
        },
        now,
      );
    });
  } catch (error) {
    opened.stream.destroy();
    throw error;
  }
  return { fileName: thesis.fileName, stream: opened.stream, size: opened.size };
}

// ---------------------------------------------------------------------------------------------
// The corrections

/**
 * POST /api/examiner/corrections/approve: the internal examiner confirms the corrected thesis
 * (outcome.ts's approveCorrections checks and writes it). Answers the page afresh.
 */
export async function approveCorrectionsByLink(
  ctx: Pick<LinkContext, "db" | "config">,
  link: LinkExamination,
  note: string | null,
  now: Date = new Date(),
): Promise<ExaminerAssignment> {
  if (link.role !== "internal") {
    throw forbidden(
      "The internal examiner confirms the corrections; as external examiner you have nothing more to do here.",
    );
  }
  await approveCorrections(
    ctx,
    { examinationId: link.examinationId, note },
    link.submissionId,
    now,
  );
  return readAssignment(ctx.db, ctx.config, link);
}

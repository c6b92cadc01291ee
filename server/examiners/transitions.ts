import type { Submission, SubmissionFields } from "../../common/submission.js";
import type { ExaminerState, SgsStage } from "../../common/workflow.js";
import { EXAMINER_FIELDS, sgsStageRank } from "../../common/workflow.js";
import type { Config } from "../config.js";
import { notFound } from "../errors.js";
import { diffFields, eventsFor, fieldsOf } from "../submissions/changes.js";
import { notifyWorkflowChanges } from "../submissions/notices.js";
import type { Executor } from "../db/database.js";
import {
  findSubmissionById,
  insertSubmissionEvents,
  updateSubmissionFields,
} from "../submissions/repository.js";

/**
 * The record's workflow fields, moved by what examiners and the examination do rather than typed
 * by an administrator: the same change machinery as an edit (version bump, one
 * submission_events row per field, the student's notice and mail for stage and examiner moves),
 * inside the caller's transaction. Every examiner service moves the record through here.
 */

/** Who moved it: an administrator (their user id) or the system (null: an examiner's link). */
export type Actor = number | null;

export interface RecordMove {
  sgsStage?: SgsStage;
  internalExaminer?: ExaminerState | null;
  externalExaminer?: ExaminerState | null;
  thesisStatus?: string | null;
}

/**
 * Applies the moves to the record. A stage only moves forward here (a record already past it
 * keeps its stage). Returns the saved submission (unchanged if nothing differed).
 */
export async function moveRecord(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  submissionId: number,
  move: RecordMove,
  actor: Actor,
  at: string,
  /** The administrator confirmed a move that skips stages (recorded with its events). */
  confirmedOutOfOrder = false,
): Promise<Submission> {
  const submission = await findSubmissionById(trx, submissionId);
  if (!submission) throw notFound("The submission was removed.");
  const before = fieldsOf(submission);
  const after: SubmissionFields = { ...before };
  if (move.sgsStage !== undefined && sgsStageRank(move.sgsStage) > sgsStageRank(before.sgsStage)) {
    after.sgsStage = move.sgsStage;
  }
  if (move.internalExaminer !== undefined) after.internalExaminer = move.internalExaminer;
  if (move.externalExaminer !== undefined) after.externalExaminer = move.externalExaminer;
  if (move.thesisStatus !== undefined) after.thesisStatus = move.thesisStatus;
  const changes = diffFields(before, after);
  if (changes.length === 0) return submission;
  const saved = await updateSubmissionFields(trx, submission.id, after, at, null);
  if (!saved) throw notFound("The submission was removed.");
  await insertSubmissionEvents(
    trx,
    eventsFor(saved.id, changes, "edit", actor, at, confirmedOutOfOrder),
  );
  await notifyWorkflowChanges(trx, config, saved, changes, actor, at);
  return saved;
}

/** The record field that mirrors an examination's role. */
export function examinerField(role: "internal" | "external") {
  return EXAMINER_FIELDS[role];
}

/** One examination event for the timeline and the audit trail of the record. */
export async function recordExaminationEvent(
  trx: Executor,
  event: {
    submissionId: number;
    actor: Actor;
    at: string;
    /** "examination.internal", "examination.external" or "examination.outcome". */
    field: string;
    from: string | null;
    to: string | null;
    /** "nominate", "replace", "send", "download", "report", "remind", "outcome", "corrections". */
    kind: string;
  },
): Promise<void> {
  await insertSubmissionEvents(trx, [
    {
      submissionId: event.submissionId,
      actorUserId: event.actor,
      at: event.at,
      field: event.field,
      from: event.from,
      to: event.to,
      kind: event.kind,
      confirmedOutOfOrder: false,
    },
  ]);
}

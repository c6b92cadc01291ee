import {
  CORRECTION_OUTCOMES,
  CORRECTIONS_APPROVED_STATUS,
  RECOMMENDATION_LABELS,
  type CorrectionState,
} from "../../common/examiners.js";
import { recordAudit } from "../accounts/audit.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { conflict, forbidden, notFound } from "../errors.js";
import { notifyOutcome } from "../messages/service.js";
import { findSubmissionById, lockSubmission } from "../submissions/repository.js";
import {
  findCurrentThesis,
  findExamination,
  findOutcome,
  markThesisVersionAccepted,
  setCorrectionsApproved,
  type CurrentThesis,
  type StoredOutcome,
} from "./repository.js";
import { moveRecord, recordExaminationEvent } from "./transitions.js";

/**
 * The corrections after a "Minor corrections" or "Major corrections" outcome. Where they stand is
 * derived, never stored: the outcome remembers the thesis version current at its release, so a
 * later current version is the corrected thesis. The school returning that version puts the
 * corrections back to "to_upload" (the student uploads again).
 */

/**
 * Where the corrections stand. `currentThesisVersion` is the number of the current thesis upload
 * that counts (not returned by the school; `countedThesisVersion`), null when there is none.
 */
export function correctionState(
  outcome: Pick<
    StoredOutcome,
    "decision" | "thesisVersionAtRelease" | "correctionsApprovedAt"
  > | null,
  currentThesisVersion: number | null,
): CorrectionState {
  if (!outcome || !CORRECTION_OUTCOMES.includes(outcome.decision)) return "not_needed";
  if (outcome.correctionsApprovedAt !== null) return "approved";
  if (
    currentThesisVersion !== null &&
    currentThesisVersion > (outcome.thesisVersionAtRelease ?? 0)
  ) {
    return "to_confirm";
  }
  return "to_upload";
}

/** The thesis version that counts for the corrections: the current one unless it was returned. */
export function countedThesisVersion(thesis: CurrentThesis | null): number | null {
  return thesis && thesis.reviewState !== "returned" ? thesis.version : null;
}

export interface Corrections {
  outcome: StoredOutcome | null;
  thesis: CurrentThesis | null;
  state: CorrectionState;
}

/** A submission's outcome, current thesis and where the corrections stand, read together. */
export async function readCorrections(db: Executor, submissionId: number): Promise<Corrections> {
  const [outcome, thesis] = await Promise.all([
    findOutcome(db, submissionId),
    findCurrentThesis(db, submissionId),
  ]);
  return { outcome, thesis, state: correctionState(outcome, countedThesisVersion(thesis)) };
}

/** Who approves: an administrator, or the internal examiner through their link. */
export type CorrectionsApprover =
  | { adminId: number }
  | { examinationId: number; note?: string | null };

/**
 * Approves the corrected thesis: only while it waits for confirmation ("to_confirm"). In one
 * transaction: the outcome's approval, the corrected version counted as reviewed (accepted, so it
 * no longer waits in the school's review list), Thesis Status "Corrections approved", the
 * timeline event, the student's notice and mail, and the audit row. An examination approving
 * must be the submission's current internal one (the caller has checked its link).
 */
export async function approveCorrections(
  ctx: { db: Db; config: Pick<Config, "publicUrl"> },
  by: CorrectionsApprover,
  submissionId: number,
  now: Date = new Date(),
): Promise<StoredOutcome> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    await lockSubmission(trx, submissionId);
    const submission = await findSubmissionById(trx, submissionId);
    if (!submission) throw notFound("The submission was removed.");

    let adminId: number | null = null;
    let examinationId: number | null = null;
    let examinerEmail: string | null = null;
    if ("adminId" in by) {
      adminId = by.adminId;
    } else {
      const examination = await findExamination(trx, by.examinationId);
      if (
        !examination ||
        examination.submissionId !== submissionId ||
        examination.role !== "internal" ||
        examination.state === "replaced"
      ) {
        throw forbidden("Only the internal examiner of this thesis can confirm its corrections.");
      }
      examinationId = examination.id;
      examinerEmail = examination.examiner.email;
    }

    const { outcome, thesis, state } = await readCorrections(trx, submissionId);
    switch (state) {
      case "not_needed":
        throw conflict(
          outcome
            ? `The outcome released (${RECOMMENDATION_LABELS[outcome.decision]}) asks for no corrections.`
            : "No outcome has been released for this thesis yet, so there are no corrections to approve.",
        );
      case "approved":
        throw conflict(
          `The corrections were already approved on ${outcome?.correctionsApprovedAt?.slice(0, 10) ?? "an earlier day"}.`,
        );
      case "to_upload":
        throw conflict(
          "The student has not uploaded the corrected thesis yet; the corrections can be approved once they have.",
        );
      case "to_confirm":
        break;
    }
    if (!outcome || !thesis) throw conflict("There is no corrected thesis to approve.");

    await setCorrectionsApproved(trx, submissionId, { at, adminId, examinationId });
    await markThesisVersionAccepted(trx, thesis.documentId, adminId, at);
    const moved = await moveRecord(
      trx,
      ctx.config,
      submissionId,
      { thesisStatus: CORRECTIONS_APPROVED_STATUS },
      adminId,
      at,
    );
    await recordExaminationEvent(trx, {
      submissionId,
      actor: adminId,
      at,
      field: "examination.outcome",
      from: RECOMMENDATION_LABELS[outcome.decision],
      to: CORRECTIONS_APPROVED_STATUS,
      kind: "corrections",
    });
    await notifyOutcome(trx, ctx.config, moved, { kind: "corrections_approved" }, adminId, at);
    await recordAudit(
      trx,
      {
        event: "examiner.corrections_approved",
        actorUserId: adminId,
        subject: examinerEmail,
        details: {
          indexNumber: submission.indexNumber,
          examinationId,
          thesisVersion: thesis.version,
          ...("note" in by && by.note ? { note: by.note } : {}),
        },
      },
      now,
    );
    const saved = await findOutcome(trx, submissionId);
    if (!saved) throw notFound("The outcome was removed.");
    return saved;
  });
}

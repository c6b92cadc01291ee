import type { FinancialClearance } from "../../common/api-tokens.js";
import type { Submission } from "../../common/submission.js";
import type { SessionUser } from "../auth/session.js";
import { nowIso } from "../db/database.js";
import { conflict, notFound } from "../errors.js";
import { applyChanges, diffFields, eventsFor, fieldsOf } from "./changes.js";
import { insertMessage, mailStudent } from "./notices.js";
import {
  findSubmissionByIndexNumber,
  insertSubmissionEvents,
  updateSubmissionFields,
} from "./repository.js";
import type { SubmissionContext } from "./service.js";

/**
 * The finance office's system sets a student's Financial Clearance (issue 21): the same change as
 * an administrator's edit of that checklist item (the record's version raised, one event per
 * changed field), plus which system did it and when, and a notice to the student in the same
 * transaction. Saying the same thing twice changes nothing and tells nobody again.
 */
export async function setFinancialClearance(
  ctx: SubmissionContext,
  actor: SessionUser,
  system: string,
  indexNumber: string,
  input: FinancialClearance,
  now: Date = new Date(),
): Promise<Submission> {
  const at = nowIso(now);
  const clearedOn = input.clearedOn ?? at.slice(0, 10);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await findSubmissionByIndexNumber(trx, indexNumber);
    if (!current) throw notFound(`No submission has the index number ${indexNumber}.`);
    const before = fieldsOf(current);
    const after = applyChanges(before, {
      documents: {
        financialClearance: input.cleared
          ? { submitted: true, receivedOn: clearedOn }
          : { submitted: false },
      },
    });
    const changes = diffFields(before, after);
    if (changes.length === 0) return current;

    const saved = await updateSubmissionFields(trx, current.id, after, at, current.version);
    if (!saved) {
      throw conflict(
        `Submission ${indexNumber} was saved by someone else at the same moment; nothing was changed. Send the request again.`,
      );
    }
    let result = saved;
    if (input.cleared) {
      await trx
        .updateTable("submissions")
        .set({ financial_clearance_by: system, financial_clearance_by_at: at })
        .where("id", "=", saved.id)
        .execute();
      result = { ...saved, financialClearanceBy: { system, at } };
    }
    await insertSubmissionEvents(trx, eventsFor(saved.id, changes, "edit", actor.id, at, false));

    const title = input.cleared ? "Financial Clearance received" : "Financial Clearance withdrawn";
    const body = input.cleared
      ? `Your Financial Clearance for your thesis submission (${indexNumber}) was recorded on ${clearedOn} by the finance office's system (${system}).`
      : `The finance office's system (${system}) has withdrawn the Financial Clearance of your thesis submission (${indexNumber}). Please contact the finance office.`;
    await insertMessage(trx, { submissionId: saved.id, title, body, createdBy: actor.id, at });
    await mailStudent(trx, ctx.config, saved, `ETS Tracking: ${title}`, body, {
      name: "financial_clearance",
      params: { indexNumber, cleared: input.cleared, system },
    });
    return result;
  });
}

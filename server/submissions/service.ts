import type { Submission } from "../../common/submission.js";
import type {
  BulkUpdate,
  SubmissionInput,
  SubmissionListQuery,
  SubmissionUpdate,
  TimelineItem,
  WorkflowMove,
} from "../../common/submissions-api.js";
import type { SessionUser } from "../auth/session.js";
import { canReadSubmission } from "../auth/policy.js";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { isUniqueViolation } from "../db/dialect.js";
import { conflict, forbidden, notFound } from "../errors.js";
import {
  applyChanges,
  diffFields,
  eventsFor,
  fieldsFromInput,
  fieldsOf,
  outOfOrderMoves,
  type FieldChange,
} from "./changes.js";
import { notifyWorkflowChanges } from "./notices.js";
import { confirmationRequired, staleVersion } from "./problems.js";
import {
  countDocumentsToReview,
  findSubmissionById,
  findSubmissionByIndexNumber,
  findSubmissionsByIds,
  insertSubmission,
  insertSubmissionEvents,
  listSubmissionEvents,
  listSubmissions,
  updateSubmissionFields,
  type StoredSubmissionEvent,
  type SubmissionPage,
} from "./repository.js";
import { buildTimeline } from "./timeline.js";

/** What the services need from the app: the database, and the site's address for mail links. */
export interface SubmissionContext {
  db: Db;
  config: Pick<Config, "publicUrl">;
  /** Where a service reports what went wrong after its work was saved (the app's logger). */
  log?: Pick<FastifyBaseLogger, "warn">;
}

const NO_SUBMISSION =
  "No submission is on file for your index number yet. If you have handed in your thesis, please contact the School of Graduate Studies.";

/** The administrator's list: search, filters, sort and one page. The benchmark times this. */
export async function searchSubmissions(
  db: Executor,
  query: SubmissionListQuery,
): Promise<SubmissionPage> {
  return listSubmissions(db, query);
}

export async function getSubmission(db: Executor, id: number): Promise<Submission> {
  const submission = await findSubmissionById(db, id);
  if (!submission) throw notFound("There is no submission with this id.");
  return submission;
}

function duplicateIndexNumber(indexNumber: string) {
  return conflict(`A submission with the index number ${indexNumber} already exists.`, [
    { field: "indexNumber", message: "is already used by another submission" },
  ]);
}

/** The new_submission form: one submission and its "create" event. */
export async function createSubmission(
  ctx: SubmissionContext,
  admin: SessionUser,
  input: SubmissionInput,
): Promise<Submission> {
  const fields = fieldsFromInput(input);
  const at = nowIso();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (await findSubmissionByIndexNumber(trx, fields.indexNumber)) {
        throw duplicateIndexNumber(fields.indexNumber);
      }
      const created = await insertSubmission(trx, fields, at);
      await insertSubmissionEvents(trx, [
        {
          submissionId: created.id,
          actorUserId: admin.id,
          at,
          field: "submission",
          from: null,
          to: created.indexNumber,
          kind: "create",
          confirmedOutOfOrder: false,
        },
      ]);
      return created;
    });
  } catch (error) {
    // Two administrators adding the same index number at once: the unique index decides.
    if (isUniqueViolation(error)) throw duplicateIndexNumber(fields.indexNumber);
    throw error;
  }
}

/** The stale-version conflict, carrying the record as it is now, its count chip included. */
async function staleVersionOf(db: Executor, current: Submission) {
  const toReview = await countDocumentsToReview(db, [current.id]);
  return staleVersion(current, toReview.get(current.id) ?? 0);
}

/**
 * Edits a submission. Refuses a stale version (someone saved since the administrator loaded it)
 * and, unless confirmed, moves that skip or reverse the flow; in both cases nothing is written.
 * The new values, one event per changed field and the student's notice share one transaction.
 */
export async function updateSubmission(
  ctx: SubmissionContext,
  admin: SessionUser,
  id: number,
  update: SubmissionUpdate,
): Promise<Submission> {
  const at = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    const current = await getSubmission(trx, id);
    if (current.version !== update.version) throw await staleVersionOf(trx, current);
    const before = fieldsOf(current);
    const after = applyChanges(before, update.changes);
    const changes = diffFields(before, after);
    if (changes.length === 0) return current;
    const confirmed = update.confirmOutOfOrder === true;
    const moves = outOfOrderMoves(id, changes);
    if (moves.length > 0 && !confirmed) throw confirmationRequired(moves);

    const saved = await updateSubmissionFields(trx, id, after, at, update.version);
    // Another transaction saved between our read and our write.
    if (!saved) throw await staleVersionOf(trx, await getSubmission(trx, id));
    await recordChanges(trx, ctx, saved, changes, "edit", admin.id, at, confirmed);
    return saved;
  });
}

/**
 * Sets a stage or examiner state on many submissions at once, in one transaction: every
 * submission gets its own events and notice, and a failure anywhere leaves all of them as they were.
 */
export async function bulkUpdateSubmissions(
  ctx: SubmissionContext,
  admin: SessionUser,
  bulk: BulkUpdate,
): Promise<{ updated: number; items: Submission[] }> {
  const ids = [...new Set(bulk.ids)];
  const confirmed = bulk.confirmOutOfOrder === true;
  const at = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    const found = await findSubmissionsByIds(trx, ids);
    const missing = ids.filter((id) => !found.some((s) => s.id === id));
    if (missing.length > 0) {
      throw notFound(`No submission has the id ${missing.join(", ")}; nothing was changed.`);
    }

    const plans = found.map((submission) => {
      const before = fieldsOf(submission);
      const after = {
        ...before,
        sgsStage: bulk.set.sgsStage === undefined ? before.sgsStage : bulk.set.sgsStage,
        internalExaminer:
          bulk.set.internalExaminer === undefined
            ? before.internalExaminer
            : bulk.set.internalExaminer,
        externalExaminer:
          bulk.set.externalExaminer === undefined
            ? before.externalExaminer
            : bulk.set.externalExaminer,
      };
      return { submission, after, changes: diffFields(before, after) };
    });
    const moves: WorkflowMove[] = plans.flatMap((p) => outOfOrderMoves(p.submission.id, p.changes));
    if (moves.length > 0 && !confirmed) throw confirmationRequired(moves);

    const items: Submission[] = [];
    let updated = 0;
    for (const plan of plans) {
      if (plan.changes.length === 0) {
        items.push(plan.submission);
        continue;
      }
      const saved = await updateSubmissionFields(trx, plan.submission.id, plan.after, at, null);
      if (!saved)
        throw notFound(`Submission ${plan.submission.id} was removed; nothing was changed.`);
      await recordChanges(trx, ctx, saved, plan.changes, "bulk", admin.id, at, confirmed);
      items.push(saved);
      updated += 1;
    }
    return { updated, items };
  });
}

/** Events for a change set and the student's notice about its workflow moves. */
export async function recordChanges(
  trx: Executor,
  ctx: SubmissionContext,
  saved: Submission,
  changes: FieldChange[],
  source: "edit" | "bulk" | "import",
  actorUserId: number | null,
  at: string,
  confirmed: boolean,
): Promise<void> {
  await insertSubmissionEvents(
    trx,
    eventsFor(saved.id, changes, source, actorUserId, at, confirmed),
  );
  await notifyWorkflowChanges(trx, ctx.config, saved, changes, actorUserId, at);
}

export async function submissionEvents(db: Executor, id: number): Promise<StoredSubmissionEvent[]> {
  await getSubmission(db, id);
  return listSubmissionEvents(db, id);
}

/** The dated milestones of a submission, for its student or an administrator. */
export async function submissionTimeline(
  db: Executor,
  user: SessionUser,
  indexNumber: string,
): Promise<TimelineItem[]> {
  // Checked before the lookup, so a student learns nothing about other index numbers.
  if (!canReadSubmission(user, indexNumber)) throw forbidden();
  const submission = await findSubmissionByIndexNumber(db, indexNumber);
  if (!submission) throw notFound(NO_SUBMISSION);
  return buildTimeline(submission, await listSubmissionEvents(db, submission.id));
}

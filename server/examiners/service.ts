import type { Readable } from "node:stream";
import {
  CORRECTION_OUTCOMES,
  EXAMINER_KIND_LABELS,
  RECOMMENDATION_LABELS,
  type AdminExaminationResponse,
  type ExaminationChanges,
  type ExaminerChanges,
  type ExaminerInput,
  type ExaminerKind,
  type ExaminerListQuery,
  type ExaminerListResponse,
  type ExaminerRecord,
  type NominationInput,
  type OutcomeInput,
  type SendInput,
  type StudentExamination,
} from "../../common/examiners.js";
import type { Submission } from "../../common/submission.js";
import {
  EXAMINERS,
  SGS_STAGE_LABELS,
  skippedSgsStages,
  type SgsStage,
} from "../../common/workflow.js";
import { recordAudit, type AuditEntry } from "../accounts/audit.js";
import { canReadSubmission } from "../auth/policy.js";
import type { SessionUser } from "../auth/session.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { isUniqueViolation } from "../db/dialect.js";
import { conflict, forbidden, notFound, validationError } from "../errors.js";
import { FileMissingError, type FileStorage } from "../files/storage.js";
import { notifyOutcome } from "../messages/service.js";
import { confirmationRequired } from "../submissions/problems.js";
import { findSubmissionByIndexNumber, lockSubmission } from "../submissions/repository.js";
import { issueLink, type IssuedLink } from "./links.js";
import { correctionsReadyMail, examinerInvitationMail, type ExaminerMailInput } from "./mail.js";
import { approveCorrections, readCorrections } from "./outcome.js";
import {
  presentExamination,
  presentExaminer,
  presentOutcome,
  presentStudentExamination,
} from "./presenter.js";
import {
  countOpenExaminations,
  findCurrentThesis,
  findExamination,
  findExaminerByEmail,
  findExaminerById,
  findOutcome,
  insertExamination,
  insertExaminer,
  insertOutcome,
  listCurrentExaminations,
  listExaminers,
  listReminders,
  listReplacedExaminations,
  markExaminationReplaced,
  revokeExaminationLinks,
  updateExaminationDueOn,
  updateExaminer,
  type CurrentThesis,
  type StoredExamination,
  type StoredExaminer,
  type StoredReport,
} from "./repository.js";
import {
  examinerField,
  moveRecord,
  recordExaminationEvent,
  type RecordMove,
} from "./transitions.js";

/**
 * The administrators' side of the examination (issue 9): the examiner list, nominating and
 * replacing examiners, sending their links, the due date, revoking a link, the released outcome,
 * and what the student reads. Each change is one transaction with its timeline event, its audit
 * row and its mail in the outbox; the record's workflow fields move through `moveRecord`.
 */

export interface ExaminerContext {
  db: Db;
  config: Pick<Config, "publicUrl" | "contactEmail" | "examiners">;
}

/** Who acts: the signed-in administrator (only the id is recorded). */
export type Admin = Pick<SessionUser, "id">;

export type AdminExamination = AdminExaminationResponse["data"];

/** Replaced examinations shown with a submission's examination. */
const REPLACED_LIMIT = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

const noSubmission = (indexNumber: string) =>
  notFound(`No submission has the index number ${indexNumber}.`);
const noExaminer = (id: number) => notFound(`There is no examiner with id ${id}.`);
const NO_EXAMINATION = "There is no examination with this id.";
const roleName = (role: ExaminerKind) => `${EXAMINER_KIND_LABELS[role].toLowerCase()} examiner`;

// ---------------------------------------------------------------------------------------------
// Examiner records

export async function listExaminerRecords(
  ctx: Pick<ExaminerContext, "db">,
  query: ExaminerListQuery,
): Promise<ExaminerListResponse> {
  const { items, total } = await listExaminers(
    ctx.db,
    { q: query.q, kind: query.kind, active: query.active },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return { items: items.map(presentExaminer), total, page: query.page, pageSize: query.pageSize };
}

async function examinerRecord(db: Executor, id: number): Promise<ExaminerRecord> {
  const examiner = await findExaminerById(db, id);
  if (!examiner) throw noExaminer(id);
  return presentExaminer({ ...examiner, openExaminations: await countOpenExaminations(db, id) });
}

const emailTaken = (email: string) =>
  conflict(`An examiner with the email ${email.toLowerCase()} is already on the list.`, [
    { field: "email", message: `${email.toLowerCase()} is already on the list` },
  ]);

/** Adds an examiner; the email (stored in lower case) must not be on the list yet. */
export async function addExaminer(
  ctx: Pick<ExaminerContext, "db">,
  admin: Admin,
  input: ExaminerInput,
  now: Date = new Date(),
): Promise<ExaminerRecord> {
  const at = nowIso(now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (await findExaminerByEmail(trx, input.email)) throw emailTaken(input.email);
      const id = await insertExaminer(trx, { ...input, createdBy: admin.id, at });
      await recordAudit(
        trx,
        {
          event: "examiner.created",
          actorUserId: admin.id,
          subject: input.email.toLowerCase(),
          details: { examinerId: id, kind: input.kind },
        },
        now,
      );
      return examinerRecord(trx, id);
    });
  } catch (error) {
    // Two administrators adding the same address at once: the unique index decides.
    if (isUniqueViolation(error)) throw emailTaken(input.email);
    throw error;
  }
}

/**
 * Changes an examiner's fields. Their kind cannot change while they hold open examinations (the
 * role they hold needs that kind); `active: false` only hides them from new nominations, their
 * current examinations and links go on.
 */
export async function changeExaminer(
  ctx: Pick<ExaminerContext, "db">,
  admin: Admin,
  id: number,
  changes: ExaminerChanges,
  now: Date = new Date(),
): Promise<ExaminerRecord> {
  const at = nowIso(now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const examiner = await findExaminerById(trx, id);
      if (!examiner) throw noExaminer(id);
      const changed = changedFields(examiner, changes);
      if (changed.length === 0) return examinerRecord(trx, id);
      if (changes.email !== undefined && changed.includes("email")) {
        const other = await findExaminerByEmail(trx, changes.email);
        if (other && other.id !== id) throw emailTaken(changes.email);
      }
      if (changes.kind !== undefined && changed.includes("kind")) {
        const open = await countOpenExaminations(trx, id);
        if (open > 0) {
          throw conflict(
            `${examiner.name} is ${roleName(examiner.kind)} on ${open} open examination${open === 1 ? "" : "s"}; replace them there before changing their kind.`,
            [{ field: "kind", message: "cannot change while they hold open examinations" }],
          );
        }
      }
      await updateExaminer(trx, id, changes, at);
      await recordAudit(
        trx,
        {
          event: "examiner.updated",
          actorUserId: admin.id,
          subject: (changes.email ?? examiner.email).toLowerCase(),
          details: { examinerId: id, changed: changed.join(",") },
        },
        now,
      );
      return examinerRecord(trx, id);
    });
  } catch (error) {
    if (isUniqueViolation(error) && changes.email !== undefined) throw emailTaken(changes.email);
    throw error;
  }
}

function changedFields(examiner: StoredExaminer, changes: ExaminerChanges): string[] {
  const changed: string[] = [];
  if (changes.name !== undefined && changes.name !== examiner.name) changed.push("name");
  if (changes.email !== undefined && changes.email.toLowerCase() !== examiner.email) {
    changed.push("email");
  }
  if (changes.institution !== undefined && changes.institution !== examiner.institution) {
    changed.push("institution");
  }
  if (changes.kind !== undefined && changes.kind !== examiner.kind) changed.push("kind");
  if (changes.active !== undefined && changes.active !== examiner.active) changed.push("active");
  return changed;
}

// ---------------------------------------------------------------------------------------------
// A submission's examination (the administrators' view)

/** Why "Send to examiners" cannot run for these examinations, or null when it can. */
export function sendBlockedReason(
  current: StoredExamination[],
  thesis: CurrentThesis | null,
  roles?: readonly ExaminerKind[],
): string | null {
  const missing = EXAMINERS.filter((role) => !current.some((e) => e.role === role));
  if (missing.length > 0) {
    return `Nominate ${missing.length === 2 ? "an internal and an external examiner" : `the ${roleName(missing[0] ?? "internal")}`} before sending.`;
  }
  if (!thesis) {
    return "The student has not uploaded the thesis yet: examiners download the uploaded PDF.";
  }
  if (thesis.reviewState === "returned") {
    return "The current thesis upload was returned to the student: wait for the new version.";
  }
  if (!roles && !current.some((e) => e.state === "nominated")) {
    return "Both examiners have been sent their links. To send one of them a new link, send to that examiner alone.";
  }
  return null;
}

async function buildView(db: Executor, submission: Pick<Submission, "id" | "indexNumber">) {
  const [current, replaced, thesis, corrections] = await Promise.all([
    listCurrentExaminations(db, submission.id),
    listReplacedExaminations(db, submission.id, REPLACED_LIMIT),
    findCurrentThesis(db, submission.id),
    readCorrections(db, submission.id),
  ]);
  const reminders = await listReminders(
    db,
    [...current, ...replaced].map((e) => e.id),
  );
  const of = (role: ExaminerKind) => {
    const examination = current.find((e) => e.role === role);
    return examination ? presentExamination(examination, reminders) : null;
  };
  const blocked = sendBlockedReason(current, thesis);
  const { outcome } = corrections;
  const view: AdminExamination = {
    submissionId: submission.id,
    indexNumber: submission.indexNumber,
    internal: of("internal"),
    external: of("external"),
    replaced: replaced.map((e) => presentExamination(e, reminders)),
    canSend: blocked === null,
    sendBlockedReason: blocked,
    canReleaseOutcome: outcome === null && reportsMissing(current).length === 0,
    outcome: outcome ? presentOutcome(outcome, corrections.state) : null,
  };
  return view;
}

/** The roles whose current examination has no report yet. */
function reportsMissing(current: StoredExamination[]): ExaminerKind[] {
  return EXAMINERS.filter((role) => !current.find((e) => e.role === role)?.report);
}

export async function getExamination(
  ctx: Pick<ExaminerContext, "db">,
  indexNumber: string,
): Promise<AdminExamination> {
  const submission = await findSubmissionByIndexNumber(ctx.db, indexNumber);
  if (!submission) throw noSubmission(indexNumber);
  return buildView(ctx.db, submission);
}

/** The submission by index number, locked for the rest of the transaction. */
async function lockedSubmission(trx: Executor, indexNumber: string): Promise<Submission> {
  const found = await findSubmissionByIndexNumber(trx, indexNumber);
  if (!found) throw noSubmission(indexNumber);
  await lockSubmission(trx, found.id);
  const submission = await findSubmissionByIndexNumber(trx, indexNumber);
  if (!submission) throw noSubmission(indexNumber);
  return submission;
}

// ---------------------------------------------------------------------------------------------
// Nomination

/**
 * Nominates an examiner for a role, or replaces the current one: the replaced examination ends
 * ("replaced") and its links stop working at once. When both roles are filled and the record is
 * "Sent to Department", it moves on to "Nominations Ready" (only from there: an earlier stage
 * means the department has not had the thesis yet, a later one has already moved past).
 */
export async function nominateExaminer(
  ctx: ExaminerContext,
  admin: Admin,
  indexNumber: string,
  role: ExaminerKind,
  input: NominationInput,
  now: Date = new Date(),
): Promise<AdminExamination> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    const submission = await lockedSubmission(trx, indexNumber);
    const examiner = await findExaminerById(trx, input.examinerId);
    if (!examiner) {
      throw validationError("examinerId", `there is no examiner with id ${input.examinerId}`);
    }
    if (!examiner.active) {
      throw validationError(
        "examinerId",
        `${examiner.name} is marked inactive; reactivate them in the examiner list before nominating them`,
      );
    }
    if (examiner.kind !== role) {
      throw validationError(
        "examinerId",
        `${examiner.name} is an ${roleName(examiner.kind)}; the ${roleName(role)} must be an ${EXAMINER_KIND_LABELS[role].toLowerCase()} examiner`,
      );
    }
    const current = await listCurrentExaminations(trx, submission.id);
    const mine = current.find((e) => e.role === role) ?? null;
    const other = current.find((e) => e.role !== role) ?? null;
    if (other?.examiner.id === examiner.id) {
      throw validationError(
        "examinerId",
        `${examiner.name} is already the ${roleName(other.role)} of this thesis; one examiner cannot hold both roles`,
      );
    }
    if (mine?.examiner.id === examiner.id) {
      throw conflict(`${examiner.name} is already the ${roleName(role)} of this thesis.`);
    }
    if (mine && (await findOutcome(trx, submission.id))) {
      throw conflict(
        "The outcome of this examination has been released; its examiners can no longer be replaced.",
      );
    }

    const move: RecordMove = {};
    if (mine) {
      await markExaminationReplaced(trx, mine.id, admin.id, at);
      // The record mirrors the examination: the new examiner has nothing yet.
      if (mine.state !== "nominated") move[examinerField(role)] = null;
    }
    const id = await insertExamination(trx, {
      submissionId: submission.id,
      examinerId: examiner.id,
      role,
      nominatedBy: admin.id,
      at,
    });
    if (other && submission.sgsStage === "sent_to_department") move.sgsStage = "nominations_ready";
    if (Object.keys(move).length > 0) {
      await moveRecord(trx, ctx.config, submission.id, move, admin.id, at);
    }
    // Examiner names are for the administrators' history; the student's timeline skips these.
    await recordExaminationEvent(trx, {
      submissionId: submission.id,
      actor: admin.id,
      at,
      field: `examination.${role}`,
      from: mine?.examiner.name ?? null,
      to: examiner.name,
      kind: mine ? "replace" : "nominate",
    });
    await recordAudit(
      trx,
      {
        event: mine ? "examiner.replaced" : "examiner.nominated",
        actorUserId: admin.id,
        subject: examiner.email,
        details: {
          indexNumber: submission.indexNumber,
          role,
          examinationId: id,
          examinerId: examiner.id,
          ...(mine ? { replacedExaminationId: mine.id, replacedExaminerId: mine.examiner.id } : {}),
        },
      },
      now,
    );
    return buildView(trx, submission);
  });
}

// ---------------------------------------------------------------------------------------------
// Links

/** YYYY-MM-DD, `days` after `now` (UTC). */
function dayAfter(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

function mailInput(
  config: ExaminerContext["config"],
  submission: Pick<Submission, "thesisTitle" | "programme">,
  examination: StoredExamination,
  link: IssuedLink,
  dueOn: string,
): ExaminerMailInput {
  return {
    to: examination.examiner.email,
    examinerName: examination.examiner.name,
    role: examination.role,
    thesisTitle: submission.thesisTitle,
    programme: submission.programme,
    link: link.url,
    dueOn,
    linkExpiresAt: link.expiresAt,
    schoolContact: config.contactEmail,
  };
}

export interface SentLinks {
  view: AdminExamination;
  /** The raw tokens, for tests and the caller's own use; never stored, logged or answered. */
  tokens: Partial<Record<ExaminerKind, string>>;
}

/**
 * "Send to examiners": each examination sent gets a new link (its earlier ones keep working until
 * they expire or are revoked), a due date (kept when it had one), the invitation mail in the outbox, and the record
 * moves to "Sent to Examiners" with that examiner "Awaiting" (never moved back from "Received"
 * or "Report Submitted"). Without `roles`: every examination only nominated so far.
 */
export async function sendToExaminers(
  ctx: ExaminerContext,
  admin: Admin,
  indexNumber: string,
  input: SendInput,
  now: Date = new Date(),
): Promise<SentLinks> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    const submission = await lockedSubmission(trx, indexNumber);
    const [current, thesis] = await Promise.all([
      listCurrentExaminations(trx, submission.id),
      findCurrentThesis(trx, submission.id),
    ]);
    const roles = input.roles ? [...new Set(input.roles)] : undefined;
    const blocked = sendBlockedReason(current, thesis, roles);
    if (blocked) throw conflict(blocked);
    const targets = roles
      ? current.filter((e) => roles.includes(e.role))
      : current.filter((e) => e.state === "nominated");
    const skipped = skippedSgsStages(submission.sgsStage, "sent_to_examiners");
    const confirmed = input.confirmOutOfOrder === true && skipped.length > 0;
    if (skipped.length > 0 && !confirmed) throw sendSkipsStages(submission, skipped);

    const tokens: SentLinks["tokens"] = {};
    const move: RecordMove = { sgsStage: "sent_to_examiners" };
    for (const examination of targets) {
      const dueOn = examination.dueOn ?? dayAfter(now, ctx.config.examiners.reportDueDays);
      const resend = examination.state !== "nominated";
      const link = await issueLink(
        trx,
        ctx.config,
        examination.id,
        "invitation",
        (issued) =>
          examinerInvitationMail(mailInput(ctx.config, submission, examination, issued, dueOn)),
        now,
        { dueOn, state: resend ? examination.state : "sent" },
      );
      if (submission[examinerField(examination.role)] === null) {
        move[examinerField(examination.role)] = "awaiting";
      }
      await recordExaminationChange(
        trx,
        admin,
        examination,
        {
          from: examination.state,
          to: resend ? examination.state : "sent",
          kind: "send",
          audit: "examiner.link_sent",
          details: {
            indexNumber: submission.indexNumber,
            role: examination.role,
            examinationId: examination.id,
            resend,
            dueOn,
            expiresAt: link.expiresAt,
          },
        },
        now,
      );
      tokens[examination.role] = link.token;
    }
    await moveRecord(trx, ctx.config, submission.id, move, admin.id, at, confirmed);
    return { view: await buildView(trx, submission), tokens };
  });
}

/**
 * Sending moves the record to "Sent to Examiners"; from an earlier stage than "Nominations
 * Ready" that skips stages, which the student's status then shows completed. As a manual skip
 * does, it needs the administrator's confirmation (confirmOutOfOrder), and the 409 names them.
 */
function sendSkipsStages(submission: Submission, skipped: SgsStage[]) {
  const from = submission.sgsStage ? SGS_STAGE_LABELS[submission.sgsStage] : "Not started";
  const names = skipped.map((stage) => SGS_STAGE_LABELS[stage]);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return confirmationRequired(
    [
      {
        submissionId: submission.id,
        field: "sgsStage",
        from: submission.sgsStage,
        to: "sent_to_examiners",
        kind: "skip",
      },
    ],
    `Sending moves this record from ${from} to ${SGS_STAGE_LABELS.sent_to_examiners}, skipping ${list}: the student will see ${names.length === 1 ? "it" : "them"} as completed. Confirm to send.`,
  );
}

/**
 * After the student uploads the corrected thesis: the internal examiner is mailed a fresh link
 * (the tokens are stored only hashed, so an old one cannot be mailed again). It works `linkDays`
 * from now beside the earlier links, so an examiner whose links expired while the student
 * corrected can open the page again; links an administrator revoked are respected (no mail: the
 * school confirms instead).
 * Call it in the upload's transaction. Returns the token mailed, or null when none was.
 */
export async function mailCorrectionsReady(
  trx: Executor,
  config: ExaminerContext["config"],
  submission: Pick<Submission, "id" | "indexNumber" | "thesisTitle" | "programme">,
  now: Date = new Date(),
): Promise<string | null> {
  const at = nowIso(now);
  const internal = (await listCurrentExaminations(trx, submission.id)).find(
    (e) => e.role === "internal",
  );
  if (!internal?.hasLink || internal.linkRevokedAt !== null) return null;
  const link = await issueLink(
    trx,
    config,
    internal.id,
    "corrections",
    (issued) =>
      correctionsReadyMail(
        mailInput(config, submission, internal, issued, internal.dueOn ?? at.slice(0, 10)),
      ),
    now,
  );
  await recordAudit(
    trx,
    {
      event: "examiner.link_sent",
      actorUserId: null,
      subject: internal.examiner.email,
      details: {
        indexNumber: submission.indexNumber,
        role: "internal",
        examinationId: internal.id,
        reason: "corrections",
        expiresAt: link.expiresAt,
      },
    },
    now,
  );
  return link.token;
}

/**
 * The examination by id, with its submission locked; a replaced one is refused with
 * `ifReplaced`, since only the current examination of a role can still change.
 */
async function lockedExamination(
  trx: Executor,
  id: number,
  ifReplaced: string,
): Promise<StoredExamination> {
  const found = await findExamination(trx, id);
  if (!found) throw notFound(NO_EXAMINATION);
  await lockSubmission(trx, found.submissionId);
  const examination = await findExamination(trx, id);
  if (!examination) throw notFound(NO_EXAMINATION);
  if (examination.state === "replaced") throw conflict(ifReplaced);
  return examination;
}

/**
 * An administrator's change to one examination: its event on the submission's timeline and the
 * audit row about its examiner, written together so neither is forgotten.
 */
interface ExaminationChange {
  from: string | null;
  to: string;
  kind: string;
  audit: AuditEntry["event"];
  details: AuditEntry["details"];
}

async function recordExaminationChange(
  trx: Executor,
  admin: Admin,
  examination: StoredExamination,
  change: ExaminationChange,
  now: Date,
): Promise<void> {
  await recordExaminationEvent(trx, {
    submissionId: examination.submissionId,
    actor: admin.id,
    at: nowIso(now),
    field: `examination.${examination.role}`,
    from: change.from,
    to: change.to,
    kind: change.kind,
  });
  await recordAudit(
    trx,
    {
      event: change.audit,
      actorUserId: admin.id,
      subject: examination.examiner.email,
      details: change.details,
    },
    now,
  );
}

async function viewOf(trx: Executor, submissionId: number): Promise<AdminExamination> {
  const row = await trx
    .selectFrom("submissions")
    .select(["id", "index_number"])
    .where("id", "=", submissionId)
    .executeTakeFirst();
  if (!row) throw notFound("The submission was removed.");
  return buildView(trx, { id: row.id, indexNumber: row.index_number });
}

/**
 * An administrator's change to the current examination of a role, in one transaction: the
 * examination locked with its submission (a replaced one refused with `ifReplaced`), the change
 * `apply` writes (null when there is nothing to change), its timeline event and audit row, and
 * the view after it.
 */
async function changeExamination(
  ctx: ExaminerContext,
  admin: Admin,
  examinationId: number,
  ifReplaced: string,
  now: Date,
  apply: (
    trx: Executor,
    examination: StoredExamination,
    at: string,
  ) => Promise<ExaminationChange | null>,
): Promise<AdminExamination> {
  return ctx.db.transaction().execute(async (trx) => {
    const examination = await lockedExamination(trx, examinationId, ifReplaced);
    const change = await apply(trx, examination, nowIso(now));
    if (change) await recordExaminationChange(trx, admin, examination, change, now);
    return viewOf(trx, examination.submissionId);
  });
}

/**
 * Revokes every link of an examination at once (the invitation's, the reminders', the
 * corrections'); sending to that examiner again gives a new one.
 */
export function revokeLink(
  ctx: ExaminerContext,
  admin: Admin,
  examinationId: number,
  now: Date = new Date(),
): Promise<AdminExamination> {
  const ifReplaced = "This examiner was replaced; their link already stopped working.";
  return changeExamination(ctx, admin, examinationId, ifReplaced, now, async (trx, e, at) => {
    if (!e.hasLink) throw conflict("No link has been sent to this examiner yet.");
    if (e.linkRevokedAt !== null) {
      throw conflict(`This link was already revoked on ${e.linkRevokedAt.slice(0, 10)}.`);
    }
    await revokeExaminationLinks(trx, e.id, at);
    return {
      from: e.state,
      to: "link revoked",
      kind: "revoke",
      audit: "examiner.link_revoked",
      details: { examinationId: e.id, role: e.role },
    };
  });
}

/** Changes an examination's due date (today or later; the reminders follow the new date). */
export function changeDueDate(
  ctx: ExaminerContext,
  admin: Admin,
  examinationId: number,
  changes: ExaminationChanges,
  now: Date = new Date(),
): Promise<AdminExamination> {
  const ifReplaced = "This examiner was replaced; change the due date of the current one.";
  const { dueOn } = changes;
  return changeExamination(ctx, admin, examinationId, ifReplaced, now, async (trx, e, at) => {
    if (e.report) throw conflict("This examiner's report is in; there is no due date to change.");
    // The shared schema checks the form; JavaScript's Date reads 2030-02-30 as 2 March.
    if (new Date(`${dueOn}T00:00:00Z`).toISOString().slice(0, 10) !== dueOn) {
      throw validationError("dueOn", "must be a real date");
    }
    if (dueOn < at.slice(0, 10)) throw validationError("dueOn", "must be today or later");
    if (dueOn === e.dueOn) return null;
    await updateExaminationDueOn(trx, e.id, dueOn, at);
    return {
      from: e.dueOn,
      to: dueOn,
      kind: "due_date",
      audit: "examiner.due_date_changed",
      details: { examinationId: e.id, from: e.dueOn, to: dueOn },
    };
  });
}

/** An examiner's report PDF, for an administrator. */
export async function openReport(
  ctx: { db: Db; storage: FileStorage },
  admin: Admin,
  examinationId: number,
  log: { error(details: object, message: string): void },
): Promise<{ report: StoredReport; stream: Readable; size: number }> {
  const examination = await findExamination(ctx.db, examinationId);
  if (!examination) throw notFound(NO_EXAMINATION);
  const { report } = examination;
  if (!report) throw notFound("This examiner has not uploaded a report.");
  let file: { stream: Readable; size: number };
  try {
    file = await ctx.storage.read(report.sha256);
  } catch (error) {
    if (error instanceof FileMissingError) {
      log.error(
        { examinationId, sha256: report.sha256, storage: ctx.storage.kind },
        "an examiner report's stored file is missing",
      );
      throw notFound("The file is missing from the store; ask the person who runs the service.");
    }
    throw error;
  }
  await recordAudit(ctx.db, {
    event: "examiner.report_downloaded",
    actorUserId: admin.id,
    subject: examination.examiner.email,
    details: { examinationId, role: examination.role },
  });
  return { report, ...file };
}

// ---------------------------------------------------------------------------------------------
// The outcome

/**
 * Releases the outcome once both current examinations have their reports: the Thesis Status
 * becomes the decision's label and the student is told (with the corrections requested, which a
 * corrections decision must have and another decision must not).
 */
export async function releaseOutcome(
  ctx: ExaminerContext,
  admin: Admin,
  indexNumber: string,
  input: OutcomeInput,
  now: Date = new Date(),
): Promise<AdminExamination> {
  const at = nowIso(now);
  const corrections = input.corrections ?? null;
  const needsCorrections = CORRECTION_OUTCOMES.includes(input.decision);
  if (needsCorrections && corrections === null) {
    throw validationError(
      "corrections",
      `is required for ${RECOMMENDATION_LABELS[input.decision]}: write what the student must correct`,
    );
  }
  if (!needsCorrections && corrections !== null) {
    throw validationError("corrections", "only goes with Minor corrections or Major corrections");
  }
  return ctx.db.transaction().execute(async (trx) => {
    const submission = await lockedSubmission(trx, indexNumber);
    const existing = await findOutcome(trx, submission.id);
    if (existing) {
      throw conflict(
        `The outcome (${RECOMMENDATION_LABELS[existing.decision]}) was already released on ${existing.releasedAt.slice(0, 10)}.`,
      );
    }
    const missing = reportsMissing(await listCurrentExaminations(trx, submission.id));
    if (missing.length > 0) {
      throw conflict(
        `Both examiners' reports must be in before the outcome is released; still waiting for the ${missing.map(roleName).join(" and the ")}'s report.`,
      );
    }
    const thesis = await findCurrentThesis(trx, submission.id);
    await insertOutcome(trx, {
      submissionId: submission.id,
      decision: input.decision,
      corrections,
      releasedBy: admin.id,
      releasedAt: at,
      thesisVersionAtRelease: thesis?.version ?? null,
    });
    const label = RECOMMENDATION_LABELS[input.decision];
    const moved = await moveRecord(
      trx,
      ctx.config,
      submission.id,
      { thesisStatus: label },
      admin.id,
      at,
    );
    await recordExaminationEvent(trx, {
      submissionId: submission.id,
      actor: admin.id,
      at,
      field: "examination.outcome",
      from: null,
      to: label,
      kind: "outcome",
    });
    await notifyOutcome(
      trx,
      ctx.config,
      moved,
      { kind: "released", decision: input.decision, corrections },
      admin.id,
      at,
    );
    await recordAudit(
      trx,
      {
        event: "examination.outcome_released",
        actorUserId: admin.id,
        subject: null,
        details: {
          indexNumber: submission.indexNumber,
          decision: input.decision,
          thesisVersion: thesis?.version ?? null,
        },
      },
      now,
    );
    return buildView(trx, submission);
  });
}

/** An administrator approves the corrected thesis (outcome.ts holds the rule). */
export async function approveCorrectionsAsAdmin(
  ctx: ExaminerContext,
  admin: Admin,
  indexNumber: string,
  now: Date = new Date(),
): Promise<AdminExamination> {
  const submission = await findSubmissionByIndexNumber(ctx.db, indexNumber);
  if (!submission) throw noSubmission(indexNumber);
  await approveCorrections(ctx, { adminId: admin.id }, submission.id, now);
  return buildView(ctx.db, submission);
}

// ---------------------------------------------------------------------------------------------
// What the student reads

const NO_SUBMISSION_FOR_STUDENT =
  "No submission is on file for your index number yet. If you have handed in your thesis, please contact the School of Graduate Studies.";

/** The student's view of their examination: dates and the released outcome, never who examines. */
export async function getStudentExamination(
  ctx: Pick<ExaminerContext, "db">,
  user: SessionUser,
  indexNumber: string,
): Promise<StudentExamination> {
  // Checked before the lookup, so a student learns nothing about other index numbers.
  if (!canReadSubmission(user, indexNumber)) throw forbidden();
  const submission = await findSubmissionByIndexNumber(ctx.db, indexNumber);
  if (!submission) throw notFound(NO_SUBMISSION_FOR_STUDENT);
  const [current, corrections] = await Promise.all([
    listCurrentExaminations(ctx.db, submission.id),
    readCorrections(ctx.db, submission.id),
  ]);
  return presentStudentExamination(current, corrections.outcome, corrections.state);
}

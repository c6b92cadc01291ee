import {
  MAX_SENSITIVE_EMBARGO_YEARS,
  PUBLICATION_PAGE_SIZE,
  addMonths,
  adminMetadataInputSchema,
  embargoUntil,
  publicThesisPath,
  type AdminMetadataInput,
  type Degree,
  type DegreeChanges,
  type DegreeInput,
  type EmbargoDecisionInput,
  type EmbargoInput,
  type LicenceVersion,
  type PublicationState,
  type PublicationView,
  type StudentMetadataInput,
  type WithdrawInput,
  studentMetadataInputSchema,
} from "../../common/publication.js";
import { recordAudit } from "../accounts/audit.js";
import type { SessionUser } from "../auth/session.js";
import { canReadSubmission, isOwnSubmission } from "../auth/policy.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { isUniqueViolation } from "../db/dialect.js";
import { updateThesisDetails } from "../documents/repository.js";
import { enqueueWebhookEvent } from "../webhooks/events.js";
import { AppError, conflict, forbidden, notFound, validationError } from "../errors.js";
import { findSubmissionByIndexNumber, lockSubmission } from "../submissions/repository.js";
import type { Submission } from "../../common/submission.js";
import {
  dayOf,
  ensurePublication,
  filesArePublic,
  findCurrentLicence,
  findDegree,
  findLicenceVersion,
  findPublication,
  insertDegree,
  insertLicenceVersion,
  isThesisFinal,
  listDegrees,
  listLicenceVersions,
  touchPublishedWithDegree,
  updateDegree,
  updatePublication,
  type PublicationChanges,
  type StoredPublication,
} from "./repository.js";

/**
 * Publication's rules (issue 20, docs/decisions/020-publication.md). Each change runs in one
 * transaction with its audit row, under the submission's row lock, and ends by publishing the
 * record if every condition now holds (`publishIfReady`).
 *
 * Who may change what, and until when:
 * - the student: keywords, language, supervisors until the school confirms the metadata; the
 *   licence and the embargo until the record is published;
 * - the school: every field, and the confirmation, until the record is deposited (handle set);
 *   the sensitive embargo's approval; withdrawal of a published record.
 */

export interface Ctx {
  db: Db;
}

/** Who did it and from where: the audit log keeps both. */
export interface Actor {
  user: SessionUser;
  ip: string | null;
}

// ---------------------------------------------------------------------------------------------
// Reading

interface Loaded {
  submission: Submission;
  publication: StoredPublication | null;
}

async function loadByIndex(db: Executor, indexNumber: string): Promise<Loaded> {
  const submission = await findSubmissionByIndexNumber(db, indexNumber);
  if (!submission) throw notFound("No submission has that index number.");
  return { submission, publication: await findPublication(db, submission.id) };
}

/** What still stands between the record and publication, in the words the screens show. */
function missingFor(submission: Submission, p: StoredPublication | null, final: boolean): string[] {
  const missing: string[] = [];
  if (!final) missing.push("The thesis is not final yet (Pass, or corrections approved).");
  if (!submission.thesisTitle) missing.push("Title");
  if (!submission.thesisAbstract) missing.push("Abstract");
  if (!p || p.keywords.length === 0) missing.push("Keywords");
  if (!p?.language) missing.push("Language");
  if (!p || p.supervisors.length === 0) missing.push("Supervisors");
  if (!p?.degreeId) missing.push("Degree (the school's)");
  if (!p?.department) missing.push("Department (the school's)");
  if (!p?.awardDate) missing.push("Award date (the school's)");
  if (!p?.licenceAcceptedAt) missing.push("The licence, accepted by the student");
  if (!p?.embargoChoice) missing.push("The embargo choice");
  else if (p.embargoChoice === "sensitive" && p.embargoApproval !== "approved") {
    missing.push("The school's approval of the patent or sensitive embargo");
  }
  if (!p?.confirmedAt) missing.push("The school's confirmation of the metadata");
  return missing;
}

function stateOf(p: StoredPublication | null, final: boolean): PublicationState {
  if (p?.withdrawnAt) return "withdrawn";
  if (p?.publishedAt) return "published";
  if (p?.embargoChoice === "sensitive" && p.embargoApproval === "pending") {
    return "awaiting_approval";
  }
  return final ? "in_preparation" : "not_final";
}

async function toView(
  db: Executor,
  submission: Submission,
  p: StoredPublication | null,
  now: string,
): Promise<PublicationView> {
  const [final, degree, currentLicence] = await Promise.all([
    isThesisFinal(db, submission.id),
    p?.degreeId ? findDegree(db, p.degreeId) : Promise.resolve(null),
    findCurrentLicence(db),
  ]);
  const published = p?.publishedAt != null;
  return {
    submissionId: submission.id,
    state: stateOf(p, final),
    final,
    title: submission.thesisTitle,
    abstract: submission.thesisAbstract,
    keywords: p?.keywords ?? [],
    language: p?.language ?? null,
    degree,
    department: p?.department ?? null,
    programme: submission.programme,
    supervisors: (p?.supervisors ?? []).map((s) => ({ name: s.name, orcid: s.orcid ?? null })),
    examinationDate: p?.examinationDate ?? null,
    awardDate: p?.awardDate ?? null,
    confirmedAt: p?.confirmedAt ?? null,
    licence:
      p?.licenceVersion != null && p.licenceAcceptedAt
        ? {
            version: p.licenceVersion,
            acceptedAt: p.licenceAcceptedAt,
            current: currentLicence?.version === p.licenceVersion,
          }
        : null,
    embargo: p?.embargoChoice
      ? {
          choice: p.embargoChoice,
          reason: p.embargoReason,
          approval: p.embargoApproval,
          decisionNote: p.embargoDecisionNote,
          until: p.embargoChoice === "none" ? null : p.embargoUntil,
        }
      : null,
    filesPublic: published && p !== null && filesArePublic(rowShape(p), now),
    publishedAt: p?.publishedAt ?? null,
    withdrawn:
      p?.withdrawnAt != null ? { at: p.withdrawnAt, reason: p.withdrawnReason ?? "" } : null,
    handle: p?.handle ?? null,
    locked: p?.handle != null,
    missing: published ? [] : missingFor(submission, p, final),
    publicPath: published ? publicThesisPath(submission.id) : null,
  };
}

function rowShape(p: StoredPublication) {
  return {
    withdrawn_at: p.withdrawnAt,
    embargo_choice: p.embargoChoice,
    embargo_until: p.embargoUntil,
  };
}

/** The student's own record, or any record for an administrator; another student gets 404. */
export async function getPublication(
  ctx: Ctx,
  user: SessionUser,
  indexNumber: string,
  now: Date = new Date(),
): Promise<PublicationView> {
  if (!canReadSubmission(user, indexNumber)) throw notFound("No submission has that index number.");
  const { submission, publication } = await loadByIndex(ctx.db, indexNumber);
  return toView(ctx.db, submission, publication, nowIso(now));
}

// ---------------------------------------------------------------------------------------------
// Publishing

/**
 * Publishes the record when every condition holds and it is not public yet: the thesis is final,
 * the licence accepted, the embargo chosen (a sensitive one approved), and the school confirmed
 * the metadata with an award date. Sets published_at and the datestamp. Inside the transaction of
 * the change that completed the conditions; gives back whether it published now.
 */
async function publishIfReady(
  trx: Executor,
  actor: Actor | null,
  submission: Submission,
  at: string,
  now: Date,
): Promise<boolean> {
  const p = await findPublication(trx, submission.id);
  if (!p || p.publishedAt || p.withdrawnAt) return false;
  const final = await isThesisFinal(trx, submission.id);
  if (missingFor(submission, p, final).length > 0) return false;
  await updatePublication(trx, submission.id, { publishedAt: at, datestamp: at }, at);
  // Systems subscribed to "thesis.published" (issue 21's webhooks) hear of it with the change.
  const embargoEnd = p.embargoChoice === "none" ? null : p.embargoUntil;
  await enqueueWebhookEvent(
    trx,
    {
      type: "thesis.published",
      submissionId: submission.id,
      data: {
        publicPath: `/theses/${submission.id}`,
        embargo: { choice: p.embargoChoice, until: embargoEnd },
        publishedAt: at,
      },
    },
    now,
  );
  await recordAudit(
    trx,
    {
      event: "publication.published",
      actorUserId: actor?.user.id ?? null,
      ip: actor?.ip ?? null,
      subject: submission.indexNumber,
      details: {
        submissionId: submission.id,
        embargo: p.embargoChoice,
        embargoUntil: embargoEnd,
      },
    },
    now,
  );
  return true;
}

/** The end of a timed embargo follows the award date; a sensitive one keeps its approved end. */
function embargoEndFor(p: StoredPublication, awardDate: string | null): string | null {
  if (!p.embargoChoice) return null;
  if (p.embargoChoice === "sensitive") return p.embargoUntil;
  return embargoUntil(p.embargoChoice, awardDate);
}

async function change(
  ctx: Ctx,
  indexNumber: string,
  now: Date,
  actor: Actor,
  work: (
    trx: Executor,
    loaded: { submission: Submission; publication: StoredPublication },
  ) => Promise<void>,
): Promise<PublicationView> {
  const at = nowIso(now);
  return ctx.db.transaction().execute(async (trx) => {
    const found = await findSubmissionByIndexNumber(trx, indexNumber);
    if (!found) throw notFound("No submission has that index number.");
    await lockSubmission(trx, found.id);
    const publication = await ensurePublication(trx, found.id, at);
    await work(trx, { submission: found, publication });
    const submission = (await findSubmissionByIndexNumber(trx, indexNumber)) ?? found;
    await publishIfReady(trx, actor, submission, at, now);
    return toView(trx, submission, await findPublication(trx, submission.id), at);
  });
}

// ---------------------------------------------------------------------------------------------
// The student's part

function assertOwnRecord(user: SessionUser, indexNumber: string): void {
  if (!canReadSubmission(user, indexNumber)) throw notFound("No submission has that index number.");
  if (!isOwnSubmission(user, indexNumber)) {
    throw forbidden(
      "Only the student fills in their publication details; the school corrects them.",
    );
  }
}

export async function saveStudentMetadata(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  input: StudentMetadataInput,
  now: Date = new Date(),
): Promise<PublicationView> {
  assertOwnRecord(actor.user, indexNumber);
  const parsed = studentMetadataInputSchema.parse(input);
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (publication.withdrawnAt) throw conflict("The thesis was withdrawn; its record is closed.");
    if (publication.confirmedAt) {
      throw conflict(
        "The school has confirmed your publication details; ask the school to correct them.",
      );
    }
    const at = nowIso(now);
    await updatePublication(
      trx,
      submission.id,
      { keywords: parsed.keywords, language: parsed.language, supervisors: parsed.supervisors },
      at,
    );
    await recordAudit(
      trx,
      {
        event: "publication.metadata_saved",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: { submissionId: submission.id },
      },
      now,
    );
  });
}

export async function acceptLicence(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  version: number,
  now: Date = new Date(),
): Promise<PublicationView> {
  assertOwnRecord(actor.user, indexNumber);
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (publication.publishedAt) throw conflict("The thesis is published; its licence is kept.");
    const current = await findCurrentLicence(trx);
    if (!current) throw conflict("The school has not written its licence yet.");
    if (current.version !== version) {
      throw new AppError(
        "conflict",
        `The licence changed: version ${current.version} is current. Please read it and accept that one.`,
        [{ field: "version", message: `must be the current version (${current.version})` }],
      );
    }
    const at = nowIso(now);
    await updatePublication(
      trx,
      submission.id,
      { licenceVersion: version, licenceAcceptedAt: at, licenceAcceptedBy: actor.user.id },
      at,
    );
    await recordAudit(
      trx,
      {
        event: "publication.licence_accepted",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: { submissionId: submission.id, licenceVersion: version },
      },
      now,
    );
  });
}

export async function chooseEmbargo(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  input: EmbargoInput,
  now: Date = new Date(),
): Promise<PublicationView> {
  assertOwnRecord(actor.user, indexNumber);
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (publication.publishedAt) {
      throw conflict("The thesis is published; ask the school to change its embargo.");
    }
    const at = nowIso(now);
    const sensitive = input.choice === "sensitive";
    const changes: PublicationChanges = {
      embargoChoice: input.choice,
      embargoReason: sensitive ? (input.reason ?? null) : null,
      embargoApproval: sensitive ? "pending" : null,
      embargoDecidedAt: null,
      embargoDecidedBy: null,
      embargoDecisionNote: null,
      embargoUntil: sensitive ? null : embargoUntil(input.choice, publication.awardDate),
      embargoLiftedAt: null,
    };
    await updatePublication(trx, submission.id, changes, at);
    await recordAudit(
      trx,
      {
        event: "publication.embargo_chosen",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: { submissionId: submission.id, choice: input.choice },
      },
      now,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The school's part

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): AppError {
  const fields = issues.slice(0, 20).map((i) => ({
    field: i.path.map(String).join(".") || "body",
    message: i.message,
  }));
  return new AppError(
    "validation",
    fields.map((f) => `${f.field}: ${f.message}`).join("; "),
    fields,
  );
}

export async function correctMetadata(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  input: AdminMetadataInput,
  now: Date = new Date(),
): Promise<PublicationView> {
  const result = adminMetadataInputSchema.safeParse(input);
  if (!result.success) throw fieldErrors(result.error.issues);
  const body = result.data;
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (publication.handle) {
      throw conflict(
        "The thesis was deposited in the repository; its record is locked there and is corrected in the repository.",
      );
    }
    if (publication.withdrawnAt) throw conflict("The thesis was withdrawn; its record is closed.");
    if (body.degreeId != null) {
      const degree = await findDegree(trx, body.degreeId);
      if (!degree) throw validationError("degreeId", "is not a degree on the school's list");
      if (!degree.active && degree.id !== publication.degreeId) {
        throw validationError("degreeId", "is a degree the school no longer awards");
      }
    }
    const at = nowIso(now);
    const awardDate = body.awardDate !== undefined ? body.awardDate : publication.awardDate;
    const examinationDate =
      body.examinationDate !== undefined ? body.examinationDate : publication.examinationDate;
    if (awardDate && examinationDate && awardDate < examinationDate) {
      throw validationError("awardDate", "must not be before the examination date");
    }
    if (body.title !== undefined || body.abstract !== undefined) {
      await updateThesisDetails(trx, submission.id, {
        title: body.title ?? submission.thesisTitle ?? "",
        abstract: body.abstract ?? submission.thesisAbstract ?? "",
      });
    }
    const changes: PublicationChanges = {
      ...(body.keywords !== undefined && { keywords: body.keywords }),
      ...(body.language !== undefined && { language: body.language }),
      ...(body.degreeId !== undefined && { degreeId: body.degreeId }),
      ...(body.department !== undefined && { department: body.department }),
      ...(body.supervisors !== undefined && { supervisors: body.supervisors }),
      ...(body.examinationDate !== undefined && { examinationDate: body.examinationDate }),
      ...(body.awardDate !== undefined && { awardDate: body.awardDate }),
      embargoUntil: embargoEndFor(publication, awardDate),
    };
    if (body.confirm) {
      const final = await isThesisFinal(trx, submission.id);
      if (!final) {
        throw conflict(
          "The thesis is not final yet (Pass, or corrections approved): nothing to confirm.",
        );
      }
      const after = { ...publication, ...withoutUndefined(changes) } as StoredPublication;
      const titled = {
        ...submission,
        thesisTitle: body.title ?? submission.thesisTitle,
        thesisAbstract: body.abstract ?? submission.thesisAbstract,
      };
      const metadataMissing = missingMetadata(titled, after);
      if (metadataMissing.length > 0) {
        throw new AppError(
          "validation",
          `Cannot confirm yet: ${metadataMissing.map((m) => `${m.field} ${m.message}`).join("; ")}.`,
          metadataMissing,
        );
      }
      changes.confirmedAt = at;
      changes.confirmedBy = actor.user.id;
    }
    // A published record's public fields changed: harvesters see it by the datestamp.
    if (publication.publishedAt) changes.datestamp = at;
    await updatePublication(trx, submission.id, changes, at);
    await recordAudit(
      trx,
      {
        event: body.confirm ? "publication.metadata_confirmed" : "publication.metadata_corrected",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: {
          submissionId: submission.id,
          fields: Object.keys(body)
            .filter((k) => k !== "confirm")
            .join(","),
        },
      },
      now,
    );
  });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The metadata a confirmation needs, each named as the form names it. */
function missingMetadata(
  submission: Pick<Submission, "thesisTitle" | "thesisAbstract">,
  p: StoredPublication,
): { field: string; message: string }[] {
  const missing: { field: string; message: string }[] = [];
  const need = (field: string, ok: unknown) => {
    if (!ok) missing.push({ field, message: "is required to confirm" });
  };
  need("title", submission.thesisTitle);
  need("abstract", submission.thesisAbstract);
  need("keywords", p.keywords.length > 0);
  need("language", p.language);
  need("degreeId", p.degreeId);
  need("department", p.department);
  need("supervisors", p.supervisors.length > 0);
  need("awardDate", p.awardDate);
  return missing;
}

export async function decideEmbargo(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  input: EmbargoDecisionInput,
  now: Date = new Date(),
): Promise<PublicationView> {
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (publication.embargoChoice !== "sensitive") {
      throw conflict("Only a patent or sensitive embargo waits for the school's approval.");
    }
    if (publication.publishedAt) throw conflict("The thesis is published; its embargo is settled.");
    const at = nowIso(now);
    if (input.decision === "approve") {
      const until = input.until as string;
      if (until <= dayOf(at)) throw validationError("until", "must be a day after today");
      const base = publication.awardDate ?? dayOf(at);
      if (until > addMonths(base, MAX_SENSITIVE_EMBARGO_YEARS * 12)) {
        throw validationError(
          "until",
          `must be at most ${MAX_SENSITIVE_EMBARGO_YEARS} years after the award date`,
        );
      }
    }
    await updatePublication(
      trx,
      submission.id,
      {
        embargoApproval: input.decision === "approve" ? "approved" : "refused",
        embargoDecidedAt: at,
        embargoDecidedBy: actor.user.id,
        embargoDecisionNote: input.note ?? null,
        embargoUntil: input.decision === "approve" ? (input.until ?? null) : null,
      },
      at,
    );
    await recordAudit(
      trx,
      {
        event:
          input.decision === "approve"
            ? "publication.embargo_approved"
            : "publication.embargo_refused",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: { submissionId: submission.id, until: input.until ?? null },
      },
      now,
    );
  });
}

export async function withdraw(
  ctx: Ctx,
  actor: Actor,
  indexNumber: string,
  input: WithdrawInput,
  now: Date = new Date(),
): Promise<PublicationView> {
  return change(ctx, indexNumber, now, actor, async (trx, { submission, publication }) => {
    if (!publication.publishedAt) throw conflict("Only a published thesis can be withdrawn.");
    if (publication.withdrawnAt) throw conflict("The thesis is already withdrawn.");
    const at = nowIso(now);
    await updatePublication(
      trx,
      submission.id,
      { withdrawnAt: at, withdrawnBy: actor.user.id, withdrawnReason: input.reason, datestamp: at },
      at,
    );
    await recordAudit(
      trx,
      {
        event: "publication.withdrawn",
        actorUserId: actor.user.id,
        ip: actor.ip,
        subject: indexNumber,
        details: { submissionId: submission.id, reason: input.reason },
      },
      now,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Licence versions and degrees

function page(n: number): { limit: number; offset: number } {
  return { limit: PUBLICATION_PAGE_SIZE, offset: (n - 1) * PUBLICATION_PAGE_SIZE };
}

export async function listLicences(
  ctx: Ctx,
  pageNumber: number,
): Promise<{ data: LicenceVersion[]; page: number; pageSize: number; total: number }> {
  const { rows, total } = await listLicenceVersions(ctx.db, page(pageNumber));
  return { data: rows, page: pageNumber, pageSize: PUBLICATION_PAGE_SIZE, total };
}

export async function currentLicence(ctx: Ctx): Promise<LicenceVersion | null> {
  return findCurrentLicence(ctx.db);
}

export async function getLicenceVersion(ctx: Ctx, version: number): Promise<LicenceVersion> {
  const found = await findLicenceVersion(ctx.db, version);
  if (!found) throw notFound("No licence has that version.");
  return found;
}

export async function addLicenceVersion(
  ctx: Ctx,
  actor: Actor,
  text: string,
  now: Date = new Date(),
): Promise<LicenceVersion> {
  const at = nowIso(now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const version = await insertLicenceVersion(trx, text, actor.user.id, at);
      await recordAudit(
        trx,
        {
          event: "publication.licence_version_created",
          actorUserId: actor.user.id,
          ip: actor.ip,
          details: { version },
        },
        now,
      );
      return { version, text, createdAt: at };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("Another administrator saved a licence version at the same moment; reload.");
    }
    throw error;
  }
}

export async function listDegreeRecords(
  ctx: Ctx,
  pageNumber: number,
): Promise<{ data: Degree[]; page: number; pageSize: number; total: number }> {
  const { rows, total } = await listDegrees(ctx.db, page(pageNumber));
  return { data: rows, page: pageNumber, pageSize: PUBLICATION_PAGE_SIZE, total };
}

export async function addDegree(
  ctx: Ctx,
  actor: Actor,
  input: DegreeInput,
  now: Date = new Date(),
): Promise<Degree> {
  const at = nowIso(now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const id = await insertDegree(trx, { ...input, active: input.active ?? true }, at);
      await recordAudit(
        trx,
        {
          event: "publication.degree_created",
          actorUserId: actor.user.id,
          ip: actor.ip,
          details: { degreeId: id, name: input.name },
        },
        now,
      );
      return (await findDegree(trx, id)) as Degree;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw degreeNameTaken();
    throw error;
  }
}

function degreeNameTaken(): AppError {
  return new AppError("conflict", "A degree with that name is already on the list.", [
    { field: "name", message: "is already on the list" },
  ]);
}

export async function changeDegree(
  ctx: Ctx,
  actor: Actor,
  id: number,
  changes: DegreeChanges,
  now: Date = new Date(),
): Promise<Degree> {
  const at = nowIso(now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const existing = await findDegree(trx, id);
      if (!existing) throw notFound("No degree has that id.");
      await updateDegree(trx, id, changes, at);
      // Its name, abbreviation or level is public on every published record naming it.
      await touchPublishedWithDegree(trx, id, at);
      await recordAudit(
        trx,
        {
          event: "publication.degree_updated",
          actorUserId: actor.user.id,
          ip: actor.ip,
          details: { degreeId: id, fields: Object.keys(changes).join(",") },
        },
        now,
      );
      return (await findDegree(trx, id)) as Degree;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw degreeNameTaken();
    throw error;
  }
}

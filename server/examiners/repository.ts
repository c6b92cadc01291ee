import { sql, type Selectable } from "kysely";
import type { ExaminationState, ExaminerKind, Recommendation } from "../../common/examiners.js";
import { containsPattern } from "../db/dialect.js";
import type { ExaminationOutcomesTable, ExaminationsTable, ExaminersTable } from "../db/schema.js";
import type { Executor } from "../db/database.js";

/**
 * Examiners, their examinations, the reminders sent and the released outcome (migration 006).
 * Plain functions over the database or a transaction; row types stay here.
 */

// ---------------------------------------------------------------------------------------------
// Examiner records

export interface StoredExaminer {
  id: number;
  name: string;
  email: string;
  institution: string;
  kind: ExaminerKind;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ListedExaminer extends StoredExaminer {
  /** Examinations not replaced and without a report yet. */
  openExaminations: number;
}

function rowToExaminer(row: Selectable<ExaminersTable>): StoredExaminer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    institution: row.institution,
    kind: row.kind,
    active: Number(row.active) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface ExaminerFilters {
  q?: string | undefined;
  kind?: ExaminerKind | undefined;
  active: "true" | "false" | "all";
}

/**
 * The examiner list's condition. `lower(column) like <lower-cased pattern>` on both databases:
 * SQLite's LIKE folds ASCII only and PostgreSQL's not at all, so lowering both sides is the one
 * way that means the same on each. The list is hundreds of rows, so no search index is needed.
 */
function filteredExaminers(db: Executor, filters: ExaminerFilters) {
  let query = db.selectFrom("examiners");
  const term = filters.q?.trim();
  if (term) {
    const pattern = containsPattern(term.toLowerCase());
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(examiners.name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(examiners.email) like ${pattern} escape '\\'`,
        sql<boolean>`lower(examiners.institution) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (filters.kind) query = query.where("examiners.kind", "=", filters.kind);
  if (filters.active !== "all") {
    query = query.where("examiners.active", "=", filters.active === "true" ? 1 : 0);
  }
  return query;
}

/** One page of examiners by name, with each one's open examinations. */
export async function listExaminers(
  db: Executor,
  filters: ExaminerFilters,
  page: { limit: number; offset: number },
): Promise<{ items: ListedExaminer[]; total: number }> {
  const [rows, count] = await Promise.all([
    filteredExaminers(db, filters)
      .selectAll("examiners")
      .select((eb) =>
        eb
          .selectFrom("examinations")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("examinations.examiner_id", "=", "examiners.id")
          .where("examinations.state", "in", ["nominated", "sent", "received"])
          .as("open_examinations"),
      )
      .orderBy("examiners.name")
      .orderBy("examiners.id")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filteredExaminers(db, filters)
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      ...rowToExaminer(row),
      openExaminations: Number(row.open_examinations ?? 0),
    })),
    total: Number(count.total),
  };
}

export async function findExaminerById(db: Executor, id: number): Promise<StoredExaminer | null> {
  const row = await db.selectFrom("examiners").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? rowToExaminer(row) : null;
}

export async function findExaminerByEmail(
  db: Executor,
  email: string,
): Promise<StoredExaminer | null> {
  const row = await db
    .selectFrom("examiners")
    .selectAll()
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row ? rowToExaminer(row) : null;
}

export async function countOpenExaminations(db: Executor, examinerId: number): Promise<number> {
  const row = await db
    .selectFrom("examinations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("examiner_id", "=", examinerId)
    .where("state", "in", ["nominated", "sent", "received"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewExaminer {
  name: string;
  email: string;
  institution: string;
  kind: ExaminerKind;
  createdBy: number | null;
  at: string;
}

export async function insertExaminer(db: Executor, examiner: NewExaminer): Promise<number> {
  const { id } = await db
    .insertInto("examiners")
    .values({
      name: examiner.name,
      email: examiner.email.toLowerCase(),
      institution: examiner.institution,
      kind: examiner.kind,
      active: 1,
      created_by: examiner.createdBy,
      created_at: examiner.at,
      updated_at: examiner.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateExaminer(
  db: Executor,
  id: number,
  changes: {
    name?: string;
    email?: string;
    institution?: string;
    kind?: ExaminerKind;
    active?: boolean;
  },
  at: string,
): Promise<void> {
  await db
    .updateTable("examiners")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email.toLowerCase() } : {}),
      ...(changes.institution !== undefined ? { institution: changes.institution } : {}),
      ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
      ...(changes.active !== undefined ? { active: changes.active ? 1 : 0 } : {}),
      updated_at: at,
    })
    .where("id", "=", id)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Examinations

export interface StoredReport {
  sha256: string;
  fileName: string;
  sizeBytes: number;
  pageCount: number;
  hasJavaScript: boolean;
  hasEmbeddedFiles: boolean;
  uploadedAt: string;
  recommendation: Recommendation;
  note: string | null;
}

export interface StoredExamination {
  id: number;
  submissionId: number;
  role: ExaminerKind;
  state: ExaminationState;
  examiner: { id: number; name: string; email: string; institution: string; kind: ExaminerKind };
  nominatedBy: number | null;
  nominatedAt: string;
  /** Whether a link was ever sent (the hashes themselves never leave the repositories). */
  hasLink: boolean;
  /** When the latest invitation (or corrections) link was made. */
  linkCreatedAt: string | null;
  /** The latest expiry of the examination's links (each reminder's link moves it on). */
  linkExpiresAt: string | null;
  /** When the school last revoked the examination's links; a new send clears it. */
  linkRevokedAt: string | null;
  sentAt: string | null;
  dueOn: string | null;
  receivedAt: string | null;
  lastOpenedAt: string | null;
  report: StoredReport | null;
  replacedAt: string | null;
  replacedBy: number | null;
}

type ExaminationRow = Selectable<ExaminationsTable> & {
  examiner_name: string;
  examiner_email: string;
  examiner_institution: string;
  examiner_kind: ExaminerKind;
};

function rowToExamination(row: ExaminationRow): StoredExamination {
  const report: StoredReport | null =
    row.report_sha256 !== null && row.report_uploaded_at !== null
      ? {
          sha256: row.report_sha256,
          fileName: row.report_file_name ?? "report.pdf",
          sizeBytes: Number(row.report_size_bytes ?? 0),
          pageCount: Number(row.report_page_count ?? 0),
          hasJavaScript: Number(row.report_has_javascript ?? 0) === 1,
          hasEmbeddedFiles: Number(row.report_has_embedded_files ?? 0) === 1,
          uploadedAt: row.report_uploaded_at,
          recommendation: (row.recommendation ?? "pass") as Recommendation,
          note: row.note_to_school,
        }
      : null;
  return {
    id: row.id,
    submissionId: row.submission_id,
    role: row.role,
    state: row.state,
    examiner: {
      id: row.examiner_id,
      name: row.examiner_name,
      email: row.examiner_email,
      institution: row.examiner_institution,
      kind: row.examiner_kind,
    },
    nominatedBy: row.nominated_by,
    nominatedAt: row.nominated_at,
    hasLink: row.link_created_at !== null,
    linkCreatedAt: row.link_created_at,
    linkExpiresAt: row.link_expires_at,
    linkRevokedAt: row.link_revoked_at,
    sentAt: row.sent_at,
    dueOn: row.due_on,
    receivedAt: row.received_at,
    lastOpenedAt: row.last_opened_at,
    report,
    replacedAt: row.replaced_at,
    replacedBy: row.replaced_by,
  };
}

function selectExaminations(db: Executor) {
  return db
    .selectFrom("examinations")
    .innerJoin("examiners", "examiners.id", "examinations.examiner_id")
    .selectAll("examinations")
    .select([
      "examiners.name as examiner_name",
      "examiners.email as examiner_email",
      "examiners.institution as examiner_institution",
      "examiners.kind as examiner_kind",
    ]);
}

export async function findExamination(db: Executor, id: number): Promise<StoredExamination | null> {
  const row = await selectExaminations(db).where("examinations.id", "=", id).executeTakeFirst();
  return row ? rowToExamination(row) : null;
}

/** The current (not replaced) examinations of a submission: at most one per role. */
export async function listCurrentExaminations(
  db: Executor,
  submissionId: number,
): Promise<StoredExamination[]> {
  const rows = await selectExaminations(db)
    .where("examinations.submission_id", "=", submissionId)
    .where("examinations.state", "<>", "replaced")
    .orderBy("examinations.id")
    .execute();
  return rows.map(rowToExamination);
}

/** Replaced examinations of a submission, newest first. */
export async function listReplacedExaminations(
  db: Executor,
  submissionId: number,
  limit: number,
): Promise<StoredExamination[]> {
  const rows = await selectExaminations(db)
    .where("examinations.submission_id", "=", submissionId)
    .where("examinations.state", "=", "replaced")
    .orderBy("examinations.replaced_at", "desc")
    .orderBy("examinations.id", "desc")
    .limit(limit)
    .execute();
  return rows.map(rowToExamination);
}

export async function insertExamination(
  db: Executor,
  examination: {
    submissionId: number;
    examinerId: number;
    role: ExaminerKind;
    nominatedBy: number | null;
    at: string;
  },
): Promise<number> {
  const { id } = await db
    .insertInto("examinations")
    .values({
      submission_id: examination.submissionId,
      examiner_id: examination.examinerId,
      role: examination.role,
      state: "nominated",
      nominated_by: examination.nominatedBy,
      nominated_at: examination.at,
      created_at: examination.at,
      updated_at: examination.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** Ends an examination: its links stop working now (a use of one answers "replaced"). */
export async function markExaminationReplaced(
  db: Executor,
  id: number,
  by: number | null,
  at: string,
): Promise<void> {
  await db
    .updateTable("examinations")
    .set({
      state: "replaced",
      replaced_at: at,
      replaced_by: by,
      link_revoked_at: at,
      updated_at: at,
    })
    .where("id", "=", id)
    .execute();
  await revokeLinksOf(db, id, at);
}

export type LinkPurpose = "invitation" | "reminder" | "corrections";

/**
 * A new link for an examination, stored as its token's hash with its own expiry. The
 * examination's earlier links keep working until they expire or are revoked. The examination
 * keeps the latest expiry of its links; an invitation or a corrections link is also its latest
 * link sent (link_created_at) and lifts an earlier revocation for the links made from now on
 * (the revoked links stay revoked).
 */
export async function addExaminationLink(
  db: Executor,
  examinationId: number,
  link: {
    tokenHash: string;
    purpose: LinkPurpose;
    createdAt: string;
    expiresAt: string;
    /** When sending (not when renewing for corrections): sent_at, due date and state. */
    sent?: { dueOn: string; state: ExaminationState };
  },
): Promise<void> {
  await db
    .insertInto("examiner_links")
    .values({
      examination_id: examinationId,
      token_hash: link.tokenHash,
      purpose: link.purpose,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
    })
    .execute();
  const expiresAt = sql<string>`case when link_expires_at is null or link_expires_at < ${link.expiresAt} then ${link.expiresAt} else link_expires_at end`;
  await db
    .updateTable("examinations")
    .set({
      link_expires_at: expiresAt,
      ...(link.purpose === "reminder"
        ? {}
        : { link_created_at: link.createdAt, link_revoked_at: null }),
      ...(link.sent
        ? { sent_at: link.createdAt, due_on: link.sent.dueOn, state: link.sent.state }
        : {}),
      updated_at: link.createdAt,
    })
    .where("id", "=", examinationId)
    .execute();
}

/** Revokes every link of the examination now; links made later are not touched. */
export async function revokeExaminationLinks(db: Executor, id: number, at: string): Promise<void> {
  await db
    .updateTable("examinations")
    .set({ link_revoked_at: at, updated_at: at })
    .where("id", "=", id)
    .execute();
  await revokeLinksOf(db, id, at);
}

async function revokeLinksOf(db: Executor, examinationId: number, at: string): Promise<void> {
  await db
    .updateTable("examiner_links")
    .set({ revoked_at: at })
    .where("examination_id", "=", examinationId)
    .where("revoked_at", "is", null)
    .execute();
}

export async function updateExaminationDueOn(
  db: Executor,
  id: number,
  dueOn: string,
  at: string,
): Promise<void> {
  await db
    .updateTable("examinations")
    .set({ due_on: dueOn, updated_at: at })
    .where("id", "=", id)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Reminders

export interface StoredReminder {
  examinationId: number;
  offsetDays: number | null;
  sentBy: number | null;
  sentAt: string;
}

/** The reminders of some examinations, oldest first. */
export async function listReminders(
  db: Executor,
  examinationIds: number[],
): Promise<StoredReminder[]> {
  if (examinationIds.length === 0) return [];
  const rows = await db
    .selectFrom("examiner_reminders")
    .select(["examination_id", "offset_days", "sent_by", "sent_at"])
    .where("examination_id", "in", examinationIds)
    .orderBy("sent_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    examinationId: row.examination_id,
    offsetDays: row.offset_days === null ? null : Number(row.offset_days),
    sentBy: row.sent_by,
    sentAt: row.sent_at,
  }));
}

// ---------------------------------------------------------------------------------------------
// The outcome

export interface StoredOutcome {
  submissionId: number;
  decision: Recommendation;
  corrections: string | null;
  releasedBy: number | null;
  releasedAt: string;
  thesisVersionAtRelease: number | null;
  correctionsApprovedAt: string | null;
  correctionsApprovedBy: number | null;
  correctionsApprovedExamination: number | null;
}

function rowToOutcome(row: Selectable<ExaminationOutcomesTable>): StoredOutcome {
  return {
    submissionId: row.submission_id,
    decision: row.decision,
    corrections: row.corrections,
    releasedBy: row.released_by,
    releasedAt: row.released_at,
    thesisVersionAtRelease:
      row.thesis_version_at_release === null ? null : Number(row.thesis_version_at_release),
    correctionsApprovedAt: row.corrections_approved_at,
    correctionsApprovedBy: row.corrections_approved_by,
    correctionsApprovedExamination: row.corrections_approved_examination,
  };
}

export async function findOutcome(
  db: Executor,
  submissionId: number,
): Promise<StoredOutcome | null> {
  const row = await db
    .selectFrom("examination_outcomes")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .executeTakeFirst();
  return row ? rowToOutcome(row) : null;
}

export async function insertOutcome(
  db: Executor,
  outcome: {
    submissionId: number;
    decision: Recommendation;
    corrections: string | null;
    releasedBy: number | null;
    releasedAt: string;
    thesisVersionAtRelease: number | null;
  },
): Promise<void> {
  await db
    .insertInto("examination_outcomes")
    .values({
      submission_id: outcome.submissionId,
      decision: outcome.decision,
      corrections: outcome.corrections,
      released_by: outcome.releasedBy,
      released_at: outcome.releasedAt,
      thesis_version_at_release: outcome.thesisVersionAtRelease,
    })
    .execute();
}

export async function setCorrectionsApproved(
  db: Executor,
  submissionId: number,
  approval: { at: string; adminId: number | null; examinationId: number | null },
): Promise<void> {
  await db
    .updateTable("examination_outcomes")
    .set({
      corrections_approved_at: approval.at,
      corrections_approved_by: approval.adminId,
      corrections_approved_examination: approval.examinationId,
    })
    .where("submission_id", "=", submissionId)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The thesis the examiners read

/**
 * The submission's current thesis upload: the one reader for the administrators' checks and the
 * examiner's download (the newest version, whatever the school's review of it, so the internal
 * examiner reads the corrected thesis).
 */
export interface CurrentThesis {
  documentId: number;
  version: number;
  reviewState: "pending" | "accepted" | "returned" | "superseded";
  fileName: string;
  sizeBytes: number;
  pageCount: number;
  sha256: string;
  uploadedAt: string;
}

/** The submission's current thesis upload, or null when none was uploaded (a paper copy). */
export async function findCurrentThesis(
  db: Executor,
  submissionId: number,
): Promise<CurrentThesis | null> {
  const row = await db
    .selectFrom("submission_documents")
    .select([
      "id",
      "version",
      "review_state",
      "file_name",
      "size_bytes",
      "page_count",
      "sha256",
      "uploaded_at",
    ])
    .where("submission_id", "=", submissionId)
    .where("item", "=", "thesis")
    .where("is_current", "=", 1)
    .executeTakeFirst();
  return row
    ? {
        documentId: row.id,
        version: Number(row.version),
        reviewState: row.review_state,
        fileName: row.file_name,
        sizeBytes: Number(row.size_bytes),
        pageCount: Number(row.page_count),
        sha256: row.sha256,
        uploadedAt: row.uploaded_at,
      }
    : null;
}

/** The corrected thesis counts as reviewed once the corrections are approved. */
export async function markThesisVersionAccepted(
  db: Executor,
  documentId: number,
  by: number | null,
  at: string,
): Promise<void> {
  await db
    .updateTable("submission_documents")
    .set({ review_state: "accepted", reviewed_by: by, reviewed_at: at, return_reason: null })
    .where("id", "=", documentId)
    .execute();
}

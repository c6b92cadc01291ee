import type { ExaminationState, ExaminerKind, Recommendation } from "../../common/examiners.js";
import type { Executor } from "../db/database.js";

/**
 * What the examiner's link reads and writes (issue 9): the examination found by its token's hash,
 * and from there only that examination's own submission. Every function here after
 * findLinkByTokenHash is keyed by the examination's id or its submission's id, never by a value
 * the request chose, so a link cannot reach another submission. The thesis the link downloads is
 * repository.ts's findCurrentThesis, the same reader the administrators' checks use. Row types
 * stay here.
 */

/** The link a token opens and its examination, with what the link check and the audit need. */
export interface LinkExamination {
  /** This link's row in examiner_links (an examination may have several live links). */
  linkId: number;
  examinationId: number;
  submissionId: number;
  role: ExaminerKind;
  state: ExaminationState;
  examinerName: string;
  examinerEmail: string;
  /** This link's own expiry and revocation. */
  linkExpiresAt: string | null;
  linkRevokedAt: string | null;
}

/** The one reader of an examination by a token's hash (the admin side never needs it). */
export async function findLinkByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<LinkExamination | null> {
  const row = await db
    .selectFrom("examiner_links as l")
    .innerJoin("examinations as x", "x.id", "l.examination_id")
    .innerJoin("examiners as e", "e.id", "x.examiner_id")
    .select([
      "l.id as link_id",
      "l.expires_at",
      "l.revoked_at",
      "x.id",
      "x.submission_id",
      "x.role",
      "x.state",
      "e.name",
      "e.email",
    ])
    .where("l.token_hash", "=", tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    linkId: row.link_id,
    examinationId: row.id,
    submissionId: row.submission_id,
    role: row.role,
    state: row.state,
    examinerName: row.name,
    examinerEmail: row.email,
    linkExpiresAt: row.expires_at,
    linkRevokedAt: row.revoked_at,
  };
}

// ---------------------------------------------------------------------------------------------
// The examination as the examiner page shows it

/** An examination with its examiner, its submission's thesis details and its report. */
export interface ExaminerAssignmentRecord {
  examinationId: number;
  submissionId: number;
  role: ExaminerKind;
  state: ExaminationState;
  examinerName: string;
  examinerEmail: string;
  thesisTitle: string | null;
  thesisAbstract: string | null;
  programme: string;
  dueOn: string | null;
  receivedAt: string | null;
  lastOpenedAt: string | null;
  report: {
    fileName: string;
    uploadedAt: string;
    recommendation: Recommendation;
  } | null;
}

export async function findAssignment(
  db: Executor,
  examinationId: number,
): Promise<ExaminerAssignmentRecord | null> {
  const row = await db
    .selectFrom("examinations as x")
    .innerJoin("examiners as e", "e.id", "x.examiner_id")
    .innerJoin("submissions as s", "s.id", "x.submission_id")
    // Never the student's name, contact, email or index number: the examiner page has no use
    // for them, and a column not read cannot leak.
    .select([
      "x.id",
      "x.submission_id",
      "x.role",
      "x.state",
      "x.due_on",
      "x.received_at",
      "x.last_opened_at",
      "x.report_sha256",
      "x.report_file_name",
      "x.report_uploaded_at",
      "x.recommendation",
      "e.name",
      "e.email",
      "s.thesis_title",
      "s.thesis_abstract",
      "s.programme",
    ])
    .where("x.id", "=", examinationId)
    .executeTakeFirst();
  if (!row) return null;
  const hasReport =
    row.report_sha256 !== null &&
    row.report_file_name !== null &&
    row.report_uploaded_at !== null &&
    row.recommendation !== null;
  return {
    examinationId: row.id,
    submissionId: row.submission_id,
    role: row.role,
    state: row.state,
    examinerName: row.name,
    examinerEmail: row.email,
    thesisTitle: row.thesis_title,
    thesisAbstract: row.thesis_abstract,
    programme: row.programme,
    dueOn: row.due_on,
    receivedAt: row.received_at,
    lastOpenedAt: row.last_opened_at,
    report: hasReport
      ? {
          fileName: row.report_file_name ?? "",
          uploadedAt: row.report_uploaded_at ?? "",
          recommendation: row.recommendation as Recommendation,
        }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * Records that the examiner opened the page. Answers true when this opening is worth an audit
 * row: the first one, or the first after `quietBefore` (the previous opening was earlier). Two
 * openings at once cannot both answer true: the conditional update is the claim.
 */
export async function markOpened(
  db: Executor,
  examinationId: number,
  at: string,
  quietBefore: string,
): Promise<boolean> {
  const claimed = await db
    .updateTable("examinations")
    .set({ last_opened_at: at })
    .where("id", "=", examinationId)
    .where((eb) =>
      eb.or([eb("last_opened_at", "is", null), eb("last_opened_at", "<", quietBefore)]),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) > 0) return true;
  await db
    .updateTable("examinations")
    .set({ last_opened_at: at })
    .where("id", "=", examinationId)
    .execute();
  return false;
}

/**
 * The first download: "sent" becomes "received", dated. Answers whether this call moved it; a
 * second download, or one racing the first, finds the state moved already and answers false
 * (PostgreSQL re-reads the row after the first's lock is released; SQLite has one writer).
 */
export async function markReceived(
  db: Executor,
  examinationId: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable("examinations")
    .set({ state: "received", received_at: at, updated_at: at })
    .where("id", "=", examinationId)
    .where("state", "=", "sent")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes the examination's row lock for the rest of the transaction (a no-op write, as
 * lockSubmission does for submissions), so two reports uploaded at once are decided one after
 * the other.
 */
export async function lockExamination(db: Executor, examinationId: number): Promise<void> {
  await db
    .updateTable("examinations")
    .set((eb) => ({ updated_at: eb.ref("updated_at") }))
    .where("id", "=", examinationId)
    .execute();
}

/** What the upload checks inside its transaction: the examination and the link as they are now. */
export interface ExaminationNow {
  state: ExaminationState;
  /** The link's own expiry and revocation. */
  linkExpiresAt: string | null;
  linkRevokedAt: string | null;
  receivedAt: string | null;
  reportUploadedAt: string | null;
}

export async function findExaminationNow(
  db: Executor,
  link: Pick<LinkExamination, "examinationId" | "linkId">,
): Promise<ExaminationNow | null> {
  const row = await db
    .selectFrom("examinations as x")
    .innerJoin("examiner_links as l", "l.examination_id", "x.id")
    .select(["x.state", "l.expires_at", "l.revoked_at", "x.received_at", "x.report_uploaded_at"])
    .where("x.id", "=", link.examinationId)
    .where("l.id", "=", link.linkId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    state: row.state,
    linkExpiresAt: row.expires_at,
    linkRevokedAt: row.revoked_at,
    receivedAt: row.received_at,
    reportUploadedAt: row.report_uploaded_at,
  };
}

export interface SavedReport {
  sha256: string;
  fileName: string;
  sizeBytes: number;
  pageCount: number;
  hasJavaScript: boolean;
  hasEmbeddedFiles: boolean;
  recommendation: Recommendation;
  note: string | null;
}

/** Stores the report on the examination and marks it submitted; received_at is kept if set. */
export async function saveReport(
  db: Executor,
  examinationId: number,
  report: SavedReport,
  at: string,
): Promise<void> {
  await db
    .updateTable("examinations")
    .set((eb) => ({
      state: "report_submitted" as const,
      received_at: eb.fn.coalesce("received_at", eb.val(at)),
      report_sha256: report.sha256,
      report_file_name: report.fileName,
      report_size_bytes: report.sizeBytes,
      report_page_count: report.pageCount,
      report_has_javascript: report.hasJavaScript ? 1 : 0,
      report_has_embedded_files: report.hasEmbeddedFiles ? 1 : 0,
      report_uploaded_at: at,
      recommendation: report.recommendation,
      note_to_school: report.note,
      updated_at: at,
    }))
    .where("id", "=", examinationId)
    .execute();
}

/** The addresses of every active administrator, for the report's notice. */
export async function listActiveAdminEmails(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select("email")
    .where("role", "=", "admin")
    .where("active", "=", 1)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.email);
}

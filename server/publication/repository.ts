import type { Readable } from "node:stream";
import type { Selectable } from "kysely";
import { CORRECTIONS_APPROVED_STATUS, RECOMMENDATION_LABELS } from "../../common/examiners.js";
import type {
  Degree,
  DegreeLevel,
  EmbargoApproval,
  EmbargoChoice,
  LicenceVersion,
  PublishedRecord,
  Supervisor,
} from "../../common/publication.js";
import type { Executor } from "../db/database.js";
import type { PublicationsTable } from "../db/schema.js";
import type { FileStorage } from "../files/storage.js";

/**
 * Publication's tables (migration 016): `publications`, `degrees`, `licence_versions`. Plain
 * functions over the database or a transaction; row types stay here.
 *
 * The contract with the other publication slices (docs/decisions/020-publication.md):
 * - a row is public exactly when `published_at` is not null; publication/service.ts sets it only
 *   once every condition holds (final, licence accepted, embargo chosen and, if "sensitive",
 *   approved, metadata confirmed with an award date), so a query of the public set needs no more;
 * - `datestamp` moves with every change of anything public (metadata, embargo lifted,
 *   withdrawal, handle): OAI-PMH pages by (datestamp, submission_id);
 * - `readPublishedRecord` is the one reader of a published thesis, `openFinalThesis` of its file.
 */

export const PUBLICATIONS_TABLE = "publications";
export const THESIS_CONTENT_TYPE = "application/pdf";

// ---------------------------------------------------------------------------------------------
// Dates

/** The UTC day of an ISO timestamp: embargo ends are days (YYYY-MM-DD). */
export function dayOf(nowIsoString: string): string {
  return nowIsoString.slice(0, 10);
}

/**
 * The files are public unless withdrawn or under an embargo: "none" is open at once, a timed or
 * approved sensitive embargo from its end day on (the day itself included).
 */
export function filesArePublic(
  row: Pick<Selectable<PublicationsTable>, "withdrawn_at" | "embargo_choice" | "embargo_until">,
  now: string,
): boolean {
  if (row.withdrawn_at !== null) return false;
  if (row.embargo_choice === "none") return true;
  return row.embargo_until !== null && row.embargo_until <= dayOf(now);
}

// ---------------------------------------------------------------------------------------------
// The final thesis

/**
 * A thesis is final when its released outcome is Pass or its corrections are approved
 * (common/workflow.ts, server/examiners/outcome.ts): the outcome's row says so, and the record's
 * Thesis Status carries the same words ("Pass", "Corrections approved").
 */
export async function isThesisFinal(db: Executor, submissionId: number): Promise<boolean> {
  const row = await db
    .selectFrom("submissions as s")
    .leftJoin("examination_outcomes as o", "o.submission_id", "s.id")
    .select(["s.thesis_status", "o.decision", "o.corrections_approved_at"])
    .where("s.id", "=", submissionId)
    .executeTakeFirst();
  if (!row) return false;
  return (
    row.decision === "pass" ||
    row.corrections_approved_at != null ||
    row.thesis_status === RECOMMENDATION_LABELS.pass ||
    row.thesis_status === CORRECTIONS_APPROVED_STATUS
  );
}

export interface FinalThesisFile {
  documentId: number;
  fileName: string;
  size: number;
  sha256: string;
  contentType: string;
}

/** Final theses' files: each submission's current thesis upload unless the school returned it. */
function finalThesisFiles(db: Executor) {
  return db
    .selectFrom("submission_documents")
    .select(["id", "submission_id", "file_name", "size_bytes", "sha256"])
    .where("item", "=", "thesis")
    .where("is_current", "=", 1)
    .where("review_state", "!=", "returned");
}

/**
 * The final thesis: the submission's current thesis upload unless the school returned it (the
 * version the examiners read, or the corrected one once approved). Null for a paper copy.
 */
export async function findFinalThesisFile(
  db: Executor,
  submissionId: number,
): Promise<FinalThesisFile | null> {
  const row = await finalThesisFiles(db)
    .where("submission_id", "=", submissionId)
    .executeTakeFirst();
  return row
    ? {
        documentId: row.id,
        fileName: row.file_name,
        size: Number(row.size_bytes),
        sha256: row.sha256,
        contentType: THESIS_CONTENT_TYPE,
      }
    : null;
}

/**
 * The final thesis file's bytes, for exports, the deposit and downloads: null when there is none
 * (no upload, or returned). Whether it may be shown to the public is the caller's question
 * (`PublishedRecord.filesPublic`). Throws FileMissingError when the store lost the file.
 */
export async function openFinalThesis(
  db: Executor,
  storage: FileStorage,
  submissionId: number,
): Promise<{
  stream: Readable;
  size: number;
  fileName: string;
  contentType: string;
  sha256: string;
} | null> {
  const file = await findFinalThesisFile(db, submissionId);
  if (!file) return null;
  const { stream, size } = await storage.read(file.sha256);
  return {
    stream,
    size,
    fileName: file.fileName,
    contentType: file.contentType,
    sha256: file.sha256,
  };
}

// ---------------------------------------------------------------------------------------------
// The publication row

export interface StoredPublication {
  submissionId: number;
  keywords: string[];
  language: string | null;
  degreeId: number | null;
  department: string | null;
  supervisors: Supervisor[];
  examinationDate: string | null;
  awardDate: string | null;
  confirmedAt: string | null;
  confirmedBy: number | null;
  licenceVersion: number | null;
  licenceAcceptedAt: string | null;
  licenceAcceptedBy: number | null;
  embargoChoice: EmbargoChoice | null;
  embargoReason: string | null;
  embargoApproval: EmbargoApproval | null;
  embargoDecidedAt: string | null;
  embargoDecidedBy: number | null;
  embargoDecisionNote: string | null;
  embargoUntil: string | null;
  embargoLiftedAt: string | null;
  publishedAt: string | null;
  datestamp: string;
  withdrawnAt: string | null;
  withdrawnBy: number | null;
  withdrawnReason: string | null;
  handle: string | null;
  depositedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function parseJsonArray<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function rowToPublication(row: Selectable<PublicationsTable>): StoredPublication {
  return {
    submissionId: Number(row.submission_id),
    keywords: parseJsonArray<string>(row.keywords),
    language: row.language,
    degreeId: row.degree_id === null ? null : Number(row.degree_id),
    department: row.department,
    supervisors: parseJsonArray<Supervisor>(row.supervisors),
    examinationDate: row.examination_date,
    awardDate: row.award_date,
    confirmedAt: row.confirmed_at,
    confirmedBy: row.confirmed_by,
    licenceVersion: row.licence_version === null ? null : Number(row.licence_version),
    licenceAcceptedAt: row.licence_accepted_at,
    licenceAcceptedBy: row.licence_accepted_by,
    embargoChoice: row.embargo_choice,
    embargoReason: row.embargo_reason,
    embargoApproval: row.embargo_approval,
    embargoDecidedAt: row.embargo_decided_at,
    embargoDecidedBy: row.embargo_decided_by,
    embargoDecisionNote: row.embargo_decision_note,
    embargoUntil: row.embargo_until,
    embargoLiftedAt: row.embargo_lifted_at,
    publishedAt: row.published_at,
    datestamp: row.datestamp,
    withdrawnAt: row.withdrawn_at,
    withdrawnBy: row.withdrawn_by,
    withdrawnReason: row.withdrawn_reason,
    handle: row.handle,
    depositedAt: row.deposited_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findPublication(
  db: Executor,
  submissionId: number,
): Promise<StoredPublication | null> {
  const row = await db
    .selectFrom("publications")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .executeTakeFirst();
  return row ? rowToPublication(row) : null;
}

/** The row, made empty when the submission has none yet (its publication starts now). */
export async function ensurePublication(
  db: Executor,
  submissionId: number,
  now: string,
): Promise<StoredPublication> {
  await db
    .insertInto("publications")
    .values({ submission_id: submissionId, datestamp: now, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("submission_id").doNothing())
    .execute();
  const stored = await findPublication(db, submissionId);
  if (!stored) throw new Error(`publication ${submissionId} vanished after its insert`);
  return stored;
}

/** The columns a service changes, by their domain names. */
export interface PublicationChanges {
  keywords?: string[];
  language?: string | null;
  degreeId?: number | null;
  department?: string | null;
  supervisors?: Supervisor[];
  examinationDate?: string | null;
  awardDate?: string | null;
  confirmedAt?: string | null;
  confirmedBy?: number | null;
  licenceVersion?: number | null;
  licenceAcceptedAt?: string | null;
  licenceAcceptedBy?: number | null;
  embargoChoice?: EmbargoChoice | null;
  embargoReason?: string | null;
  embargoApproval?: EmbargoApproval | null;
  embargoDecidedAt?: string | null;
  embargoDecidedBy?: number | null;
  embargoDecisionNote?: string | null;
  embargoUntil?: string | null;
  embargoLiftedAt?: string | null;
  publishedAt?: string | null;
  /** Set when anything public changes (or the record becomes public). */
  datestamp?: string;
  withdrawnAt?: string | null;
  withdrawnBy?: number | null;
  withdrawnReason?: string | null;
  handle?: string | null;
  depositedAt?: string | null;
}

export async function updatePublication(
  db: Executor,
  submissionId: number,
  changes: PublicationChanges,
  now: string,
): Promise<void> {
  const c = changes;
  await db
    .updateTable("publications")
    .set({
      ...(c.keywords !== undefined && { keywords: JSON.stringify(c.keywords) }),
      ...(c.language !== undefined && { language: c.language }),
      ...(c.degreeId !== undefined && { degree_id: c.degreeId }),
      ...(c.department !== undefined && { department: c.department }),
      ...(c.supervisors !== undefined && { supervisors: JSON.stringify(c.supervisors) }),
      ...(c.examinationDate !== undefined && { examination_date: c.examinationDate }),
      ...(c.awardDate !== undefined && { award_date: c.awardDate }),
      ...(c.confirmedAt !== undefined && { confirmed_at: c.confirmedAt }),
      ...(c.confirmedBy !== undefined && { confirmed_by: c.confirmedBy }),
      ...(c.licenceVersion !== undefined && { licence_version: c.licenceVersion }),
      ...(c.licenceAcceptedAt !== undefined && { licence_accepted_at: c.licenceAcceptedAt }),
      ...(c.licenceAcceptedBy !== undefined && { licence_accepted_by: c.licenceAcceptedBy }),
      ...(c.embargoChoice !== undefined && { embargo_choice: c.embargoChoice }),
      ...(c.embargoReason !== undefined && { embargo_reason: c.embargoReason }),
      ...(c.embargoApproval !== undefined && { embargo_approval: c.embargoApproval }),
      ...(c.embargoDecidedAt !== undefined && { embargo_decided_at: c.embargoDecidedAt }),
      ...(c.embargoDecidedBy !== undefined && { embargo_decided_by: c.embargoDecidedBy }),
      ...(c.embargoDecisionNote !== undefined && {
        embargo_decision_note: c.embargoDecisionNote,
      }),
      ...(c.embargoUntil !== undefined && { embargo_until: c.embargoUntil }),
      ...(c.embargoLiftedAt !== undefined && { embargo_lifted_at: c.embargoLiftedAt }),
      ...(c.publishedAt !== undefined && { published_at: c.publishedAt }),
      ...(c.datestamp !== undefined && { datestamp: c.datestamp }),
      ...(c.withdrawnAt !== undefined && { withdrawn_at: c.withdrawnAt }),
      ...(c.withdrawnBy !== undefined && { withdrawn_by: c.withdrawnBy }),
      ...(c.withdrawnReason !== undefined && { withdrawn_reason: c.withdrawnReason }),
      ...(c.handle !== undefined && { handle: c.handle }),
      ...(c.depositedAt !== undefined && { deposited_at: c.depositedAt }),
      updated_at: now,
    })
    .where("submission_id", "=", submissionId)
    .execute();
}

/**
 * For the deposit (pub-library): keeps the repository's item address once the deposit is
 * acknowledged, and moves the datestamp (the handle is public). From then on the school's
 * corrections are refused: the repository holds the record.
 */
export async function setPublicationHandle(
  db: Executor,
  submissionId: number,
  handle: string,
  now: string,
): Promise<void> {
  await updatePublication(db, submissionId, { handle, depositedAt: now, datestamp: now }, now);
}

// ---------------------------------------------------------------------------------------------
// The published record

/**
 * The published theses among `ids`, as a library, a harvester and the public pages read them: one
 * reader for one record (`readPublishedRecord`) and for a page of them (OAI-PMH's ListRecords), in
 * two queries whatever the number of ids. Ids that are not published are absent; withdrawn ones
 * are there with `withdrawn` set (OAI-PMH reports them deleted, the page says so).
 */
export async function readPublishedRecords(
  db: Executor,
  ids: readonly number[],
  now: string,
): Promise<Map<number, PublishedRecord>> {
  const records = new Map<number, PublishedRecord>();
  if (ids.length === 0) return records;
  const [rows, files] = await Promise.all([
    db
      .selectFrom("publications as p")
      .innerJoin("submissions as s", "s.id", "p.submission_id")
      .innerJoin("degrees as d", "d.id", "p.degree_id")
      .innerJoin("licence_versions as l", "l.version", "p.licence_version")
      // Only the columns the record shows: `selectAll` also read the row's search text, its
      // audit columns and the embargo's decision, some 2 KB a thesis that a harvest of a million
      // parsed and dropped (on PostgreSQL each value a string of pg's parser; issue 20's memory).
      .select([
        "p.submission_id",
        "p.keywords",
        "p.language",
        "p.department",
        "p.supervisors",
        "p.examination_date",
        "p.award_date",
        "p.licence_version",
        "p.embargo_choice",
        "p.embargo_until",
        "p.published_at",
        "p.datestamp",
        "p.withdrawn_at",
        "p.withdrawn_reason",
        "p.handle",
        "s.student_name",
        "s.thesis_title",
        "s.thesis_abstract",
        "s.programme",
        "d.name as degree_name",
        "d.abbreviation as degree_abbreviation",
        "d.level as degree_level",
        "l.text as licence_text",
      ])
      .where("p.submission_id", "in", [...ids])
      .where("p.published_at", "is not", null)
      .execute(),
    finalThesisFiles(db)
      .where("submission_id", "in", [...ids])
      .execute(),
  ]);
  const fileOf = new Map(files.map((f) => [Number(f.submission_id), f]));
  for (const row of rows) {
    if (row.published_at === null || row.award_date === null || row.embargo_choice === null) {
      continue;
    }
    const id = Number(row.submission_id);
    const file = fileOf.get(id);
    records.set(id, {
      submissionId: id,
      title: row.thesis_title ?? "",
      abstract: row.thesis_abstract ?? "",
      author: { name: row.student_name },
      keywords: parseJsonArray<string>(row.keywords),
      language: row.language ?? "eng",
      degree: {
        name: row.degree_name,
        abbreviation: row.degree_abbreviation,
        level: row.degree_level as DegreeLevel,
      },
      programme: row.programme,
      department: row.department ?? "",
      supervisors: parseJsonArray<Supervisor>(row.supervisors).map((s) => ({
        name: s.name,
        orcid: s.orcid ?? null,
      })),
      examinationDate: row.examination_date,
      awardDate: row.award_date,
      licence: { version: Number(row.licence_version), text: row.licence_text },
      embargo: {
        choice: row.embargo_choice,
        until: row.embargo_choice === "none" ? null : row.embargo_until,
      },
      filesPublic: filesArePublic(row, now),
      file: file
        ? {
            fileName: file.file_name,
            size: Number(file.size_bytes),
            contentType: THESIS_CONTENT_TYPE,
          }
        : null,
      handle: row.handle,
      publishedAt: row.published_at,
      datestamp: row.datestamp,
      withdrawn:
        row.withdrawn_at !== null
          ? { at: row.withdrawn_at, reason: row.withdrawn_reason ?? "" }
          : null,
    });
  }
  return records;
}

/** One published thesis (`readPublishedRecords` for one id), or null. */
export async function readPublishedRecord(
  db: Executor,
  submissionId: number,
  now: string,
): Promise<PublishedRecord | null> {
  return (await readPublishedRecords(db, [submissionId], now)).get(submissionId) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Embargoes that ran out

/**
 * Published, not withdrawn records whose embargo ended on or before `today` and whose lifting the
 * job has not recorded yet: the job moves their datestamp, so harvesters see the files appear.
 */
export async function liftEndedEmbargoes(
  db: Executor,
  today: string,
  now: string,
  limit: number,
): Promise<number[]> {
  const due = await db
    .selectFrom("publications")
    .select("submission_id")
    .where("embargo_until", "<=", today)
    .where("embargo_lifted_at", "is", null)
    .where("published_at", "is not", null)
    .where("withdrawn_at", "is", null)
    .orderBy("embargo_until")
    .orderBy("submission_id")
    .limit(limit)
    .execute();
  const ids = due.map((r) => Number(r.submission_id));
  if (ids.length === 0) return [];
  await db
    .updateTable("publications")
    .set({ embargo_lifted_at: now, datestamp: now, updated_at: now })
    .where("submission_id", "in", ids)
    .where("embargo_lifted_at", "is", null)
    .execute();
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Degrees

function rowToDegree(row: {
  id: number;
  name: string;
  abbreviation: string;
  level: DegreeLevel;
  active: number;
}): Degree {
  return {
    id: Number(row.id),
    name: row.name,
    abbreviation: row.abbreviation,
    level: row.level,
    active: Number(row.active) === 1,
  };
}

export async function listDegrees(
  db: Executor,
  page: { limit: number; offset: number; activeOnly?: boolean },
): Promise<{ rows: Degree[]; total: number }> {
  let query = db.selectFrom("degrees");
  if (page.activeOnly) query = query.where("active", "=", 1);
  const [rows, count] = await Promise.all([
    query
      .select(["id", "name", "abbreviation", "level", "active"])
      .orderBy("name")
      .orderBy("id")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(rowToDegree), total: Number(count.n) };
}

export async function findDegree(db: Executor, id: number): Promise<Degree | null> {
  const row = await db
    .selectFrom("degrees")
    .select(["id", "name", "abbreviation", "level", "active"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? rowToDegree(row) : null;
}

export async function insertDegree(
  db: Executor,
  degree: { name: string; abbreviation: string; level: DegreeLevel; active: boolean },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto("degrees")
    .values({
      name: degree.name,
      abbreviation: degree.abbreviation,
      level: degree.level,
      active: degree.active ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateDegree(
  db: Executor,
  id: number,
  changes: { name?: string; abbreviation?: string; level?: DegreeLevel; active?: boolean },
  now: string,
): Promise<void> {
  await db
    .updateTable("degrees")
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.abbreviation !== undefined && { abbreviation: changes.abbreviation }),
      ...(changes.level !== undefined && { level: changes.level }),
      ...(changes.active !== undefined && { active: changes.active ? 1 : 0 }),
      updated_at: now,
    })
    .where("id", "=", id)
    .execute();
}

/** Published records that name the degree: their datestamp moves when the degree changes. */
export async function touchPublishedWithDegree(
  db: Executor,
  degreeId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable("publications")
    .set({ datestamp: now, updated_at: now })
    .where("degree_id", "=", degreeId)
    .where("published_at", "is not", null)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Licence versions

export async function listLicenceVersions(
  db: Executor,
  page: { limit: number; offset: number },
): Promise<{ rows: LicenceVersion[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("licence_versions")
      .select(["version", "text", "created_at"])
      .orderBy("version", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("licence_versions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({ version: Number(r.version), text: r.text, createdAt: r.created_at })),
    total: Number(count.n),
  };
}

export async function findLicenceVersion(
  db: Executor,
  version: number,
): Promise<LicenceVersion | null> {
  const row = await db
    .selectFrom("licence_versions")
    .select(["version", "text", "created_at"])
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? { version: Number(row.version), text: row.text, createdAt: row.created_at } : null;
}

export async function findCurrentLicence(db: Executor): Promise<LicenceVersion | null> {
  const row = await db
    .selectFrom("licence_versions")
    .select(["version", "text", "created_at"])
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { version: Number(row.version), text: row.text, createdAt: row.created_at } : null;
}

/** The next version number; a concurrent insert of the same number fails on the primary key. */
export async function insertLicenceVersion(
  db: Executor,
  text: string,
  createdBy: number | null,
  now: string,
): Promise<number> {
  const current = await findCurrentLicence(db);
  const version = (current?.version ?? 0) + 1;
  await db
    .insertInto("licence_versions")
    .values({ version, text, created_by: createdBy, created_at: now })
    .execute();
  return version;
}

import type { ReviewState } from "../../common/documents.js";
import { DOCUMENTS, type DocumentItem } from "../../common/workflow.js";
import type { SubmissionDocumentRow } from "../db/schema.js";
import type { Executor } from "../db/database.js";
import { documentColumns } from "../submissions/repository.js";

/**
 * Uploaded document versions (table submission_documents) and the few submission columns the
 * documents need: the checklist flags and the thesis title and abstract. Plain functions over the
 * database or a transaction; row types stay here.
 */

/** One uploaded version of a checklist item, with the submission it belongs to. */
export interface StoredDocumentVersion {
  id: number;
  submissionId: number;
  /** The submission's index number: the access rule compares it with the student's. */
  indexNumber: string;
  item: DocumentItem;
  version: number;
  isCurrent: boolean;
  /** The student's file name, for display only; never a path. */
  fileName: string;
  sizeBytes: number;
  /** The file store's key. */
  sha256: string;
  pageCount: number;
  hasJavaScript: boolean;
  hasEmbeddedFiles: boolean;
  uploadedBy: number | null;
  uploadedAt: string;
  reviewState: ReviewState;
  reviewedBy: number | null;
  reviewedAt: string | null;
  returnReason: string | null;
}

/** A checklist item as the record holds it: received (accepted upload or paper copy) and when. */
export interface ChecklistEntry {
  submitted: boolean;
  receivedOn: string | null;
  /** Which system marked it through the API, and when (Financial Clearance, issue 21). */
  clearedBy?: { system: string; at: string };
}

/** What the documents read from a submission. */
export interface DocumentChecklist {
  submissionId: number;
  indexNumber: string;
  thesisTitle: string | null;
  thesisAbstract: string | null;
  checklist: Record<DocumentItem, ChecklistEntry>;
}

const DOCUMENT_COLUMNS = [
  "d.id",
  "d.submission_id",
  "s.index_number",
  "d.item",
  "d.version",
  "d.is_current",
  "d.file_name",
  "d.size_bytes",
  "d.sha256",
  "d.page_count",
  "d.has_javascript",
  "d.has_embedded_files",
  "d.uploaded_by",
  "d.uploaded_at",
  "d.review_state",
  "d.reviewed_by",
  "d.reviewed_at",
  "d.return_reason",
] as const;

type VersionRow = SubmissionDocumentRow & { index_number: string };

function rowToVersion(row: VersionRow): StoredDocumentVersion {
  return {
    id: row.id,
    submissionId: row.submission_id,
    indexNumber: row.index_number,
    item: row.item as DocumentItem,
    version: Number(row.version),
    isCurrent: Number(row.is_current) === 1,
    fileName: row.file_name,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    pageCount: Number(row.page_count),
    hasJavaScript: Number(row.has_javascript) === 1,
    hasEmbeddedFiles: Number(row.has_embedded_files) === 1,
    uploadedBy: row.uploaded_by,
    uploadedAt: row.uploaded_at,
    reviewState: row.review_state,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at,
    returnReason: row.return_reason,
  };
}

function selectVersions(db: Executor) {
  return db
    .selectFrom("submission_documents as d")
    .innerJoin("submissions as s", "s.id", "d.submission_id")
    .select(DOCUMENT_COLUMNS);
}

/** One version by its id, with its submission's id and index number; null when there is none. */
export async function findDocumentVersion(
  db: Executor,
  id: number,
): Promise<StoredDocumentVersion | null> {
  const row = await selectVersions(db).where("d.id", "=", id).executeTakeFirst();
  return row ? rowToVersion(row) : null;
}

/** Every version of every item of a submission: by item in checklist order, newest first. */
export async function listDocumentVersions(
  db: Executor,
  submissionId: number,
): Promise<StoredDocumentVersion[]> {
  const rows = await selectVersions(db)
    .where("d.submission_id", "=", submissionId)
    .orderBy("d.version", "desc")
    .orderBy("d.id", "desc")
    .execute();
  const versions = rows.map(rowToVersion);
  return DOCUMENTS.flatMap((item) => versions.filter((v) => v.item === item));
}

// ---------------------------------------------------------------------------------------------
// The submission's side

function selectChecklist(db: Executor) {
  return db.selectFrom("submissions").select([
    "id",
    "index_number",
    "thesis_title",
    "thesis_abstract",
    // The record's own checklist columns, named where the submissions repository names them.
    ...DOCUMENTS.flatMap((item) => {
      const { submitted, receivedOn } = documentColumns(item);
      return [submitted, receivedOn];
    }),
    "financial_clearance_by",
    "financial_clearance_by_at",
  ]);
}

type ChecklistRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof selectChecklist>["executeTakeFirst"]>>
>;

function rowToChecklist(row: ChecklistRow): DocumentChecklist {
  const checklist = Object.fromEntries(
    DOCUMENTS.map((item) => {
      const { submitted, receivedOn } = documentColumns(item);
      return [
        item,
        {
          submitted: Number(row[submitted]) === 1,
          receivedOn: (row[receivedOn] as string | null) ?? null,
        },
      ];
    }),
  ) as Record<DocumentItem, ChecklistEntry>;
  const clearance = checklist.financialClearance;
  if (clearance.submitted && row.financial_clearance_by && row.financial_clearance_by_at) {
    clearance.clearedBy = { system: row.financial_clearance_by, at: row.financial_clearance_by_at };
  }
  return {
    submissionId: row.id,
    indexNumber: row.index_number,
    thesisTitle: row.thesis_title,
    thesisAbstract: row.thesis_abstract,
    checklist,
  };
}

export async function findDocumentChecklist(
  db: Executor,
  indexNumber: string,
): Promise<DocumentChecklist | null> {
  const row = await selectChecklist(db).where("index_number", "=", indexNumber).executeTakeFirst();
  return row ? rowToChecklist(row) : null;
}

export async function findDocumentChecklistById(
  db: Executor,
  submissionId: number,
): Promise<DocumentChecklist | null> {
  const row = await selectChecklist(db).where("id", "=", submissionId).executeTakeFirst();
  return row ? rowToChecklist(row) : null;
}

export async function updateThesisDetails(
  db: Executor,
  submissionId: number,
  details: { title: string; abstract: string },
): Promise<void> {
  await db
    .updateTable("submissions")
    .set({ thesis_title: details.title, thesis_abstract: details.abstract })
    .where("id", "=", submissionId)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Writing versions

export interface NewDocumentVersion {
  submissionId: number;
  item: DocumentItem;
  fileName: string;
  sizeBytes: number;
  sha256: string;
  pageCount: number;
  hasJavaScript: boolean;
  hasEmbeddedFiles: boolean;
  uploadedBy: number | null;
  uploadedAt: string;
}

/**
 * Adds a version as the item's current one: the next number after the highest so far; the
 * previous current version stops being current and, if nobody had reviewed it, is superseded.
 * Call inside a transaction that holds the submission's lock (lockSubmission).
 */
export async function insertCurrentVersion(
  db: Executor,
  version: NewDocumentVersion,
): Promise<number> {
  const { highest } = await db
    .selectFrom("submission_documents")
    .select((eb) => eb.fn.max("version").as("highest"))
    .where("submission_id", "=", version.submissionId)
    .where("item", "=", version.item)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("submission_documents")
    .set((eb) => ({
      is_current: 0,
      review_state: eb
        .case()
        .when("review_state", "=", "pending")
        .then("superseded" as const)
        .else(eb.ref("review_state"))
        .end(),
    }))
    .where("submission_id", "=", version.submissionId)
    .where("item", "=", version.item)
    .where("is_current", "=", 1)
    .execute();
  const { id } = await db
    .insertInto("submission_documents")
    .values({
      submission_id: version.submissionId,
      item: version.item,
      version: Number(highest ?? 0) + 1,
      is_current: 1,
      file_name: version.fileName,
      size_bytes: version.sizeBytes,
      sha256: version.sha256,
      page_count: version.pageCount,
      has_javascript: version.hasJavaScript ? 1 : 0,
      has_embedded_files: version.hasEmbeddedFiles ? 1 : 0,
      uploaded_by: version.uploadedBy,
      uploaded_at: version.uploadedAt,
      review_state: "pending",
      reviewed_by: null,
      reviewed_at: null,
      return_reason: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

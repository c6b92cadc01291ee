import type { Kysely, Transaction } from "kysely";
import {
  DOCUMENTS,
  type DocumentItem,
  type ExaminerState,
  type SgsStage,
} from "../../common/workflow.js";
import type { Submission, SubmissionFields } from "../../common/submission.js";
import type { Database, NewSubmissionRow, SubmissionRow } from "../db/schema.js";

/** Repositories take the database or a transaction; row types never leave this module. */
export type Executor = Kysely<Database> | Transaction<Database>;

const DOCUMENT_COLUMNS: Record<
  DocumentItem,
  { submitted: keyof SubmissionRow; receivedOn: keyof SubmissionRow }
> = {
  thesis: { submitted: "thesis_submitted", receivedOn: "thesis_received_on" },
  turnitinReport: {
    submitted: "turnitin_report_submitted",
    receivedOn: "turnitin_report_received_on",
  },
  supervisorForm: {
    submitted: "supervisor_form_submitted",
    receivedOn: "supervisor_form_received_on",
  },
  statementOfResult: {
    submitted: "statement_of_result_submitted",
    receivedOn: "statement_of_result_received_on",
  },
  financialClearance: {
    submitted: "financial_clearance_submitted",
    receivedOn: "financial_clearance_received_on",
  },
};

export function documentColumns(item: DocumentItem) {
  return DOCUMENT_COLUMNS[item];
}

export function rowToSubmission(row: SubmissionRow): Submission {
  const documents = Object.fromEntries(
    DOCUMENTS.map((item) => {
      const cols = DOCUMENT_COLUMNS[item];
      return [
        item,
        {
          submitted: Number(row[cols.submitted]) === 1,
          receivedOn: (row[cols.receivedOn] as string | null) ?? null,
        },
      ];
    }),
  ) as Submission["documents"];
  return {
    id: row.id,
    studentName: row.student_name,
    indexNumber: row.index_number,
    programme: row.programme,
    contact: row.contact,
    studentEmail: row.student_email,
    documents,
    sgsStage: row.sgs_stage as SgsStage | null,
    internalExaminer: row.internal_examiner as ExaminerState | null,
    externalExaminer: row.external_examiner as ExaminerState | null,
    thesisStatus: row.thesis_status,
    effectiveDate: row.effective_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** The columns that hold a submission's fields (everything but id, times and version). */
export function fieldsToColumns(fields: SubmissionFields) {
  const columns: Record<string, string | number | null> = {
    student_name: fields.studentName,
    index_number: fields.indexNumber,
    programme: fields.programme,
    contact: fields.contact,
    student_email: fields.studentEmail,
    sgs_stage: fields.sgsStage,
    internal_examiner: fields.internalExaminer,
    external_examiner: fields.externalExaminer,
    thesis_status: fields.thesisStatus,
    effective_date: fields.effectiveDate,
  };
  for (const item of DOCUMENTS) {
    const cols = DOCUMENT_COLUMNS[item];
    columns[cols.submitted] = fields.documents[item].submitted ? 1 : 0;
    columns[cols.receivedOn] = fields.documents[item].receivedOn;
  }
  return columns as Omit<NewSubmissionRow, "id" | "created_at" | "updated_at" | "version">;
}

export async function insertSubmission(
  db: Executor,
  fields: SubmissionFields,
  at: string,
  id?: number,
): Promise<Submission> {
  const row = await db
    .insertInto("submissions")
    .values({
      ...(id === undefined ? {} : { id }),
      ...fieldsToColumns(fields),
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return rowToSubmission(row);
}

export async function findSubmissionByIndexNumber(
  db: Executor,
  indexNumber: string,
): Promise<Submission | null> {
  const row = await db
    .selectFrom("submissions")
    .selectAll()
    .where("index_number", "=", indexNumber)
    .executeTakeFirst();
  return row ? rowToSubmission(row) : null;
}

export async function findSubmissionById(db: Executor, id: number): Promise<Submission | null> {
  const row = await db
    .selectFrom("submissions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? rowToSubmission(row) : null;
}

export async function countSubmissions(db: Executor): Promise<number> {
  const { count } = await db
    .selectFrom("submissions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

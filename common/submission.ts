import {
  DOCUMENTS,
  DOCUMENT_LABELS,
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  SUBMITTED_LABEL,
  examinerStateFromLabel,
  sgsStageFromLabel,
  sgsStageRank,
  type DocumentItem,
  type ExaminerState,
  type SgsStage,
} from "./workflow.js";

/**
 * The one submission model, and the mappings to the two views the prototype knew:
 * the admin list's record (spec section 3, "sample submission record", also the spreadsheet
 * columns) and the student's status response (`data` with `status{...}`).
 */

export interface DocumentState {
  submitted: boolean;
  /** ISO date (YYYY-MM-DD) the school received it, when known. */
  receivedOn: string | null;
}

export interface Submission {
  id: number;
  studentName: string;
  indexNumber: string;
  programme: string;
  contact: string | null;
  studentEmail: string | null;
  documents: Record<DocumentItem, DocumentState>;
  sgsStage: SgsStage | null;
  internalExaminer: ExaminerState | null;
  externalExaminer: ExaminerState | null;
  thesisStatus: string | null;
  /** ISO date (YYYY-MM-DD). */
  effectiveDate: string | null;
  /** The thesis title and abstract the student gives with the upload; null until then. */
  thesisTitle: string | null;
  thesisAbstract: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * Which system marked Financial Clearance through the API (an API token's name, issue 21) and
   * when; null or absent when a person did, or it is not marked.
   */
  financialClearanceBy?: ClearedBy | null;
}

/** A checklist item marked by another system: the API token's name and when. */
export interface ClearedBy {
  system: string;
  at: string;
}

/**
 * Every field a submission is created and edited from; ids, times and version are the database's,
 * and the thesis title and abstract are the student's (given with the thesis upload), so neither
 * the forms nor the spreadsheet carry them.
 */
export type SubmissionFields = Omit<
  Submission,
  "id" | "createdAt" | "updatedAt" | "version" | "thesisTitle" | "thesisAbstract"
>;

/** The prototype's sample-list record; keys exactly as the prototype (and the spreadsheet) spell them. */
export interface SubmissionRecord {
  idNo?: number;
  StudentName?: string;
  IndexNumber?: string;
  Programme?: string;
  Contact?: string;
  Thesis?: string;
  "Turnitin report"?: string;
  "Supervisor form"?: string;
  "Statement of Result"?: string;
  "Financial Clearance"?: string;
  SGSAdmin?: string;
  InternalExaminer?: string;
  ExternalExaminer?: string;
  "Thesis Status"?: string;
  "Effective Date"?: string;
}

export const RECORD_COLUMNS = [
  "StudentName",
  "IndexNumber",
  "Programme",
  "Contact",
  "Thesis",
  "Turnitin report",
  "Supervisor form",
  "Statement of Result",
  "Financial Clearance",
  "SGSAdmin",
  "InternalExaminer",
  "ExternalExaminer",
  "Thesis Status",
  "Effective Date",
] as const satisfies readonly (keyof SubmissionRecord)[];
export type RecordColumn = (typeof RECORD_COLUMNS)[number];

/** Document items keyed by their record column (the labels are the column names). */
const DOCUMENT_COLUMNS = DOCUMENTS.map(
  (item) => [item, DOCUMENT_LABELS[item]] as const,
) as readonly (readonly [
  DocumentItem,
  "Thesis" | "Turnitin report" | "Supervisor form" | "Statement of Result" | "Financial Clearance",
])[];

export function emptyDocuments(): Record<DocumentItem, DocumentState> {
  return Object.fromEntries(
    DOCUMENTS.map((item) => [item, { submitted: false, receivedOn: null }]),
  ) as Record<DocumentItem, DocumentState>;
}

export function toSubmissionRecord(s: Submission): SubmissionRecord {
  const record: SubmissionRecord = {
    idNo: s.id,
    StudentName: s.studentName,
    IndexNumber: s.indexNumber,
    Programme: s.programme,
  };
  if (s.contact) record.Contact = s.contact;
  for (const [item, column] of DOCUMENT_COLUMNS) {
    if (s.documents[item].submitted) record[column] = SUBMITTED_LABEL;
  }
  if (s.sgsStage) record.SGSAdmin = SGS_STAGE_LABELS[s.sgsStage];
  if (s.internalExaminer) record.InternalExaminer = EXAMINER_STATE_LABELS[s.internalExaminer];
  if (s.externalExaminer) record.ExternalExaminer = EXAMINER_STATE_LABELS[s.externalExaminer];
  if (s.thesisStatus) record["Thesis Status"] = s.thesisStatus;
  if (s.effectiveDate) record["Effective Date"] = s.effectiveDate;
  return record;
}

export interface RecordProblem {
  column: RecordColumn;
  reason: string;
}

export type RecordParseResult =
  | { ok: true; fields: SubmissionFields }
  | { ok: false; problems: RecordProblem[] };

/** Index numbers as the school issues them; shared by the record reader and the API schemas. */
export const INDEX_NUMBER_PATTERN = /^[A-Za-z0-9/-]{4,20}$/;
export const INDEX_NUMBER_RULE = "must be 4 to 20 letters, digits, / or -";

/**
 * Reads a prototype record (sample data or a spreadsheet row) into submission fields, naming
 * every column that cannot be read. Blank cells mean "missing", as in the prototype.
 */
export function fromSubmissionRecord(record: SubmissionRecord): RecordParseResult {
  const problems: RecordProblem[] = [];
  const text = (column: RecordColumn): string | null => {
    const value = record[column];
    if (value === undefined || value === null) return null;
    const trimmed = String(value).trim();
    return trimmed === "" ? null : trimmed;
  };
  const required = (column: RecordColumn): string => {
    const value = text(column);
    if (value === null) problems.push({ column, reason: "is required" });
    return value ?? "";
  };

  const studentName = required("StudentName");
  const indexNumber = required("IndexNumber");
  if (indexNumber && !INDEX_NUMBER_PATTERN.test(indexNumber)) {
    problems.push({ column: "IndexNumber", reason: INDEX_NUMBER_RULE });
  }
  const programme = required("Programme");

  const documents = emptyDocuments();
  for (const [item, column] of DOCUMENT_COLUMNS) {
    const value = text(column);
    if (value === null) continue;
    const parsed = parseDocumentCell(value);
    if (parsed === null) {
      problems.push({
        column,
        reason: `must be "${SUBMITTED_LABEL}", a date (YYYY-MM-DD) or empty`,
      });
    } else {
      documents[item] = parsed;
    }
  }

  const sgsText = text("SGSAdmin");
  const sgsStage = sgsText === null ? null : sgsStageFromLabel(sgsText);
  if (sgsText !== null && sgsStage === null) {
    problems.push({
      column: "SGSAdmin",
      reason: `must be one of ${Object.values(SGS_STAGE_LABELS).join(", ")}`,
    });
  }
  const examiner = (column: "InternalExaminer" | "ExternalExaminer"): ExaminerState | null => {
    const value = text(column);
    if (value === null) return null;
    const state = examinerStateFromLabel(value);
    if (state === null) {
      problems.push({
        column,
        reason: `must be one of ${Object.values(EXAMINER_STATE_LABELS).join(", ")}`,
      });
    }
    return state;
  };
  const internalExaminer = examiner("InternalExaminer");
  const externalExaminer = examiner("ExternalExaminer");

  const effectiveText = text("Effective Date");
  const effectiveDate = effectiveText === null ? null : normaliseDate(effectiveText);
  if (effectiveText !== null && effectiveDate === null) {
    problems.push({ column: "Effective Date", reason: "must be a date (YYYY-MM-DD)" });
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    fields: {
      studentName,
      indexNumber,
      programme,
      contact: text("Contact"),
      studentEmail: null,
      documents,
      sgsStage,
      internalExaminer,
      externalExaminer,
      thesisStatus: text("Thesis Status"),
      effectiveDate,
    },
  };
}

function parseDocumentCell(value: string): DocumentState | null {
  if (value.toLowerCase() === SUBMITTED_LABEL.toLowerCase() || value.toLowerCase() === "yes") {
    return { submitted: true, receivedOn: null };
  }
  const date = normaliseDate(value);
  return date === null ? null : { submitted: true, receivedOn: date };
}

/** Accepts YYYY-MM-DD (also with a time part) and returns the date part, or null. */
export function normaliseDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value.trim());
  if (!match) return null;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return null;
  return `${y}-${m}-${d}`;
}

/** Values of the student's status lines. */
export type StepState = "Completed" | "In progress" | "Pending";

export interface SubmissionStatusView {
  studentName: string;
  indexNumber: string;
  programme: string;
  contact: string | null;
  status: {
    awaitingReview: StepState;
    sentToDepartment: StepState;
    nominationsReady: StepState;
    sentToInternal: StepState;
    sentToExternal: StepState;
    /** The examiner's state label ("Awaiting", "Received", "Report Submitted") or "Pending". */
    internalReport: string;
    externalReport: string;
    thesisStatus: string | null;
  };
  /**
   * The document checklist, in the prototype's column order. Added beside the prototype's fields
   * (old clients ignore it) so a student sees what the school has received and what is missing.
   */
  documents: {
    item: DocumentItem;
    label: string;
    submitted: boolean;
    receivedOn: string | null;
    /** Which system marked it, and when (issue 21); absent when a person did. */
    clearedBy?: ClearedBy;
  }[];
}

export function allDocumentsSubmitted(s: Pick<Submission, "documents">): boolean {
  return DOCUMENTS.every((item) => s.documents[item].submitted);
}

/**
 * The student's view: each line says whether that step is done. A stage is "Completed" once the
 * record has reached it; "Awaiting Review" is "In progress" while the school reviews the documents.
 */
export function toStatusView(s: Submission): SubmissionStatusView {
  const rank = sgsStageRank(s.sgsStage);
  const reached = (stage: SgsStage): StepState =>
    rank >= sgsStageRank(stage) ? "Completed" : "Pending";
  const reviewing =
    s.sgsStage === "awaiting_review" || (s.sgsStage === null && allDocumentsSubmitted(s));
  const sentTo = (state: ExaminerState | null): StepState =>
    s.sgsStage === "sent_to_examiners" && state !== null ? "Completed" : "Pending";
  return {
    studentName: s.studentName,
    indexNumber: s.indexNumber,
    programme: s.programme,
    contact: s.contact,
    status: {
      awaitingReview: reviewing ? "In progress" : rank > 0 ? "Completed" : "Pending",
      sentToDepartment: reached("sent_to_department"),
      nominationsReady: reached("nominations_ready"),
      sentToInternal: sentTo(s.internalExaminer),
      sentToExternal: sentTo(s.externalExaminer),
      internalReport: s.internalExaminer ? EXAMINER_STATE_LABELS[s.internalExaminer] : "Pending",
      externalReport: s.externalExaminer ? EXAMINER_STATE_LABELS[s.externalExaminer] : "Pending",
      thesisStatus: s.thesisStatus,
    },
    documents: DOCUMENTS.map((item) => ({
      item,
      label: DOCUMENT_LABELS[item],
      submitted: s.documents[item].submitted,
      receivedOn: s.documents[item].receivedOn,
      ...(item === "financialClearance" && s.documents[item].submitted && s.financialClearanceBy
        ? { clearedBy: { ...s.financialClearanceBy } }
        : {}),
    })),
  };
}

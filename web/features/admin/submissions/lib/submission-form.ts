import { z } from "zod";
import {
  submissionChangesSchema,
  submissionInputSchema,
  type SubmissionChanges,
  type SubmissionDto,
} from "../../../../../common/submissions-api.js";
import {
  DOCUMENTS,
  DOCUMENT_LABELS,
  SGS_STAGES,
  sgsStageRank,
  type DocumentItem,
  type ExaminerState,
  type SgsStage,
} from "../../../../../common/workflow.js";

/**
 * The submission form's values and their mapping onto the API payloads. Form controls hold
 * strings ("" for "not set") and booleans; the payload schemas of common/ validate the mapped
 * values, so the form and the server check a field with the same rule and the same words.
 */
export interface DocumentFormValue {
  submitted: boolean;
  /** YYYY-MM-DD from a date input, or "". */
  receivedOn: string;
}

export interface SubmissionFormValues {
  studentName: string;
  indexNumber: string;
  programme: string;
  contact: string;
  studentEmail: string;
  documents: Record<DocumentItem, DocumentFormValue>;
  sgsStage: SgsStage | "";
  internalExaminer: ExaminerState | "";
  externalExaminer: ExaminerState | "";
  thesisStatus: string;
  effectiveDate: string;
}

/** The fields a PATCH may change, in the order the form shows them. */
export const SCALAR_FIELDS = [
  "studentName",
  "programme",
  "contact",
  "studentEmail",
  "sgsStage",
  "internalExaminer",
  "externalExaminer",
  "thesisStatus",
  "effectiveDate",
] as const;
type ScalarField = (typeof SCALAR_FIELDS)[number];

export const FIELD_LABELS: Record<ScalarField | "indexNumber", string> = {
  studentName: "Student Name",
  indexNumber: "Index Number",
  programme: "Programme",
  contact: "Contact",
  studentEmail: "Student email",
  sgsStage: "SGS Admin stage",
  internalExaminer: "Internal examiner",
  externalExaminer: "External examiner",
  thesisStatus: "Thesis Status",
  effectiveDate: "Effective date",
};

/** The form fields a server message can be shown beside. */
export const LABELLED_FIELDS = Object.keys(FIELD_LABELS) as (keyof typeof FIELD_LABELS)[];

export function emptyFormValues(): SubmissionFormValues {
  return {
    studentName: "",
    indexNumber: "",
    programme: "",
    contact: "",
    studentEmail: "",
    documents: Object.fromEntries(
      DOCUMENTS.map((item) => [item, { submitted: false, receivedOn: "" }]),
    ) as Record<DocumentItem, DocumentFormValue>,
    sgsStage: "",
    internalExaminer: "",
    externalExaminer: "",
    thesisStatus: "",
    effectiveDate: "",
  };
}

export function toFormValues(s: SubmissionDto): SubmissionFormValues {
  return {
    studentName: s.studentName,
    indexNumber: s.indexNumber,
    programme: s.programme,
    contact: s.contact ?? "",
    studentEmail: s.studentEmail ?? "",
    documents: Object.fromEntries(
      DOCUMENTS.map((item) => [
        item,
        { submitted: s.documents[item].submitted, receivedOn: s.documents[item].receivedOn ?? "" },
      ]),
    ) as Record<DocumentItem, DocumentFormValue>,
    sgsStage: s.sgsStage ?? "",
    internalExaminer: s.internalExaminer ?? "",
    externalExaminer: s.externalExaminer ?? "",
    thesisStatus: s.thesisStatus ?? "",
    effectiveDate: s.effectiveDate ?? "",
  };
}

/** Form values as the payload schemas read them; blank text is left for the schema to clear. */
function toPayloadFields(values: SubmissionFormValues) {
  return {
    studentName: values.studentName,
    programme: values.programme,
    contact: values.contact,
    studentEmail: values.studentEmail,
    documents: Object.fromEntries(
      DOCUMENTS.map((item) => {
        const doc = values.documents[item];
        // A date typed before the box was unticked is not sent: not submitted means no date.
        return [
          item,
          { submitted: doc.submitted, receivedOn: doc.submitted ? doc.receivedOn : null },
        ];
      }),
    ),
    sgsStage: values.sgsStage === "" ? null : values.sgsStage,
    internalExaminer: values.internalExaminer === "" ? null : values.internalExaminer,
    externalExaminer: values.externalExaminer === "" ? null : values.externalExaminer,
    thesisStatus: values.thesisStatus,
    effectiveDate: values.effectiveDate,
  };
}

/** The new_submission form, validated by POST /api/submissions' own schema. */
export const newSubmissionFormSchema = z.preprocess(
  (values: SubmissionFormValues) => ({
    ...toPayloadFields(values),
    indexNumber: values.indexNumber,
  }),
  submissionInputSchema,
);

/** The details panel's edit form, validated by the PATCH schema (the index number is not editable). */
export const editSubmissionFormSchema = z.preprocess(
  (values: SubmissionFormValues) => toPayloadFields(values),
  submissionChangesSchema,
);

/**
 * The changes to send: only the fields whose validated value differs from the version the
 * administrator is editing, so a save touches nothing else (and the server's out-of-order check
 * sees only real moves).
 */
export function diffChanges(edited: SubmissionChanges, base: SubmissionDto): SubmissionChanges {
  const changes: SubmissionChanges = {};
  const scalar = <K extends ScalarField>(key: K) => {
    const next = edited[key];
    if (next === undefined) return;
    const was = base[key];
    // The server stores email addresses in lower case; a different case is no change.
    const same =
      key === "studentEmail" && typeof next === "string" && typeof was === "string"
        ? next.toLowerCase() === was.toLowerCase()
        : (next ?? null) === was;
    if (!same) changes[key] = next;
  };
  for (const key of SCALAR_FIELDS) scalar(key);

  const documents: NonNullable<SubmissionChanges["documents"]> = {};
  for (const item of DOCUMENTS) {
    const next = edited.documents?.[item];
    if (!next) continue;
    const was = base.documents[item];
    const receivedOn = next.receivedOn ?? null;
    if (next.submitted !== was.submitted || receivedOn !== was.receivedOn) {
      documents[item] = { submitted: next.submitted, receivedOn };
    }
  }
  if (Object.keys(documents).length > 0) changes.documents = documents;
  return changes;
}

/** The labels of the fields that differ between two versions of a record. */
export function changedFieldLabels(before: SubmissionDto, after: SubmissionDto): string[] {
  const labels: string[] = [];
  for (const key of SCALAR_FIELDS) {
    if (before[key] !== after[key]) labels.push(FIELD_LABELS[key]);
  }
  for (const item of DOCUMENTS) {
    const a = before.documents[item];
    const b = after.documents[item];
    if (a.submitted !== b.submitted || a.receivedOn !== b.receivedOn)
      labels.push(DOCUMENT_LABELS[item]);
  }
  return labels;
}

/**
 * Moves the form onto a newer version of the record without losing what the administrator typed:
 * a field they changed (it differs from the version they started from) keeps their value; every
 * other field takes the newer version's value.
 */
export function rebaseFormValues(
  values: SubmissionFormValues,
  oldBase: SubmissionDto,
  newBase: SubmissionDto,
): SubmissionFormValues {
  const was = toFormValues(oldBase);
  const next = toFormValues(newBase);
  const merged: SubmissionFormValues = { ...next, documents: { ...next.documents } };
  const keep = <K extends ScalarField>(key: K) => {
    if (values[key] !== was[key]) merged[key] = values[key];
  };
  for (const key of SCALAR_FIELDS) keep(key);
  for (const item of DOCUMENTS) {
    const mine = values.documents[item];
    const before = was.documents[item];
    if (mine.submitted !== before.submitted || mine.receivedOn !== before.receivedOn) {
      merged.documents[item] = { ...mine };
    }
  }
  return merged;
}

/** True when the form holds values that differ from the record they started from. */
export function hasUnsavedChanges(values: SubmissionFormValues, base: SubmissionDto): boolean {
  const was = toFormValues(base);
  return (
    SCALAR_FIELDS.some((key) => values[key] !== was[key]) ||
    DOCUMENTS.some(
      (item) =>
        values.documents[item].submitted !== was.documents[item].submitted ||
        values.documents[item].receivedOn !== was.documents[item].receivedOn,
    )
  );
}

/** The SGS stage after this one, or null at the end of the flow. */
export function nextSgsStage(stage: SgsStage | null): SgsStage | null {
  return SGS_STAGES[sgsStageRank(stage) + 1] ?? null;
}

/** "Student Name" + "is required" → "Student Name is required"; whole sentences stay as they are. */
export function fieldMessage(label: string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}

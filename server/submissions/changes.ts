import {
  DOCUMENTS,
  WORKFLOW_FIELDS,
  classifyWorkflowMove,
  type WorkflowField,
} from "../../common/workflow.js";
import type { DocumentState, Submission, SubmissionFields } from "../../common/submission.js";
import type {
  SubmissionChanges,
  SubmissionInput,
  WorkflowMove,
} from "../../common/submissions-api.js";
import type { NewSubmissionEvent } from "./repository.js";

/**
 * What a write changes, as pure functions: merging the administrator's input into a record,
 * listing each changed field the way submission_events stores it, and finding the workflow moves
 * that skip or reverse the flow. The services decide what to do with them.
 */

/** One changed field. Documents are "documents.<item>"; their value is null, "submitted" or the date received. */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/**
 * Where a change came from; decides the event kind of fields that are not workflow moves.
 * "review": the school accepted or returned an uploaded document, which sets or clears its item.
 */
export type ChangeSource = "edit" | "bulk" | "import" | "review";

const SCALAR_FIELDS = [
  "studentName",
  "indexNumber",
  "programme",
  "contact",
  "studentEmail",
  "thesisStatus",
  "effectiveDate",
  ...WORKFLOW_FIELDS,
] as const satisfies readonly (keyof SubmissionFields)[];

export function isWorkflowField(field: string): field is WorkflowField {
  return (WORKFLOW_FIELDS as readonly string[]).includes(field);
}

export function documentValue(state: DocumentState): string | null {
  if (!state.submitted) return null;
  return state.receivedOn ?? "submitted";
}

/** The fields of a new submission from the create form; omitted optional fields are empty. */
export function fieldsFromInput(input: SubmissionInput): SubmissionFields {
  const documents = Object.fromEntries(
    DOCUMENTS.map((item) => {
      const doc = input.documents?.[item];
      return [
        item,
        {
          submitted: doc?.submitted ?? false,
          receivedOn: doc?.submitted ? (doc.receivedOn ?? null) : null,
        },
      ];
    }),
  ) as SubmissionFields["documents"];
  return {
    studentName: input.studentName,
    indexNumber: input.indexNumber,
    programme: input.programme,
    contact: input.contact ?? null,
    studentEmail: lowerCase(input.studentEmail) ?? null,
    documents,
    sgsStage: input.sgsStage ?? null,
    internalExaminer: input.internalExaminer ?? null,
    externalExaminer: input.externalExaminer ?? null,
    thesisStatus: input.thesisStatus ?? null,
    effectiveDate: input.effectiveDate ?? null,
  };
}

export function fieldsOf(s: Submission): SubmissionFields {
  return {
    studentName: s.studentName,
    indexNumber: s.indexNumber,
    programme: s.programme,
    contact: s.contact,
    studentEmail: s.studentEmail,
    documents: s.documents,
    sgsStage: s.sgsStage,
    internalExaminer: s.internalExaminer,
    externalExaminer: s.externalExaminer,
    thesisStatus: s.thesisStatus,
    effectiveDate: s.effectiveDate,
  };
}

/**
 * Applies a PATCH's changes: a field left out stays as it is. A document marked submitted without
 * a date keeps the date already on file.
 */
export function applyChanges(
  before: SubmissionFields,
  changes: SubmissionChanges,
): SubmissionFields {
  const documents = { ...before.documents };
  for (const item of DOCUMENTS) {
    const change = changes.documents?.[item];
    if (!change) continue;
    const kept = before.documents[item].submitted ? before.documents[item].receivedOn : null;
    documents[item] = {
      submitted: change.submitted,
      receivedOn: change.submitted
        ? change.receivedOn === undefined
          ? kept
          : change.receivedOn
        : null,
    };
  }
  const pick = <K extends keyof SubmissionFields>(
    key: K,
    value: SubmissionFields[K] | undefined,
  ) => (value === undefined ? before[key] : value);
  return {
    studentName: pick("studentName", changes.studentName),
    indexNumber: before.indexNumber,
    programme: pick("programme", changes.programme),
    contact: pick("contact", changes.contact),
    studentEmail: pick("studentEmail", lowerCase(changes.studentEmail)),
    documents,
    sgsStage: pick("sgsStage", changes.sgsStage),
    internalExaminer: pick("internalExaminer", changes.internalExaminer),
    externalExaminer: pick("externalExaminer", changes.externalExaminer),
    thesisStatus: pick("thesisStatus", changes.thesisStatus),
    effectiveDate: pick("effectiveDate", changes.effectiveDate),
  };
}

/** Email addresses are stored in lower case, as accounts store them. */
function lowerCase<T extends string | null | undefined>(value: T): T {
  return (typeof value === "string" ? value.toLowerCase() : value) as T;
}

/** Every field that differs, in a stable order (the record's columns, then the documents). */
export function diffFields(before: SubmissionFields, after: SubmissionFields): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of SCALAR_FIELDS) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (from !== to) changes.push({ field, from, to });
  }
  for (const item of DOCUMENTS) {
    const from = documentValue(before.documents[item]);
    const to = documentValue(after.documents[item]);
    if (from !== to) changes.push({ field: `documents.${item}`, from, to });
  }
  return changes;
}

/** The workflow moves among the changes that skip ahead or go back, which need confirmation. */
export function outOfOrderMoves(submissionId: number, changes: FieldChange[]): WorkflowMove[] {
  const moves: WorkflowMove[] = [];
  for (const change of changes) {
    if (!isWorkflowField(change.field)) continue;
    const kind = classifyWorkflowMove(change.field, change.from, change.to);
    if (kind === "skip" || kind === "reverse") {
      moves.push({ submissionId, field: change.field, from: change.from, to: change.to, kind });
    }
  }
  return moves;
}

/**
 * The submission_events rows for a change set. An edit records a workflow move by its kind
 * (next, skip, reverse) and other fields as "edit"; bulk and import record their source.
 */
export function eventsFor(
  submissionId: number,
  changes: FieldChange[],
  source: ChangeSource,
  actorUserId: number | null,
  at: string,
  confirmedOutOfOrder: boolean,
): NewSubmissionEvent[] {
  return changes.map((change) => {
    const move = isWorkflowField(change.field)
      ? classifyWorkflowMove(change.field, change.from, change.to)
      : null;
    const outOfOrder = move === "skip" || move === "reverse";
    const kind = source !== "edit" ? source : (move ?? "edit");
    return {
      submissionId,
      actorUserId,
      at,
      field: change.field,
      from: change.from,
      to: change.to,
      kind,
      confirmedOutOfOrder: confirmedOutOfOrder && outOfOrder,
    };
  });
}

import type { SubmissionEvent, WorkflowMove } from "../../../../../common/submissions-api.js";
import {
  DOCUMENT_LABELS,
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  WORKFLOW_FIELDS,
  describeWorkflowMove,
  type DocumentItem,
  type ExaminerState,
  type SgsStage,
  type WorkflowField,
} from "../../../../../common/workflow.js";
import { formatDate } from "../../../../lib/format.js";
import { FIELD_LABELS } from "./submission-form.js";
import { NOT_SET } from "./markers.js";

/** Workflow moves and history events in the words the administrator's screens use. */

function isWorkflowField(field: string): field is WorkflowField {
  return (WORKFLOW_FIELDS as readonly string[]).includes(field);
}

export function workflowValueLabel(field: WorkflowField, value: string | null): string {
  if (value === null) return NOT_SET;
  if (field === "sgsStage") return SGS_STAGE_LABELS[value as SgsStage] ?? value;
  return EXAMINER_STATE_LABELS[value as ExaminerState] ?? value;
}

/** "SGS Admin stage: Awaiting Review → Sent to Examiners (skips ahead)". */
export function describeMove(move: Pick<WorkflowMove, "field" | "from" | "to" | "kind">): string {
  const from = workflowValueLabel(move.field, move.from);
  const to = workflowValueLabel(move.field, move.to);
  const why = move.kind === "skip" ? "skips ahead" : "goes back";
  return `${FIELD_LABELS[move.field]}: ${from} → ${to} (${why})`;
}

function documentValueLabel(value: string | null): string {
  if (value === null) return "not submitted";
  if (value === "submitted") return "submitted";
  return `received ${formatDate(value)}`;
}

/** Fields only the student's side changes, so the edit form has no label for them. */
const OTHER_FIELD_LABELS: Record<string, string> = {
  thesisTitle: "Thesis title",
  thesisAbstract: "Thesis abstract",
};

function documentLabelIn(field: string, prefix: string): string {
  const item = field.slice(prefix.length) as DocumentItem;
  return DOCUMENT_LABELS[item] ?? item;
}

/**
 * Uploads and review decisions are recorded as `upload.<item>` (to: the file's name) and
 * `review.<item>` with kind "accept" (to: the file's name) or "return" (to: the reason).
 */
function describeDocumentEvent(
  event: Pick<SubmissionEvent, "field" | "to" | "kind">,
): string | null {
  if (event.field.startsWith("upload.")) {
    const label = documentLabelIn(event.field, "upload.");
    return event.to ? `${label} uploaded: ${event.to}` : `${label} uploaded`;
  }
  if (event.field.startsWith("review.")) {
    const label = documentLabelIn(event.field, "review.");
    if (event.kind === "accept") {
      return event.to ? `${label} accepted: ${event.to}` : `${label} accepted`;
    }
    if (event.kind === "return") {
      return event.to
        ? `${label} returned to the student: “${event.to}”`
        : `${label} returned to the student`;
    }
    return `${label} reviewed`;
  }
  return null;
}

export function describeEvent(
  event: Pick<SubmissionEvent, "field" | "from" | "to" | "kind">,
): string {
  if (isWorkflowField(event.field)) return describeWorkflowMove(event.field, event.from, event.to);
  if (event.field.startsWith("documents.")) {
    const label = documentLabelIn(event.field, "documents.");
    return `${label}: ${documentValueLabel(event.to)}`;
  }
  const documentEvent = describeDocumentEvent(event);
  if (documentEvent) return documentEvent;
  const label =
    FIELD_LABELS[event.field as keyof typeof FIELD_LABELS] ??
    OTHER_FIELD_LABELS[event.field] ??
    event.field;
  if (event.to === null) return `${label} cleared`;
  if (event.from === null) return `${label} set to ${event.to}`;
  return `${label}: ${event.from} → ${event.to}`;
}

const KIND_LABELS: Record<string, string> = {
  create: "Created",
  next: "Next stage",
  skip: "Skipped ahead",
  reverse: "Moved back",
  edit: "Edited",
  bulk: "Bulk update",
  import: "Import",
  upload: "Upload",
  accept: "Accepted",
  return: "Returned",
};

export function eventKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

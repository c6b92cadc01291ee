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

export function describeEvent(event: Pick<SubmissionEvent, "field" | "from" | "to">): string {
  if (isWorkflowField(event.field)) return describeWorkflowMove(event.field, event.from, event.to);
  if (event.field.startsWith("documents.")) {
    const item = event.field.slice("documents.".length) as DocumentItem;
    const label = DOCUMENT_LABELS[item] ?? item;
    return `${label}: ${documentValueLabel(event.to)}`;
  }
  const label = FIELD_LABELS[event.field as keyof typeof FIELD_LABELS] ?? event.field;
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
};

export function eventKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

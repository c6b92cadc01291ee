/**
 * The thesis workflow as data: stages, examiner states and documents, their labels and order.
 * Server and web both read this module; nothing else defines the flow.
 * The order follows the prototype's implied flow (spec section 4): documents submitted, awaiting
 * review, sent to department, nominations ready, sent to examiners; then each examiner moves from
 * awaiting to received to report submitted.
 */

export const SGS_STAGES = [
  "awaiting_review",
  "sent_to_department",
  "nominations_ready",
  "sent_to_examiners",
] as const;
export type SgsStage = (typeof SGS_STAGES)[number];

export const SGS_STAGE_LABELS: Record<SgsStage, string> = {
  awaiting_review: "Awaiting Review",
  sent_to_department: "Sent to Department",
  nominations_ready: "Nominations Ready",
  sent_to_examiners: "Sent to Examiners",
};

export const EXAMINER_STATES = ["awaiting", "received", "report_submitted"] as const;
export type ExaminerState = (typeof EXAMINER_STATES)[number];

export const EXAMINER_STATE_LABELS: Record<ExaminerState, string> = {
  awaiting: "Awaiting",
  received: "Received",
  report_submitted: "Report Submitted",
};

export const EXAMINERS = ["internal", "external"] as const;
export type Examiner = (typeof EXAMINERS)[number];

/** The five document items of the prototype's sample list, in its column order. */
export const DOCUMENTS = [
  "thesis",
  "turnitinReport",
  "supervisorForm",
  "statementOfResult",
  "financialClearance",
] as const;
export type DocumentItem = (typeof DOCUMENTS)[number];

export const DOCUMENT_LABELS: Record<DocumentItem, string> = {
  thesis: "Thesis",
  turnitinReport: "Turnitin report",
  supervisorForm: "Supervisor form",
  statementOfResult: "Statement of Result",
  financialClearance: "Financial Clearance",
};

export const SUBMITTED_LABEL = "Submitted";

export function sgsStageFromLabel(label: string): SgsStage | null {
  return labelLookup(SGS_STAGE_LABELS, label);
}

export function examinerStateFromLabel(label: string): ExaminerState | null {
  return labelLookup(EXAMINER_STATE_LABELS, label);
}

function labelLookup<K extends string>(labels: Record<K, string>, label: string): K | null {
  const wanted = label.trim().toLowerCase();
  for (const [key, value] of Object.entries(labels) as [K, string][]) {
    if (value.toLowerCase() === wanted || key === wanted) return key;
  }
  return null;
}

/** Position in the flow; null (not started) sorts before every stage. */
export function sgsStageRank(stage: SgsStage | null): number {
  return stage === null ? -1 : SGS_STAGES.indexOf(stage);
}

export function examinerStateRank(state: ExaminerState | null): number {
  return state === null ? -1 : EXAMINER_STATES.indexOf(state);
}

export type MoveKind = "unchanged" | "next" | "skip" | "reverse";

/**
 * Classifies a move along an ordered flow: one step forward is the normal move; anything else
 * (skipping ahead, going back, clearing) must be confirmed by the administrator and is recorded
 * as such.
 */
export function classifyMove(fromRank: number, toRank: number): MoveKind {
  if (toRank === fromRank) return "unchanged";
  if (toRank === fromRank + 1) return "next";
  return toRank > fromRank ? "skip" : "reverse";
}

export function classifySgsMove(from: SgsStage | null, to: SgsStage | null): MoveKind {
  return classifyMove(sgsStageRank(from), sgsStageRank(to));
}

/**
 * The stages a forward move from `from` to `to` passes over without setting them (the student's
 * status shows them completed): from "Not started" to "Sent to Examiners", the three before it.
 */
export function skippedSgsStages(from: SgsStage | null, to: SgsStage): SgsStage[] {
  return SGS_STAGES.slice(sgsStageRank(from) + 1, sgsStageRank(to));
}

export function classifyExaminerMove(
  from: ExaminerState | null,
  to: ExaminerState | null,
): MoveKind {
  return classifyMove(examinerStateRank(from), examinerStateRank(to));
}

/** The submission fields whose values move along a flow. */
export const WORKFLOW_FIELDS = ["sgsStage", "internalExaminer", "externalExaminer"] as const;
export type WorkflowField = (typeof WORKFLOW_FIELDS)[number];

export const EXAMINER_FIELDS: Record<Examiner, "internalExaminer" | "externalExaminer"> = {
  internal: "internalExaminer",
  external: "externalExaminer",
};

export const EXAMINER_LABELS: Record<Examiner, string> = {
  internal: "Internal examiner",
  external: "External examiner",
};

/** Classifies a move of any workflow field; values are stage or examiner-state codes. */
export function classifyWorkflowMove(
  field: WorkflowField,
  from: string | null,
  to: string | null,
): MoveKind {
  if (field === "sgsStage") {
    return classifySgsMove(asSgsStage(from), asSgsStage(to));
  }
  return classifyExaminerMove(asExaminerState(from), asExaminerState(to));
}

/**
 * A move in plain words, as the student's timeline and notices say it:
 * "Sent to Department", "Internal examiner: Report Submitted".
 */
export function describeWorkflowMove(
  field: WorkflowField,
  from: string | null,
  to: string | null,
): string {
  const back = classifyWorkflowMove(field, from, to) === "reverse";
  if (field === "sgsStage") {
    const stage = asSgsStage(to);
    if (stage === null) return "SGS stage cleared";
    return back ? `Returned to ${SGS_STAGE_LABELS[stage]}` : SGS_STAGE_LABELS[stage];
  }
  const who = EXAMINER_LABELS[field === "internalExaminer" ? "internal" : "external"];
  const state = asExaminerState(to);
  if (state === null) return `${who}: cleared`;
  return `${who}: ${EXAMINER_STATE_LABELS[state]}${back ? " (moved back)" : ""}`;
}

function asSgsStage(value: string | null): SgsStage | null {
  return value !== null && (SGS_STAGES as readonly string[]).includes(value)
    ? (value as SgsStage)
    : null;
}

function asExaminerState(value: string | null): ExaminerState | null {
  return value !== null && (EXAMINER_STATES as readonly string[]).includes(value)
    ? (value as ExaminerState)
    : null;
}

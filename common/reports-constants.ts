/**
 * The Reports figures' stages, legs, labels and limits (issue 22), without zod: ./reports.ts holds
 * the schemas and the definitions, and re-exports these.
 */

import { SGS_STAGES, SGS_STAGE_LABELS } from "./workflow.js";

// ---------------------------------------------------------------------------------------------
// Stages and legs

/**
 * The stages whose time the report measures, in the order a thesis passes them:
 * - the four SGS stages, each visit from entering the stage until the record's stage next changes
 *   (the last, "sent_to_examiners", until the outcome is released); a record moved back and
 *   forward again visits a stage twice, and each visit is one duration;
 * - "corrections": from the released outcome (minor or major corrections) until the corrections
 *   are approved (the award).
 */
export const REPORT_STAGES = [...SGS_STAGES, "corrections"] as const;
export type ReportStage = (typeof REPORT_STAGES)[number];

export const REPORT_STAGE_LABELS: Record<ReportStage, string> = {
  ...SGS_STAGE_LABELS,
  corrections: "Corrections",
};

/**
 * An examiner's turnaround, by the examination's own dates: the link sent (sent_at), the thesis
 * downloaded (received_at), the report received (report_uploaded_at).
 */
export const TURNAROUND_LEGS = [
  "link_to_download",
  "download_to_report",
  "link_to_report",
] as const;
export type TurnaroundLeg = (typeof TURNAROUND_LEGS)[number];

export const TURNAROUND_LEG_LABELS: Record<TurnaroundLeg, string> = {
  link_to_download: "Link sent to thesis downloaded",
  download_to_report: "Thesis downloaded to report received",
  link_to_report: "Link sent to report received",
};

/** How a late report is known (the one overdue list, issue 22 item 4). */
export const LATE_KNOWN_BY = ["link_due_date", "typed_state"] as const;
export type LateKnownBy = (typeof LATE_KNOWN_BY)[number];

export const LATE_KNOWN_BY_LABELS: Record<LateKnownBy, string> = {
  link_due_date: "Link's due date",
  typed_state: "State typed by hand",
};

/** Examiners per page of the per-examiner table. */
export const REPORT_EXAMINER_PAGE_SIZE = 25;
/** At most this many late reports are listed; `late.total` counts all. */
export const REPORT_LATE_LIST_LIMIT = 50;

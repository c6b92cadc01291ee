/**
 * Examiners in the loop (issue 9, docs/decisions/009-examiners.md): the examiner kinds, the
 * examination states, the recommendations and their labels, the limits and defaults, and the small
 * helpers that show them.
 *
 * Plain constants without zod, apart from ./examiners.ts (which re-exports them beside its
 * schemas), so a page that only shows a label does not load zod (issue 11: JavaScript on the
 * first load).
 */

import { EXAMINERS, type Examiner } from "./workflow.js";

// ---------------------------------------------------------------------------------------------
// Enumerations

export const EXAMINER_KINDS = EXAMINERS;
export type ExaminerKind = Examiner;

export const EXAMINER_KIND_LABELS: Record<ExaminerKind, string> = {
  internal: "Internal",
  external: "External",
};

/**
 * An examination's state:
 * - "nominated": chosen, no link sent yet;
 * - "sent": link mailed, thesis not downloaded (the record's examiner state is "Awaiting");
 * - "received": the examiner downloaded the thesis ("Received");
 * - "report_submitted": the report is in ("Report Submitted");
 * - "replaced": another examiner took this role; the link stopped working at once.
 */
export const EXAMINATION_STATES = [
  "nominated",
  "sent",
  "received",
  "report_submitted",
  "replaced",
] as const;
export type ExaminationState = (typeof EXAMINATION_STATES)[number];

export const EXAMINATION_STATE_LABELS: Record<ExaminationState, string> = {
  nominated: "Nominated",
  sent: "Link sent",
  received: "Received",
  report_submitted: "Report Submitted",
  replaced: "Replaced",
};

/** An examiner's recommendation, and the outcome the school releases (the same five words). */
export const RECOMMENDATIONS = [
  "pass",
  "minor_corrections",
  "major_corrections",
  "resubmit",
  "fail",
] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

export const RECOMMENDATION_LABELS: Record<Recommendation, string> = {
  pass: "Pass",
  minor_corrections: "Minor corrections",
  major_corrections: "Major corrections",
  resubmit: "Resubmit",
  fail: "Fail",
};

/** Outcomes after which the student uploads a corrected thesis for the internal examiner. */
export const CORRECTION_OUTCOMES: readonly Recommendation[] = [
  "minor_corrections",
  "major_corrections",
];

/** The record's Thesis Status once the outcome is released: the outcome's label, then this. */
export const CORRECTIONS_APPROVED_STATUS = "Corrections approved";

/**
 * Where the corrections stand, for the student, the admin and the internal examiner:
 * "not_needed" (no outcome yet, or one without corrections), "to_upload" (the student uploads the
 * corrected thesis), "to_confirm" (uploaded after the release; the internal examiner or an
 * administrator confirms), "approved".
 */
export const CORRECTION_STATES = ["not_needed", "to_upload", "to_confirm", "approved"] as const;
export type CorrectionState = (typeof CORRECTION_STATES)[number];

/** Why an examiner link does not open the page; the page says so with the school's contact. */
export const LINK_REFUSALS = ["invalid", "expired", "revoked", "replaced"] as const;
export type LinkRefusal = (typeof LINK_REFUSALS)[number];

// ---------------------------------------------------------------------------------------------
// Limits and defaults (config: ETS_EXAMINER_LINK_DAYS, ETS_REPORT_DUE_DAYS, ETS_REMINDER_DAYS)

export const DEFAULT_EXAMINER_LINK_DAYS = 120;
export const DEFAULT_REPORT_DUE_DAYS = 42;
/** Days relative to the due date: a week before, on the day, one and two weeks after. */
export const DEFAULT_REMINDER_DAYS = [-7, 0, 7, 14] as const;
export const MAX_EXAMINER_NAME_LENGTH = 200;
export const MAX_INSTITUTION_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_EXAMINER_NOTE_LENGTH = 4000;
export const MAX_CORRECTIONS_LENGTH = 10000;
export const EXAMINER_PAGE_SIZE = 25;
export const MAX_EXAMINER_PAGE_SIZE = 100;
/** The examiner page's header scheme: `Authorization: Examiner <token>`. */
export const EXAMINER_AUTH_SCHEME = "Examiner";
/** Where the link points; the token follows after `#`. */
export const EXAMINER_PAGE_PATH = "/examiner";

export function examinerLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${EXAMINER_PAGE_PATH}#${token}`;
}

/** Days as a signed offset from the due date, in words: "7 days before", "on the due date". */
export function describeReminderOffset(offsetDays: number): string {
  if (offsetDays === 0) return "on the due date";
  const days = Math.abs(offsetDays);
  const unit = days === 1 ? "day" : "days";
  return offsetDays < 0
    ? `${days} ${unit} before the due date`
    : `${days} ${unit} after the due date`;
}

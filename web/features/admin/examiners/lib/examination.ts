import { z } from "zod";
import {
  outcomeInputSchema,
  type OutcomeInput,
  type Reminder,
} from "../../../../../common/examiners.js";
import {
  CORRECTION_OUTCOMES,
  describeReminderOffset,
  type CorrectionState,
  type ExaminationState,
  type Recommendation,
} from "../../../../../common/examiners-constants.js";
import { formatDate } from "../../../../lib/format.js";

/**
 * The administrator's words for examinations, as pure functions so they are tested without a page.
 * Every state has an icon as well as a colour, so neither carries the meaning alone.
 */

export const EXAMINATION_STATE_TONES: Record<ExaminationState, string> = {
  nominated: "chip--navy",
  sent: "chip--amber",
  received: "chip--amber",
  report_submitted: "chip--green",
  replaced: "chip--red",
};

export const EXAMINATION_STATE_ICONS: Record<ExaminationState, string> = {
  nominated: "○",
  sent: "✉",
  received: "◐",
  report_submitted: "✓",
  replaced: "↺",
};

export const CORRECTION_STATE_WORDS: Record<CorrectionState, string> = {
  not_needed: "No corrections needed",
  to_upload: "Waiting for the student to upload the corrected thesis",
  to_confirm: "Corrected thesis uploaded: waiting for confirmation of the corrections",
  approved: "Corrections approved",
};

/** "2025-03-12" read as a day in the reader's calendar (no shift by their time zone). */
function dayOf(isoDate: string): Date {
  return new Date(`${isoDate.slice(0, 10)}T00:00:00`);
}

/** A date-only value ("2025-03-12") as "12 March 2025". */
export function formatDay(isoDate: string): string {
  return formatDate(`${isoDate.slice(0, 10)}T00:00:00`);
}

/** The reader's today as YYYY-MM-DD (for a date input's minimum and for day counts). */
export function localIsoDate(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whole days from `today` to the due date: positive before it, negative after. */
export function daysUntil(dueOn: string, today: Date = new Date()): number {
  const start = dayOf(localIsoDate(today));
  return Math.round((dayOf(dueOn).getTime() - start.getTime()) / 86_400_000);
}

/** "due in 12 days", "due tomorrow", "due today", "1 day overdue", "3 days overdue". */
export function dueInWords(dueOn: string, today: Date = new Date()): string {
  const days = daysUntil(dueOn, today);
  if (days === 0) return "due today";
  if (days === 1) return "due tomorrow";
  if (days > 1) return `due in ${days} days`;
  return `${-days} ${days === -1 ? "day" : "days"} overdue`;
}

/** "Sent by hand" or "7 days before the due date", for a reminder's line in the panel. */
export function reminderWhy(reminder: Pick<Reminder, "manual" | "offsetDays">): string {
  if (reminder.manual || reminder.offsetDays === null) return "sent by hand";
  return `scheduled, ${describeReminderOffset(reminder.offsetDays)}`;
}

export function needsCorrections(decision: Recommendation): boolean {
  return CORRECTION_OUTCOMES.includes(decision);
}

/** "Name is required" from the schema's "is required"; a full sentence stays as it is. */
export function fieldMessage(label: string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}

// ---------------------------------------------------------------------------------------------
// The outcome form: its values mapped onto the API's payload, validated by the contract's schema

export interface OutcomeFormValues {
  /** Empty until a radio button is chosen. */
  decision: Recommendation | "";
  corrections: string;
}

/**
 * The contract leaves `corrections` optional; the form asks for them when the decision is a
 * corrections one, since the student cannot read the reports and needs to be told what to change.
 */
export const outcomeFormSchema = z
  .preprocess(
    (values: OutcomeFormValues) => ({
      decision: values.decision === "" ? undefined : values.decision,
      corrections: values.corrections,
    }),
    outcomeInputSchema,
  )
  .superRefine((outcome: OutcomeInput, context) => {
    if (needsCorrections(outcome.decision) && !outcome.corrections) {
      context.addIssue({
        code: "custom",
        path: ["corrections"],
        message: "Write the corrections the student must make",
      });
    }
  });

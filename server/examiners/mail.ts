import {
  EXAMINER_KIND_LABELS,
  RECOMMENDATION_LABELS,
  type ExaminerKind,
  type Recommendation,
} from "../../common/examiners.js";
import type { OutgoingMail } from "../mail/outbox.js";

/**
 * The mails of the examination (issue 9). An examiner's mail carries their personal link and the
 * thesis's title, never the student's contact details; the link is the only secret in it and is
 * never in the template parameters (they are stored beside the mail, readable by administrators).
 */

export interface ExaminerMailInput {
  to: string;
  examinerName: string;
  role: ExaminerKind;
  thesisTitle: string | null;
  programme: string;
  /** The link with its token: `${PUBLIC_URL}/examiner#<token>`. */
  link: string;
  /** YYYY-MM-DD. */
  dueOn: string;
  /** ISO date and time the link stops working. */
  linkExpiresAt: string;
  schoolContact: string | null;
}

const SIGNATURE = "School of Graduate Studies";

function thesisLine(input: Pick<ExaminerMailInput, "thesisTitle" | "programme">): string {
  return input.thesisTitle
    ? `"${input.thesisTitle}" (${input.programme})`
    : `a thesis in ${input.programme}`;
}

function contactLine(schoolContact: string | null): string {
  return schoolContact
    ? `Questions about this examination: ${schoolContact}.`
    : "Questions about this examination: reply to the School of Graduate Studies.";
}

/** The invitation with the link, sent by "Send to examiners" (and when a link is sent again). */
export function examinerInvitationMail(input: ExaminerMailInput): OutgoingMail {
  return {
    to: input.to,
    subject: `Thesis for examination: ${input.thesisTitle ?? input.programme}`,
    text: [
      `Dear ${input.examinerName},`,
      "",
      `Thank you for agreeing to serve as ${EXAMINER_KIND_LABELS[input.role].toLowerCase()} examiner of ${thesisLine(input)}.`,
      "",
      "Your personal examination page, where you download the thesis and upload your report:",
      input.link,
      "",
      `Your report is due on ${input.dueOn}. The link works until ${input.linkExpiresAt.slice(0, 10)};`,
      "it is for you alone: please do not forward it.",
      "",
      contactLine(input.schoolContact),
      "",
      SIGNATURE,
    ].join("\n"),
    template: {
      name: "examiner_invitation",
      params: { role: input.role, dueOn: input.dueOn },
    },
    secret: true,
  };
}

// Reminders carry no link (only the token's hash is stored, so it cannot be rebuilt): see
// examinerReminderWithoutLinkMail in reminder-service.ts and docs/decisions/009-examiners.md.

/** To each active administrator when an examiner's report arrives. */
export function reportReceivedMail(input: {
  to: string;
  role: ExaminerKind;
  studentName: string;
  indexNumber: string;
  recommendation: Recommendation;
  /** Where the administrator opens the record: `${PUBLIC_URL}/admin/all_submissions?q=<index>`. */
  recordLink: string;
}): OutgoingMail {
  const who = `${EXAMINER_KIND_LABELS[input.role]} examiner`;
  return {
    to: input.to,
    subject: `${who}'s report received: ${input.studentName} (${input.indexNumber})`,
    text: [
      `The ${who.toLowerCase()}'s report on the thesis of ${input.studentName} (${input.indexNumber}) has been uploaded.`,
      `Recommendation: ${RECOMMENDATION_LABELS[input.recommendation]}.`,
      "",
      `Open the record: ${input.recordLink}`,
      "",
      "ETS Tracking",
    ].join("\n"),
    template: {
      name: "examiner_report_received",
      params: { role: input.role, indexNumber: input.indexNumber },
    },
  };
}

/** To the internal examiner when the student uploads the corrected thesis. */
export function correctionsReadyMail(input: ExaminerMailInput): OutgoingMail {
  return {
    to: input.to,
    subject: `Corrected thesis ready for your confirmation: ${input.thesisTitle ?? input.programme}`,
    text: [
      `Dear ${input.examinerName},`,
      "",
      `The student has uploaded the corrected version of ${thesisLine(input)}.`,
      "Please download it from your examination page and confirm the corrections there:",
      input.link,
      "",
      contactLine(input.schoolContact),
      "",
      SIGNATURE,
    ].join("\n"),
    template: { name: "examiner_corrections_ready", params: { role: input.role } },
    secret: true,
  };
}

import {
  EXAMINER_KIND_LABELS,
  RECOMMENDATION_LABELS,
  type ExaminerKind,
  type Recommendation,
} from "../../common/examiners.js";
import type { OutgoingMail } from "../mail/outbox.js";
import { daysBetween } from "./reminder-repository.js";

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

/** The examiner's page and its link, as the invitation and each reminder give it. */
function pageLink(link: string): string[] {
  return [
    "Your personal examination page, where you download the thesis and upload your report:",
    link,
    "",
  ];
}

function closing(schoolContact: string | null): string[] {
  return ["", contactLine(schoolContact), "", SIGNATURE];
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
      ...pageLink(input.link),
      `Your report is due on ${input.dueOn}. The link works until ${input.linkExpiresAt.slice(0, 10)};`,
      "it is for you alone: please do not forward it.",
      ...closing(input.schoolContact),
    ].join("\n"),
    template: {
      name: "examiner_invitation",
      params: { role: input.role, dueOn: input.dueOn },
    },
    secret: true,
  };
}

export interface ReminderMailInput extends Omit<ExaminerMailInput, "dueOn"> {
  /** YYYY-MM-DD, or null when the school set none. */
  dueOn: string | null;
  /** YYYY-MM-DD the invitation was mailed: its link keeps working too. */
  invitedOn: string;
  /** YYYY-MM-DD, UTC: the mail says "in 7 days", "today" or "9 days ago" from this day. */
  today: string;
  /** The schedule's offset; null for a reminder sent by hand. */
  offsetDays: number | null;
}

/**
 * The reminder: when the report is due, and a fresh link of its own to the examination page
 * (docs/decisions/009-examiners.md: an examination has several live links), so an examiner who
 * lost the invitation needs nothing from the school. The invitation's link keeps working.
 */
export function examinerReminderMail(input: ReminderMailInput): OutgoingMail {
  return {
    to: input.to,
    subject: `Reminder: examination report for ${input.thesisTitle ?? input.programme}`,
    text: [
      `Dear ${input.examinerName},`,
      "",
      `This is a reminder that your report as ${EXAMINER_KIND_LABELS[input.role].toLowerCase()} examiner of ${thesisLine(input)} ${dueWords(input.dueOn, input.today)}.`,
      "",
      ...pageLink(input.link),
      `This link works until ${input.linkExpiresAt.slice(0, 10)}; the link in our invitation of ${input.invitedOn} works too.`,
      "It is for you alone: please do not forward it.",
      "",
      "If you have already uploaded your report, please ignore this mail.",
      ...closing(input.schoolContact),
    ].join("\n"),
    template: {
      name: "examiner_reminder",
      params: {
        role: input.role,
        dueOn: input.dueOn,
        offsetDays: input.offsetDays,
        invitedOn: input.invitedOn,
      },
    },
    secret: true,
  };
}

function dueWords(dueOn: string | null, today: string): string {
  if (dueOn === null) return "is awaited";
  const days = daysBetween(today, dueOn);
  if (days > 1) return `is due on ${dueOn}, in ${days} days`;
  if (days === 1) return `is due tomorrow, ${dueOn}`;
  if (days === 0) return `is due today, ${dueOn}`;
  if (days === -1) return `was due yesterday, ${dueOn}`;
  return `was due on ${dueOn}, ${-days} days ago`;
}

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
      ...closing(input.schoolContact),
    ].join("\n"),
    template: { name: "examiner_corrections_ready", params: { role: input.role } },
    secret: true,
  };
}

import { describeWorkflowMove } from "../../common/workflow.js";
import type { Submission } from "../../common/submission.js";
import type { Config } from "../config.js";
import type { Executor } from "../db/database.js";
import { enqueueMail } from "../mail/outbox.js";
import { isWorkflowField, type FieldChange } from "./changes.js";

/**
 * What a student is told about their submission: a notice in their Messages tab and, when they
 * have an account, the same words by email, written in the transaction of the change. The record's
 * workflow moves are told here, beside their bulk twin in bulk-write.ts; messages/ tells the
 * school's decisions and its own notices through the same two writes.
 */

export interface NewMessage {
  submissionId: number | null;
  title: string | null;
  body: string;
  createdBy: number | null;
  at: string;
}

export interface StudentAccount {
  id: number;
  email: string;
  name: string | null;
}

export async function insertMessage(db: Executor, message: NewMessage): Promise<number> {
  const row = await db
    .insertInto("messages")
    .values({
      submission_id: message.submissionId,
      title: message.title,
      body: message.body,
      created_by: message.createdBy,
      created_at: message.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The active student account linked to an index number, if the student has signed up. */
export async function findStudentAccount(
  db: Executor,
  indexNumber: string,
): Promise<StudentAccount | null> {
  const row = await db
    .selectFrom("users")
    .select(["id", "email", "name"])
    .where("role", "=", "student")
    .where("active", "=", 1)
    .where("index_number", "=", indexNumber)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Tells the student about their submission's workflow moves: one message in the Messages tab per
 * save (listing every stage and examiner move of it) and, when the student has an account, the
 * same words by email. Call it in the transaction that writes the moves.
 */
export async function notifyWorkflowChanges(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  submission: Pick<Submission, "id" | "indexNumber" | "studentName">,
  changes: FieldChange[],
  actorUserId: number | null,
  at: string,
): Promise<void> {
  const notice = workflowNotice(submission.indexNumber, changes);
  if (notice === null) return;
  const { lines, title, body } = notice;
  await insertMessage(trx, {
    submissionId: submission.id,
    title,
    body,
    createdBy: actorUserId,
    at,
  });
  await mailStudent(trx, config, submission, `ETS Tracking: ${title}`, body, {
    name: "submission_update",
    params: { indexNumber: submission.indexNumber, changes: lines },
  });
}

/**
 * The words of a workflow notice (the message's title and body, also the mail's) and its lines,
 * one per stage or examiner move; null when the changes move nothing the student is told about.
 */
export function workflowNotice(
  indexNumber: string,
  changes: readonly FieldChange[],
): { lines: string[]; title: string; body: string } | null {
  const lines = changes.flatMap((change) =>
    isWorkflowField(change.field)
      ? [describeWorkflowMove(change.field, change.from, change.to)]
      : [],
  );
  if (lines.length === 0) return null;
  const title = lines.length === 1 ? (lines[0] ?? "") : "Your thesis submission has moved on";
  const body = `Your thesis submission (${indexNumber}) has been updated:\n${lines
    .map((line) => `- ${line}`)
    .join("\n")}`;
  return { lines, title, body };
}

/** A mail to a student: the greeting, the notice's body and the way back to the product. */
export function studentMailText(greetingName: string, body: string, link: string): string {
  return `Dear ${greetingName},\n\n${body}\n\nSee your submission's progress and messages at ${link}\n\nSchool of Graduate Studies`;
}

/** Mails a student who has an account the words of a notice, with the way back to the product. */
export async function mailStudent(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  submission: Pick<Submission, "indexNumber" | "studentName">,
  subject: string,
  body: string,
  template: { name: string; params: Record<string, unknown> },
  page = "/dashboard/messages",
): Promise<void> {
  const account = await findStudentAccount(trx, submission.indexNumber);
  if (!account) return;
  await enqueueMail(trx, {
    to: account.email,
    subject,
    text: studentMailText(
      account.name ?? submission.studentName,
      body,
      `${config.publicUrl}${page}`,
    ),
    template,
  });
}

import {
  CORRECTION_OUTCOMES,
  CORRECTIONS_APPROVED_STATUS,
  RECOMMENDATION_LABELS,
  type Recommendation,
} from "../../common/examiners.js";
import { DOCUMENT_LABELS, type DocumentItem } from "../../common/workflow.js";
import type { Submission } from "../../common/submission.js";
import type { MessageListResponse, SendMessage } from "../../common/submissions-api.js";
import type { SessionUser } from "../auth/session.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { notFound } from "../errors.js";
import { insertMessage, mailStudent } from "../submissions/notices.js";
import { findSubmissionByIndexNumber } from "../submissions/repository.js";
import {
  countUnreadMessages,
  findMessage,
  listVisibleMessages,
  markMessageRead,
} from "./repository.js";
import { presentMessage } from "./presenter.js";

export interface MessageContext {
  db: Db;
  config: Pick<Config, "publicUrl">;
}

/** The Messages tab shows this many, newest first. */
const MESSAGE_LIST_LIMIT = 200;

/** A school's decision on one uploaded document, as the student is told about it. */
export type DocumentDecision =
  | { kind: "accept"; item: DocumentItem; fileName: string; receivedOn: string }
  | { kind: "return"; item: DocumentItem; fileName: string; reason: string };

/** "thesis" reads as a common noun in a sentence; the forms keep their names. */
function documentInSentence(item: DocumentItem): string {
  return item === "thesis" ? "thesis" : DOCUMENT_LABELS[item];
}

/** The words of a decision notice: the message's title and body, also the mail's. */
export function documentDecisionNotice(decision: DocumentDecision): {
  title: string;
  body: string;
} {
  const label = DOCUMENT_LABELS[decision.item];
  const named = documentInSentence(decision.item);
  if (decision.kind === "accept") {
    return {
      title: `${label} accepted`,
      body: `Your ${named} (${decision.fileName}) was accepted by the School of Graduate Studies and is recorded as received on ${decision.receivedOn}.`,
    };
  }
  // The reason is shown in full, as the administrator wrote it.
  const reason = /[.!?]$/.test(decision.reason) ? decision.reason : `${decision.reason}.`;
  return {
    title: `${label} returned`,
    body: `Your ${named} was returned: ${reason} Please upload a new version.\n\n(The file returned: ${decision.fileName}.)`,
  };
}

/**
 * Tells the student the school accepted or returned one of their uploads: a message in the
 * Messages tab and, when the student has an account, the same words by email through the outbox.
 * Call it in the transaction that records the decision.
 */
export async function notifyDocumentDecision(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  submission: Pick<Submission, "id" | "indexNumber" | "studentName">,
  decision: DocumentDecision,
  actorUserId: number | null,
  at: string,
): Promise<void> {
  const { title, body } = documentDecisionNotice(decision);
  await insertMessage(trx, {
    submissionId: submission.id,
    title,
    body,
    createdBy: actorUserId,
    at,
  });
  await mailStudent(
    trx,
    config,
    submission,
    `ETS Tracking: ${title}`,
    body,
    {
      name: decision.kind === "accept" ? "document_accepted" : "document_returned",
      params: { indexNumber: submission.indexNumber, item: decision.item },
    },
    "/dashboard/status",
  );
}

/**
 * What the student is told about their examination: the outcome released (with the corrections
 * requested, when there are some) or the corrections approved. Never who the examiners are nor
 * what their reports say: only the school's decision and the text the administrator wrote.
 */
export type OutcomeNotice =
  | { kind: "released"; decision: Recommendation; corrections: string | null }
  | { kind: "corrections_approved" };

/** The words of an outcome notice: the message's title and body, also the mail's. */
export function outcomeNotice(
  notice: OutcomeNotice,
  indexNumber: string,
): { title: string; body: string } {
  if (notice.kind === "corrections_approved") {
    return {
      title: CORRECTIONS_APPROVED_STATUS,
      body: `The corrections to your thesis (${indexNumber}) have been approved. Your thesis status is now "${CORRECTIONS_APPROVED_STATUS}".`,
    };
  }
  const label = RECOMMENDATION_LABELS[notice.decision];
  const lines = [
    `The School of Graduate Studies has released the outcome of the examination of your thesis (${indexNumber}): ${label}.`,
  ];
  if (CORRECTION_OUTCOMES.includes(notice.decision)) {
    if (notice.corrections) lines.push("", "The corrections requested:", notice.corrections);
    lines.push(
      "",
      "Please make the corrections and upload the corrected thesis on your Documents page; the school will tell you when they are approved.",
    );
  }
  return { title: `Examination outcome: ${label}`, body: lines.join("\n") };
}

/**
 * Tells the student about their examination's outcome or the approval of their corrections: a
 * message in the Messages tab and, when the student has an account, the same words by email.
 * Call it in the transaction that records the outcome or the approval.
 */
export async function notifyOutcome(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  submission: Pick<Submission, "id" | "indexNumber" | "studentName">,
  notice: OutcomeNotice,
  actorUserId: number | null,
  at: string,
): Promise<void> {
  const { title, body } = outcomeNotice(notice, submission.indexNumber);
  await insertMessage(trx, {
    submissionId: submission.id,
    title,
    body,
    createdBy: actorUserId,
    at,
  });
  await mailStudent(
    trx,
    config,
    submission,
    `ETS Tracking: ${title}`,
    body,
    notice.kind === "released"
      ? {
          name: "examination_outcome",
          params: { indexNumber: submission.indexNumber, decision: notice.decision },
        }
      : { name: "corrections_approved", params: { indexNumber: submission.indexNumber } },
    "/dashboard/status",
  );
}

/** An administrator's notice to one student (by index number) or to every student. */
export async function sendMessage(
  ctx: MessageContext,
  admin: SessionUser,
  message: SendMessage,
): Promise<void> {
  const at = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    if (message.broadcast) {
      await insertMessage(trx, {
        submissionId: null,
        title: message.title ?? null,
        body: message.body,
        createdBy: admin.id,
        at,
      });
      return;
    }
    const indexNumber = message.indexNumber ?? "";
    const submission = await findSubmissionByIndexNumber(trx, indexNumber);
    if (!submission) throw notFound(`No submission has the index number ${indexNumber}.`);
    await insertMessage(trx, {
      submissionId: submission.id,
      title: message.title ?? null,
      body: message.body,
      createdBy: admin.id,
      at,
    });
    const subject = `ETS Tracking: ${message.title ?? "a message about your thesis submission"}`;
    await mailStudent(trx, ctx.config, submission, subject, message.body, {
      name: "admin_notice",
      params: { indexNumber },
    });
  });
}

/** The student's own notices and the broadcasts, newest first, with what they have read. */
export async function listStudentMessages(
  db: Db,
  student: SessionUser,
): Promise<MessageListResponse> {
  const submissionId = await ownSubmissionId(db, student);
  const [messages, unreadCount] = await Promise.all([
    listVisibleMessages(db, student.id, submissionId, MESSAGE_LIST_LIMIT),
    countUnreadMessages(db, student.id, submissionId),
  ]);
  return { items: messages.map(presentMessage), unreadCount };
}

/** Marks a message read; a message the student may not see is "not found", never "forbidden". */
export async function readMessage(db: Db, student: SessionUser, messageId: number): Promise<void> {
  const [message, submissionId] = await Promise.all([
    findMessage(db, messageId),
    ownSubmissionId(db, student),
  ]);
  const visible =
    message !== null && (message.submissionId === null || message.submissionId === submissionId);
  if (!message || !visible) throw notFound("There is no such message.");
  await markMessageRead(db, message.id, student.id, nowIso());
}

async function ownSubmissionId(db: Db, student: SessionUser): Promise<number | null> {
  if (student.indexNumber === null) return null;
  const submission = await findSubmissionByIndexNumber(db, student.indexNumber);
  return submission?.id ?? null;
}

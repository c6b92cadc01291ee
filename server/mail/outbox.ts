import type { FailedMail } from "../../common/accounts.js";
import { nowIso, type Executor } from "../db/database.js";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Where answers go, e.g. the person who wrote through the contact form. */
  replyTo?: string | null;
  /** Which mail this is, and its parameters, e.g. {"name":"sign_in_code","params":{...}}. */
  template: { name: string; params?: Record<string, unknown> };
  /**
   * The text holds a secret (a sign-in code, an examiner's link): the outbox keeps it only until
   * the mail is delivered or given up on, then the text and the parameters are scrubbed (the
   * recipient and the subject stay), and a production log never gets it.
   */
  secret?: boolean;
}

/** What a delivered secret mail's text says instead (migration 014 uses the same words). */
export const SCRUBBED_MAIL_TEXT =
  "This mail carried a sign-in code or a personal examination link. Its text was removed once " +
  "the mail was delivered, so the secret is not kept on the server.";

/** The columns that scrub a secret mail's row, keeping the template's name. */
export function scrubbedMailColumns(templateJson: string) {
  const { name } = JSON.parse(templateJson) as { name: string };
  return {
    text_body: SCRUBBED_MAIL_TEXT,
    html_body: null,
    template: JSON.stringify({ name, params: { scrubbed: true } }),
  };
}

/**
 * Queues a mail in the transactional outbox. Call it with the same transaction that writes the
 * change the mail is about: either both are stored or neither is. The worker delivers it later.
 */
export async function enqueueMail(
  db: Executor,
  mail: OutgoingMail,
  now: Date = new Date(),
): Promise<number> {
  const row = await db
    .insertInto("outbox")
    .values(outboxRow(mail, nowIso(now)))
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Queues many mails in the caller's transaction, 500 rows per INSERT (an import's notices). */
export async function enqueueMails(
  db: Executor,
  mails: readonly OutgoingMail[],
  now: Date = new Date(),
): Promise<void> {
  const at = nowIso(now);
  for (let start = 0; start < mails.length; start += 500) {
    await db
      .insertInto("outbox")
      .values(mails.slice(start, start + 500).map((mail) => outboxRow(mail, at)))
      .execute();
  }
}

/** A pending mail's row: due at once, no attempt yet. */
function outboxRow(mail: OutgoingMail, at: string) {
  return {
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    reply_to: mail.replyTo ?? null,
    template: JSON.stringify(mail.template),
    status: "pending" as const,
    attempts: 0,
    next_attempt_at: at,
    last_error: null,
    created_at: at,
    sent_at: null,
    carries_secret: mail.secret ? 1 : 0,
  };
}

/** Mail the worker gave up on, newest first, for the administrators' page. No bodies: they may hold codes. */
export async function listFailedMail(db: Executor, limit = 200): Promise<FailedMail[]> {
  const rows = await db
    .selectFrom("outbox")
    .select(["id", "to_address", "subject", "attempts", "last_error", "created_at"])
    .where("status", "=", "failed")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
  }));
}

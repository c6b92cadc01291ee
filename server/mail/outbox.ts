import { nowIso } from "../db/database.js";
import type { Executor } from "../submissions/repository.js";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Which mail this is, and its parameters, e.g. {"name":"signup_code","params":{...}}. */
  template: { name: string; params?: Record<string, unknown> };
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
  const at = nowIso(now);
  const row = await db
    .insertInto("outbox")
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      template: JSON.stringify(mail.template),
      status: "pending",
      attempts: 0,
      next_attempt_at: at,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

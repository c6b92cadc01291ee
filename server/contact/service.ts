import type { ContactInput, ContactMessage } from "../../common/accounts.js";
import type { Config } from "../config.js";
import { nowIso, type Db } from "../db/database.js";
import { enqueueMail } from "../mail/outbox.js";
import { contactMail } from "../mail/templates.js";

/**
 * The public contact form: every message is kept for the administrators, and, when
 * ETS_CONTACT_EMAIL is set, mailed there in the same transaction (reply goes to the writer).
 */
export async function submitContactMessage(
  { db, config }: { db: Db; config: Config },
  input: ContactInput,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("contact_messages")
      .values({
        email: input.email,
        message: input.message,
        created_at: nowIso(now),
        handled_at: null,
      })
      .execute();
    if (config.contactEmail) {
      await enqueueMail(
        trx,
        contactMail({ to: config.contactEmail, from: input.email, message: input.message }),
        now,
      );
    }
  });
}

export const CONTACT_LIST_LIMIT = 500;

export async function listContactMessages(db: Db): Promise<ContactMessage[]> {
  const rows = await db
    .selectFrom("contact_messages")
    .select(["id", "email", "message", "created_at"])
    .orderBy("id", "desc")
    .limit(CONTACT_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    message: row.message,
    createdAt: row.created_at,
  }));
}

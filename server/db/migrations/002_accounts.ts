import type { Kysely } from "kysely";

/**
 * Accounts and mail:
 * - sessions.sign_in_method: "password" or "code". A session begun with a mailed code may set a
 *   new password without the old one (the "forgot password" path, docs/decisions/004).
 * - outbox.reply_to: the contact form's mail to the school answers the person who wrote.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("sessions")
    .addColumn("sign_in_method", "text", (c) => c.notNull().defaultTo("password"))
    .execute();
  await db.schema.alterTable("outbox").addColumn("reply_to", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outbox").dropColumn("reply_to").execute();
  await db.schema.alterTable("sessions").dropColumn("sign_in_method").execute();
}

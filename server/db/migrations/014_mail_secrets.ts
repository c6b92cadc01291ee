import { sql, type Kysely } from "kysely";

/**
 * Mail secrets do not stay at rest (issue 24): `outbox.carries_secret` marks a mail whose text
 * holds a sign-in code or an examiner's link. The mail worker scrubs such a text once the mail is
 * delivered (or given up on), keeping the recipient and the subject; the rows delivered before
 * this migration are scrubbed here.
 */

/** What a scrubbed mail's text says instead (SCRUBBED_MAIL_TEXT in server/mail/outbox.ts). */
const SCRUBBED_TEXT =
  "This mail carried a sign-in code or a personal examination link. Its text was removed once " +
  "the mail was delivered, so the secret is not kept on the server.";
const SECRET_TEMPLATES = ["sign_in_code", "examiner_invitation", "examiner_corrections_ready"];

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("outbox")
    .addColumn("carries_secret", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const name of SECRET_TEMPLATES) {
    const ofTemplate = sql<boolean>`template like ${`{"name":"${name}",%`}`;
    await db.updateTable("outbox").set({ carries_secret: 1 }).where(ofTemplate).execute();
    // Delivered or given up on: the text and the parameters (a sign-in code's is the code) go.
    await db
      .updateTable("outbox")
      .set({
        text_body: SCRUBBED_TEXT,
        html_body: null,
        template: JSON.stringify({ name, params: { scrubbed: true } }),
      })
      .where(ofTemplate)
      .where("status", "in", ["sent", "failed"])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outbox").dropColumn("carries_secret").execute();
}

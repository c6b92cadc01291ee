import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Examiner links that keep working (issue 24, docs/decisions/009-examiners.md).
 *
 * `examiner_links`: several live links per examination, each stored only as its token's SHA-256
 * with its own expiry, so a reminder can carry a fresh link while the invitation's link keeps
 * working. `revoked_at` is set on every link of an examination when the school revokes them or
 * replaces the examiner; a link made later is not touched by an earlier revocation. The single
 * link of migration 006 (`examinations.token_hash`) moves here as the examination's invitation;
 * the column stays, always null from now on (SQLite cannot drop a UNIQUE column), and the
 * examination keeps `link_created_at` (its latest invitation), `link_expires_at` (its links'
 * latest expiry) and `link_revoked_at` (its latest revocation) for the administrators' view.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("examiner_links")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("examination_id", "integer", (c) =>
      c.notNull().references("examinations.id").onDelete("cascade"),
    )
    // SHA-256 (hex) of the 256-bit token; the token itself is only ever in the mail.
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("purpose", "text", (c) =>
      c.notNull().check(sql.raw("purpose in ('invitation', 'reminder', 'corrections')")),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("examiner_links_examination")
    .on("examiner_links")
    .column("examination_id")
    .execute();
  await sql`insert into examiner_links
      (examination_id, token_hash, purpose, created_at, expires_at, revoked_at)
    select id, token_hash, 'invitation', coalesce(link_created_at, sent_at, created_at),
      coalesce(link_expires_at, created_at), link_revoked_at
    from examinations where token_hash is not null`.execute(db);
  await db.updateTable("examinations").set({ token_hash: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // The latest live link of each examination goes back to the single-link column.
  await sql`update examinations set token_hash = (
      select l.token_hash from examiner_links l
      where l.examination_id = examinations.id
      order by l.created_at desc, l.id desc limit 1)`.execute(db);
  await db.schema.dropTable("examiner_links").execute();
}

import type { Kysely } from "kysely";

/**
 * The public side of publication (issue 20; docs/decisions/027-oai-pmh-and-public-pages.md).
 *
 * `publication_secrets`: keys the server makes once and every server on the database shares:
 * the key that signs OAI-PMH resumption tokens (so a token survives a restart and works on any
 * server, and cannot be forged) and the key that hashes a reader's address and user agent for
 * download counting (so the hash cannot be reversed by trying every address). Made on first use.
 * `thesis_download_counts`: downloads of a published thesis's file, one row per thesis.
 * `thesis_download_readers`: when each reader (a keyed hash, never the address itself) was last
 * counted for a thesis, so the same reader twice within a minute counts once; rows older than a
 * minute mean nothing and are swept.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("publication_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("thesis_download_counts")
    .addColumn("submission_id", "integer", (c) =>
      c.primaryKey().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("downloads", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("thesis_download_readers")
    .addColumn("submission_id", "integer", (c) =>
      c.notNull().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("reader_hash", "text", (c) => c.notNull())
    .addColumn("counted_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("thesis_download_readers_pk", ["submission_id", "reader_hash"])
    .execute();
  await db.schema
    .createIndex("thesis_download_readers_counted_at")
    .on("thesis_download_readers")
    .column("counted_at")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("thesis_download_readers").execute();
  await db.schema.dropTable("thesis_download_counts").execute();
  await db.schema.dropTable("publication_secrets").execute();
}

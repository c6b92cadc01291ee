import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * The uploads this installation is storing (issue 24): a row written before an uploaded file is
 * put into the store, removed in the transaction that records the file's version or report. A row
 * left behind names a file this installation wrote and then abandoned (the transaction failed, the
 * server stopped): the orphan sweep removes that file, and never a file it has no row for, which
 * another installation sharing the store (a staging copy, a restored backup) may be using.
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("pending_uploads")
    .addColumn("id", idColumnType(db), idColumn(db))
    // The store's key: the SHA-256 of the bytes.
    .addColumn("sha256", "text", (c) => c.notNull())
    // 1 when the store did not have the key before this upload put it: only then is the file this
    // installation's to remove. 0: the same bytes were stored already, by us or by someone else.
    .addColumn("stored_new", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("pending_uploads_created_at")
    .on("pending_uploads")
    .columns(["created_at", "id"])
    .execute();
  await db.schema
    .createIndex("pending_uploads_sha256")
    .on("pending_uploads")
    .column("sha256")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pending_uploads").execute();
}

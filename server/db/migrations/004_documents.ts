import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Electronic documents (issue 8): every uploaded version of a checklist item, with what the server
 * read from the PDF and the school's review, and the thesis title and abstract on the submission.
 * The bytes live in the file store (server/files), content-addressed by sha256; a row is the only
 * way to reach them, so a stored file without a row is an orphan that is never served.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("submissions").addColumn("thesis_title", "text").execute();
  await db.schema.alterTable("submissions").addColumn("thesis_abstract", "text").execute();

  await db.schema
    .createTable("submission_documents")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("submission_id", "integer", (c) =>
      c.notNull().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("item", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    // 1 on the newest version of its item: the list filters and the review read only these rows.
    .addColumn("is_current", "integer", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("page_count", "integer", (c) => c.notNull())
    .addColumn("has_javascript", "integer", (c) => c.notNull())
    .addColumn("has_embedded_files", "integer", (c) => c.notNull())
    .addColumn("uploaded_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addColumn("review_state", "text", (c) =>
      c.notNull().check(sql.raw("review_state in ('pending', 'accepted', 'returned', 'superseded')")),
    )
    .addColumn("reviewed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_at", "text")
    .addColumn("return_reason", "text")
    .execute();
  await db.schema
    .createIndex("submission_documents_version")
    .on("submission_documents")
    .columns(["submission_id", "item", "version"])
    .unique()
    .execute();
  // The list's "waiting" and "returned" filters and the dashboard counts.
  await db.schema
    .createIndex("submission_documents_current_state")
    .on("submission_documents")
    .columns(["is_current", "review_state", "submission_id"])
    .execute();
  // The orphan sweep asks whether a stored file still has a row.
  await db.schema
    .createIndex("submission_documents_sha256")
    .on("submission_documents")
    .column("sha256")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("submission_documents").ifExists().execute();
  await db.schema.alterTable("submissions").dropColumn("thesis_abstract").execute();
  await db.schema.alterTable("submissions").dropColumn("thesis_title").execute();
}

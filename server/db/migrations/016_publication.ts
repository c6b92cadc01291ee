import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Publication (issue 20, docs/decisions/020-publication.md).
 *
 * `degrees`: the degrees the school awards (name, abbreviation, level), kept by administrators.
 * `licence_versions`: the school's distribution licence, one row per version; never changed or
 * deleted, so the text a student accepted stays readable.
 * `publications`: one row per submission once its publication starts (the student's first
 * metadata, licence or embargo answer, or the school's). Metadata beyond the submission's own
 * title and abstract; the licence acceptance; the embargo (choice, reason, approval, end); when it
 * became public (`published_at`, set once every condition holds, ADR 020); `datestamp`, the time
 * of the last change of anything public, which OAI-PMH pages by with the submission id;
 * withdrawal; and the repository's `handle` after a deposit (which locks the record).
 * Keywords and supervisors are JSON text, read and written whole with the record.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("degrees")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("abbreviation", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) =>
      c.notNull().check(sql.raw("level in ('masters', 'doctoral')")),
    )
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("licence_versions")
    .addColumn("version", "integer", (c) => c.primaryKey())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("publications")
    .addColumn("submission_id", "integer", (c) =>
      c.primaryKey().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("keywords", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("language", "text")
    .addColumn("degree_id", "integer", (c) => c.references("degrees.id"))
    .addColumn("department", "text")
    .addColumn("supervisors", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("examination_date", "text")
    .addColumn("award_date", "text")
    .addColumn("confirmed_at", "text")
    .addColumn("confirmed_by", "integer")
    .addColumn("licence_version", "integer", (c) => c.references("licence_versions.version"))
    .addColumn("licence_accepted_at", "text")
    .addColumn("licence_accepted_by", "integer")
    .addColumn("embargo_choice", "text", (c) =>
      c.check(sql.raw("embargo_choice in ('none', '6m', '1y', '2y', 'sensitive')")),
    )
    .addColumn("embargo_reason", "text")
    .addColumn("embargo_approval", "text", (c) =>
      c.check(sql.raw("embargo_approval in ('pending', 'approved', 'refused')")),
    )
    .addColumn("embargo_decided_at", "text")
    .addColumn("embargo_decided_by", "integer")
    .addColumn("embargo_decision_note", "text")
    .addColumn("embargo_until", "text")
    .addColumn("embargo_lifted_at", "text")
    .addColumn("published_at", "text")
    .addColumn("datestamp", "text", (c) => c.notNull())
    .addColumn("withdrawn_at", "text")
    .addColumn("withdrawn_by", "integer")
    .addColumn("withdrawn_reason", "text")
    .addColumn("handle", "text")
    .addColumn("deposited_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // OAI-PMH pages by (datestamp, submission_id); the public list and sitemap by published_at.
  await db.schema
    .createIndex("publications_datestamp")
    .on("publications")
    .columns(["datestamp", "submission_id"])
    .execute();
  await db.schema
    .createIndex("publications_published_at")
    .on("publications")
    .column("published_at")
    .execute();
  // The lifting job looks for embargoes that ran out and are not lifted yet.
  await db.schema
    .createIndex("publications_embargo_until")
    .on("publications")
    .columns(["embargo_until", "embargo_lifted_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("publications").execute();
  await db.schema.dropTable("licence_versions").execute();
  await db.schema.dropTable("degrees").execute();
}

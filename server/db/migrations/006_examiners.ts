import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Examiners in the loop (issue 9, docs/decisions/009-examiners.md): the school's examiner list,
 * each examiner's examination of a submission (with the hash of its link's token and their
 * report), the reminders sent (one row per scheduled reminder, unique, so two servers cannot both
 * send it), and the outcome released to the student.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);
  const idType = idColumnType(db);

  await db.schema
    .createTable("examiners")
    .addColumn("id", idType, id)
    .addColumn("name", "text", (c) => c.notNull())
    // Lower case, one record per address.
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("institution", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql.raw("kind in ('internal', 'external')")))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("examiners_name").on("examiners").column("name").execute();

  await db.schema
    .createTable("examinations")
    .addColumn("id", idType, id)
    .addColumn("submission_id", "integer", (c) =>
      c.notNull().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("examiner_id", "integer", (c) => c.notNull().references("examiners.id"))
    .addColumn("role", "text", (c) => c.notNull().check(sql.raw("role in ('internal', 'external')")))
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .check(
          sql.raw(
            "state in ('nominated', 'sent', 'received', 'report_submitted', 'replaced')",
          ),
        ),
    )
    .addColumn("nominated_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("nominated_at", "text", (c) => c.notNull())
    // The link: SHA-256 of the 256-bit token (hex); null until sent. A new link replaces it.
    .addColumn("token_hash", "text", (c) => c.unique())
    .addColumn("link_created_at", "text")
    .addColumn("link_expires_at", "text")
    .addColumn("link_revoked_at", "text")
    .addColumn("sent_at", "text")
    // YYYY-MM-DD.
    .addColumn("due_on", "text")
    .addColumn("received_at", "text")
    .addColumn("last_opened_at", "text")
    // The report, stored like a document: the file store's key and what the server read.
    .addColumn("report_sha256", "text")
    .addColumn("report_file_name", "text")
    .addColumn("report_size_bytes", "integer")
    .addColumn("report_page_count", "integer")
    .addColumn("report_has_javascript", "integer")
    .addColumn("report_has_embedded_files", "integer")
    .addColumn("report_uploaded_at", "text")
    .addColumn("recommendation", "text")
    .addColumn("note_to_school", "text")
    .addColumn("replaced_at", "text")
    .addColumn("replaced_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // One current examination per role and submission; replaced ones are history.
  await db.schema
    .createIndex("examinations_current_role")
    .on("examinations")
    .columns(["submission_id", "role"])
    .unique()
    .where(sql.ref("state"), "<>", "replaced")
    .execute();
  await db.schema
    .createIndex("examinations_examiner")
    .on("examinations")
    .column("examiner_id")
    .execute();
  // The reminder scheduler and the overdue list: open examinations by due date.
  await db.schema
    .createIndex("examinations_state_due")
    .on("examinations")
    .columns(["state", "due_on"])
    .execute();
  // The orphan sweep asks whether a stored file still has a row.
  await db.schema
    .createIndex("examinations_report_sha256")
    .on("examinations")
    .column("report_sha256")
    .execute();

  await db.schema
    .createTable("examiner_reminders")
    .addColumn("id", idType, id)
    .addColumn("examination_id", "integer", (c) =>
      c.notNull().references("examinations.id").onDelete("cascade"),
    )
    // Days from the due date for a scheduled reminder; null for one sent by hand.
    .addColumn("offset_days", "integer")
    .addColumn("sent_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("sent_at", "text", (c) => c.notNull())
    .execute();
  // Each scheduled reminder at most once, whichever server tries (NULLs, the manual ones, repeat).
  await db.schema
    .createIndex("examiner_reminders_once")
    .on("examiner_reminders")
    .columns(["examination_id", "offset_days"])
    .unique()
    .execute();

  await db.schema
    .createTable("examination_outcomes")
    .addColumn("submission_id", "integer", (c) =>
      c.primaryKey().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("decision", "text", (c) =>
      c
        .notNull()
        .check(
          sql.raw(
            "decision in ('pass', 'minor_corrections', 'major_corrections', 'resubmit', 'fail')",
          ),
        ),
    )
    .addColumn("corrections", "text")
    .addColumn("released_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("released_at", "text", (c) => c.notNull())
    // The thesis version that was current at the release: a corrected thesis is a later one.
    .addColumn("thesis_version_at_release", "integer")
    .addColumn("corrections_approved_at", "text")
    .addColumn("corrections_approved_by", "integer", (c) =>
      c.references("users.id").onDelete("set null"),
    )
    // The examination whose examiner approved them through the link, when not an administrator.
    .addColumn("corrections_approved_examination", "integer", (c) =>
      c.references("examinations.id").onDelete("set null"),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "examination_outcomes",
    "examiner_reminders",
    "examinations",
    "examiners",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

// Migrations take Kysely<any>: they describe the schema at their own point in history, not today's.
export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);
  const idType = idColumnType(db);

  await db.schema
    .createTable("users")
    .addColumn("id", idType, id)
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("index_number", "text", (c) => c.unique())
    .addColumn("name", "text")
    .addColumn("role", "text", (c) => c.notNull().check(sqlIn("role", ["student", "admin"])))
    .addColumn("password_hash", "text")
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("failed_sign_ins", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", "text")
    .addColumn("last_sign_in_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("submissions")
    .addColumn("id", idType, id)
    .addColumn("student_name", "text", (c) => c.notNull())
    .addColumn("index_number", "text", (c) => c.notNull().unique())
    .addColumn("programme", "text", (c) => c.notNull())
    .addColumn("contact", "text")
    .addColumn("student_email", "text")
    .addColumn("thesis_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("thesis_received_on", "text")
    .addColumn("turnitin_report_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("turnitin_report_received_on", "text")
    .addColumn("supervisor_form_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("supervisor_form_received_on", "text")
    .addColumn("statement_of_result_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("statement_of_result_received_on", "text")
    .addColumn("financial_clearance_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("financial_clearance_received_on", "text")
    .addColumn("sgs_stage", "text")
    .addColumn("internal_examiner", "text")
    .addColumn("external_examiner", "text")
    .addColumn("thesis_status", "text")
    .addColumn("effective_date", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex("submissions_student_name")
    .on("submissions")
    .column("student_name")
    .execute();
  await db.schema
    .createIndex("submissions_created_at")
    .on("submissions")
    .column("created_at")
    .execute();
  await db.schema
    .createIndex("submissions_student_email")
    .on("submissions")
    .column("student_email")
    .execute();

  await db.schema
    .createTable("submission_events")
    .addColumn("id", idType, id)
    .addColumn("submission_id", "integer", (c) =>
      c.notNull().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("field", "text", (c) => c.notNull())
    .addColumn("from_value", "text")
    .addColumn("to_value", "text")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("confirmed_out_of_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("submission_events_submission")
    .on("submission_events")
    .columns(["submission_id", "at"])
    .execute();

  await db.schema
    .createTable("login_codes")
    .addColumn("id", idType, id)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("login_codes_user").on("login_codes").column("user_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", idType, id)
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("persistent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", idType, id)
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    .addColumn("template", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema
    .createIndex("outbox_due")
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", idType, id)
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("actor_user_id", "integer")
    .addColumn("subject", "text")
    .addColumn("ip", "text")
    .addColumn("details", "text")
    .execute();
  await db.schema.createIndex("audit_log_at").on("audit_log").column("at").execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", idType, id)
    .addColumn("submission_id", "integer", (c) =>
      c.references("submissions.id").onDelete("cascade"),
    )
    .addColumn("title", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("messages_submission")
    .on("messages")
    .column("submission_id")
    .execute();

  await db.schema
    .createTable("message_reads")
    .addColumn("message_id", "integer", (c) =>
      c.notNull().references("messages.id").onDelete("cascade"),
    )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("read_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("message_reads_pk", ["message_id", "user_id"])
    .execute();

  await db.schema
    .createTable("contact_messages")
    .addColumn("id", idType, id)
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("handled_at", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "contact_messages",
    "message_reads",
    "messages",
    "audit_log",
    "outbox",
    "sessions",
    "login_codes",
    "submission_events",
    "submissions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

// Fixed, literal values only: never called with user input.
function sqlIn(column: string, values: string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);
}

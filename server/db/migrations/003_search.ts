import type { Kysely } from "kysely";
import { createSubmissionSearchIndex, dropSubmissionSearchIndex } from "../dialect.js";

/**
 * The administrator's list at 100,000 submissions: a trigram search index on name and index
 * number (dialect-specific, see server/db/dialect.ts and docs/decisions/006-search.md) and plain
 * indexes for the list's filters and sorts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createSubmissionSearchIndex(db);
  for (const column of ["programme", "updated_at", "sgs_stage"]) {
    await db.schema
      .createIndex(`submissions_${column}`)
      .on("submissions")
      .columns([column, "id"])
      .execute();
  }
  await db.schema
    .createIndex("submission_events_field")
    .on("submission_events")
    .columns(["submission_id", "field", "at"])
    .execute();
  await db.schema.createIndex("messages_created_at").on("messages").column("created_at").execute();
  await db.schema.createIndex("message_reads_user").on("message_reads").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    "message_reads_user",
    "messages_created_at",
    "submission_events_field",
    "submissions_sgs_stage",
    "submissions_updated_at",
    "submissions_programme",
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await dropSubmissionSearchIndex(db);
}

import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * The SWORD deposit queue (issue 20, docs/decisions/026-library-exports-and-deposit.md): one row
 * per submission an administrator sent to the repository.
 *
 * `state`: queued (waiting for `next_attempt_at`), depositing (claimed by `claimed_by` until
 * `claim_expires_at`), deposited (acknowledged: `handle` kept, also on the publication), failed
 * (given up after the last attempt; an administrator may queue it again). `edit_iri` is the item
 * the repository created for the first step of the deposit (In-Progress: true); with it, a retry
 * only completes that item and never sends the package again. `slug` names the item to the
 * repository, the same on every attempt.
 *
 * And an index for the bulk exports, which page publications by award date.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("deposits")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("submission_id", "integer", (c) =>
      c.notNull().unique().references("submissions.id").onDelete("cascade"),
    )
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql.raw("state in ('queued', 'depositing', 'deposited', 'failed')")),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("claim_expires_at", "text")
    .addColumn("last_error", "text")
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("edit_iri", "text")
    .addColumn("handle", "text")
    .addColumn("requested_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("requested_at", "text", (c) => c.notNull())
    .addColumn("deposited_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The worker looks for due rows by state and time.
  await db.schema
    .createIndex("deposits_due")
    .on("deposits")
    .columns(["state", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("publications_award_date")
    .on("publications")
    .columns(["award_date", "submission_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("publications_award_date").execute();
  await db.schema.dropTable("deposits").execute();
}

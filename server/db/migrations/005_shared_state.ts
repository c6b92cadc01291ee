import type { Kysely } from "kysely";

/**
 * State that several app servers on one database must share (issue 12): request-limit counters,
 * so three servers allow what one does, and leases, so a periodic job runs on one server at a
 * time and another takes over when that one dies.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limit_counters")
    // The limit's name and what it counts by: "sign-in:203.0.113.7", "codes:ama@st.school.edu".
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    // When the window ends and the count starts again (ISO-8601 UTC, compared as text).
    .addColumn("resets_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("rate_limit_counters_resets_at")
    .on("rate_limit_counters")
    .column("resets_at")
    .execute();

  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    // Which server holds it (a random id per process) and until when, unless renewed.
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_leases").ifExists().execute();
  await db.schema.dropTable("rate_limit_counters").ifExists().execute();
}

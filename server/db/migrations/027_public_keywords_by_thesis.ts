import { sql, type Kysely } from "kysely";

/**
 * `publication_keywords` by thesis (issue 20, docs/decisions/027-oai-pmh-and-public-pages.md): "does
 * this thesis have this keyword" in one seek, for a keyword link with a common term, whose count
 * checks each thesis holding both texts (server/publication/public-repository.ts). Through the
 * key it needed the publication's row for its published_at: at 1,000,000 on SQLite, 329 ms to
 * the cap against 102 ms this way (a loaded machine). The same statement on both databases.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index publication_keywords_thesis on publication_keywords (submission_id, keyword)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists publication_keywords_thesis`.execute(db);
}

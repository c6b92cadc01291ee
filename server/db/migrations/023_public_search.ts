import type { Kysely } from "kysely";
import { createPublicSearchIndex, dropPublicSearchIndex } from "../dialect.js";

/**
 * The public list's search at 1,000,000 theses (issue 20; docs/decisions/006-search.md and
 * 027-oai-pmh-and-public-pages.md): a trigram index over each listed thesis's title, author and
 * keywords, kept by triggers (dialect-specific, server/db/dialect.ts), and the list's order,
 * newest first with the submission id as tie-breaker, as one index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPublicSearchIndex(db);
  await db.schema
    .createIndex("publications_list_order")
    .on("publications")
    .columns(["published_at", "submission_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("publications_list_order").ifExists().execute();
  await dropPublicSearchIndex(db);
}

import type { Kysely } from "kysely";
import { createPublicSearchIndex, dropPublicSearchIndex } from "../dialect.js";

/**
 * The public list's search at 1,000,000 theses (issue 20; docs/decisions/006-search.md and
 * 027-oai-pmh-and-public-pages.md): a trigram index over each listed thesis's title, author and
 * keywords, kept by triggers, and on PostgreSQL the list's order (newest first, the submission id
 * breaking ties) as an index of the listed theses holding what a search tests (dialect-specific,
 * server/db/dialect.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPublicSearchIndex(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropPublicSearchIndex(db);
}

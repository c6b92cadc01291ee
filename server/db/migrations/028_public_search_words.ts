import type { Kysely } from "kysely";
import {
  createPublicSearchWords,
  dropPublicSearchWords,
  rebuildPublicSearchWords,
} from "../dialect.js";

/**
 * The public list's term searches on PostgreSQL from word postings (issue 20;
 * docs/decisions/006-search.md and 027-oai-pmh-and-public-pages.md): each listed thesis's words,
 * their vocabulary with a trigram index, kept by triggers on publications, filled here from the
 * existing theses. On SQLite this migration does nothing: its FTS5 trigram index already counts a
 * term's matches to the cap in a few milliseconds.
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await createPublicSearchWords(db);
  await rebuildPublicSearchWords(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropPublicSearchWords(db);
}

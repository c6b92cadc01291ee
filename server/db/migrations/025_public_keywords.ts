import type { Kysely } from "kysely";
import { createPublicKeywords, dropPublicKeywords } from "../dialect.js";

/**
 * The public list's keyword links at 1,000,000 theses (issue 20; docs/decisions/027-oai-pmh-and-
 * public-pages.md): `publication_keywords`, one row per distinct keyword of each listed thesis in
 * the list's order (and within its programme), kept by triggers on `publications` and filled here
 * from the listed theses (server/db/dialect.ts).
 */
// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await createPublicKeywords(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropPublicKeywords(db);
}

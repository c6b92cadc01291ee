import { type Kysely } from "kysely";
import { createPublicListOrder, dropPublicListOrder } from "../dialect.js";

/**
 * SQLite: the public list's order over listed theses only (issue 20, docs/decisions/027). A read
 * in the list's order (the first page, the bound of a term's walk, the walk itself) tested the
 * listed conditions on each publication's row through 016's `published_at` index: at 1,000,000
 * the walk's bound (the 5,000th listed thesis) read 5,000 rows, 7 to 40 ms of a term's page. A
 * partial index on `list_programme is not null` (023 sets the column exactly for a listed thesis)
 * is read alone. PostgreSQL has had its own since 023 (publications_list_order); it gets a narrow
 * partial index for the plain list's count.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await createPublicListOrder(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropPublicListOrder(db);
}

import type { Kysely } from "kysely";

// Placeholder registered so that two engineers can work on migrations at once; its owner fills it.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

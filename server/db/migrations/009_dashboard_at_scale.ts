import type { Kysely } from "kysely";

// Being written (issue 11 item 3).
export async function up(db: Kysely<unknown>): Promise<void> {
  void db;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  void db;
}

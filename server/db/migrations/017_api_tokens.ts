import { type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * API tokens for the university's systems (issue 21, docs/decisions/022-api-tokens.md).
 *
 * `api_tokens`: named tokens an administrator creates, each stored only as the SHA-256 of its
 * 256-bit random value, with its scopes (a space-separated list), an expiry, a revocation and when
 * and from which address it was last used.
 *
 * `idempotency_keys`: the registrar's bulk upsert keeps each Idempotency-Key with the hash of the
 * body it came with and the first answer (status and body), per token, until `expires_at`; the
 * hourly housekeeping removes it after that.
 *
 * `submissions.financial_clearance_by` / `financial_clearance_by_at`: which system (the token's
 * name) marked the Financial Clearance item, and when; cleared again when the item is unmarked.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    // The first characters of the token, to tell tokens apart in the list; not a secret.
    .addColumn("token_prefix", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("revoked_by", "integer", (c) => c.references("users.id"))
    .addColumn("last_used_at", "text")
    .addColumn("last_used_ip", "text")
    .execute();
  await db.schema.createIndex("api_tokens_created").on("api_tokens").column("created_at").execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("token_id", "integer", (c) =>
      c.notNull().references("api_tokens.id").onDelete("cascade"),
    )
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["token_id", "key"])
    .execute();
  await db.schema
    .createIndex("idempotency_keys_expires")
    .on("idempotency_keys")
    .column("expires_at")
    .execute();

  await db.schema.alterTable("submissions").addColumn("financial_clearance_by", "text").execute();
  await db.schema
    .alterTable("submissions")
    .addColumn("financial_clearance_by_at", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("submissions").dropColumn("financial_clearance_by_at").execute();
  await db.schema.alterTable("submissions").dropColumn("financial_clearance_by").execute();
  await db.schema.dropTable("idempotency_keys").execute();
  await db.schema.dropTable("api_tokens").execute();
}

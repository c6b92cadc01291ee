import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Single sign-on (issue 10, docs/decisions/010-single-sign-on.md): which identity at which
 * provider is which account, the sign-ins under way (OpenID Connect state, nonce and PKCE
 * verifier; SAML request ids), kept in the database so any server can finish what another began,
 * and the assertions and tokens already used, so a replay is refused on every server.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("user_identities")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // "oidc" or "saml".
    .addColumn("provider", "text", (c) => c.notNull())
    // The provider's stable id for the person: the ID token's `sub`, the assertion's NameID.
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_sign_in_at", "text")
    .execute();
  await db.schema
    .createIndex("user_identities_subject")
    .on("user_identities")
    .columns(["provider", "subject"])
    .unique()
    .execute();
  await db.schema
    .createIndex("user_identities_user")
    .on("user_identities")
    .column("user_id")
    .execute();

  await db.schema
    .createTable("sso_requests")
    // OpenID Connect: the `state`; SAML: the AuthnRequest's ID. Random, 128 bits or more.
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("nonce", "text")
    .addColumn("code_verifier", "text")
    // Where to go after signing in (a path of this site only).
    .addColumn("return_to", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sso_requests_expires_at")
    .on("sso_requests")
    .column("expires_at")
    .execute();

  await db.schema
    .createTable("sso_replays")
    // "saml:<assertion ID>" or "oidc:<nonce>": seen once, refused after.
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sso_replays_expires_at")
    .on("sso_replays")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["sso_replays", "sso_requests", "user_identities"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

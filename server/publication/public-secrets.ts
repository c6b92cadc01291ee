import { randomBytes } from "node:crypto";
import type { Executor } from "../db/database.js";
import { nowIso } from "../db/database.js";

/** The keys the public side uses (migration 021). */
export type PublicSecretName = "oai-resumption-token" | "download-reader";

const cache = new WeakMap<object, Map<PublicSecretName, Buffer>>();

/**
 * A key every server on this database shares, made on first use: the first server to ask inserts
 * 32 random bytes (a second racing it inserts nothing: `on conflict do nothing`), then every
 * server reads the one row. Kept in memory per database handle; it never changes.
 */
export async function publicSecret(db: Executor, name: PublicSecretName): Promise<Buffer> {
  let keys = cache.get(db);
  if (keys === undefined) {
    keys = new Map();
    cache.set(db, keys);
  }
  const known = keys.get(name);
  if (known) return known;
  await db
    .insertInto("publication_secrets")
    .values({ name, value: randomBytes(32).toString("base64url"), created_at: nowIso() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("publication_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  const key = Buffer.from(row.value, "base64url");
  keys.set(name, key);
  return key;
}

import type { SsoProvider } from "../../../common/sso.js";
import { nowIso, type Executor } from "../../db/database.js";

/**
 * Single sign-ons under way and answers already used (migration 007), shared by OpenID Connect and
 * SAML. Both live in the database, not in the server's memory, so the server that receives the
 * provider's answer need not be the one that sent the person there, and a replay is refused on
 * every server.
 */

/** How long a person has at the provider before the sign-in must start again. */
export const SSO_REQUEST_TTL_MS = 10 * 60 * 1000;

export interface SsoRequest {
  /** OpenID Connect: the `state`; SAML: the AuthnRequest's ID. */
  key: string;
  provider: SsoProvider;
  nonce: string | null;
  codeVerifier: string | null;
  /** A path of this site to go to after signing in. */
  returnTo: string | null;
}

/** Saves a sign-in being started; also clears requests that expired unused. */
export async function saveSsoRequest(
  db: Executor,
  request: SsoRequest,
  now: Date = new Date(),
  ttlMs: number = SSO_REQUEST_TTL_MS,
): Promise<void> {
  await db.deleteFrom("sso_requests").where("expires_at", "<=", nowIso(now)).execute();
  await db
    .insertInto("sso_requests")
    .values({
      key: request.key,
      provider: request.provider,
      nonce: request.nonce,
      code_verifier: request.codeVerifier,
      return_to: request.returnTo,
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + ttlMs)),
    })
    .execute();
}

/**
 * Takes a sign-in under way, once: the row is deleted as it is read, so of two answers carrying
 * the same key (a replay, a double submit) only one finds it. Null when it is unknown, belongs to
 * the other protocol, was already taken, or has expired.
 */
export async function takeSsoRequest(
  db: Executor,
  key: string,
  provider: SsoProvider,
  now: Date = new Date(),
): Promise<SsoRequest | null> {
  const row = await db
    .deleteFrom("sso_requests")
    .where("key", "=", key)
    .where("provider", "=", provider)
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= nowIso(now)) return null;
  return {
    key: row.key,
    provider: row.provider,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    returnTo: row.return_to,
  };
}

/**
 * Records that an answer was used ("oidc:<nonce>", "saml:<assertion ID>") until it expires on its
 * own; false when it was already recorded, which means a replay. Clears entries past their expiry.
 */
export async function markReplay(
  db: Executor,
  key: string,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<boolean> {
  await db.deleteFrom("sso_replays").where("expires_at", "<=", nowIso(now)).execute();
  // ON CONFLICT DO NOTHING in both dialects: a row comes back only when this call inserted it,
  // and a duplicate does not abort a surrounding PostgreSQL transaction.
  const inserted = await db
    .insertInto("sso_replays")
    .values({ key, expires_at: nowIso(expiresAt) })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("key")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Deletes expired requests and replay records; for a periodic sweep. */
export async function sweepSsoRecords(
  db: Executor,
  now: Date = new Date(),
): Promise<{ requests: number; replays: number }> {
  const requests = await db
    .deleteFrom("sso_requests")
    .where("expires_at", "<=", nowIso(now))
    .executeTakeFirst();
  const replays = await db
    .deleteFrom("sso_replays")
    .where("expires_at", "<=", nowIso(now))
    .executeTakeFirst();
  return { requests: Number(requests.numDeletedRows), replays: Number(replays.numDeletedRows) };
}

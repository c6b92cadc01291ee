import { hash } from "node:crypto";
import { nowIso, type Db, type Executor } from "../db/database.js";

/**
 * Idempotency-Keys of the registrar's upsert (issue 21, docs/decisions/022-api-tokens.md): per
 * token, the key, the SHA-256 of the body it came with and the first answer, kept for
 * IDEMPOTENCY_KEY_TTL_MS; the hourly housekeeping removes them after that.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: unknown;
}

/** The hash two requests are compared by: the body as it was parsed, in one canonical text. */
export function requestHash(body: unknown): string {
  return hash("sha256", JSON.stringify(body), "hex");
}

/** The key's first answer while it is kept; an expired one is removed so the key can be used again. */
export async function findAnswer(
  db: Executor,
  tokenId: number,
  key: string,
  now: Date = new Date(),
): Promise<StoredAnswer | null> {
  await db
    .deleteFrom("idempotency_keys")
    .where("token_id", "=", tokenId)
    .where("key", "=", key)
    .where("expires_at", "<=", nowIso(now))
    .execute();
  const row = await db
    .selectFrom("idempotency_keys")
    .select(["request_hash", "status", "body"])
    .where("token_id", "=", tokenId)
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row) return null;
  return { requestHash: row.request_hash, status: row.status, body: JSON.parse(row.body) };
}

/**
 * Keeps a key's first answer. In the write's own transaction for a success, so the rows and the
 * key commit together; a second request with the key at the same moment fails on the primary key.
 */
export async function storeAnswer(
  db: Executor,
  tokenId: number,
  key: string,
  answer: StoredAnswer,
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("idempotency_keys")
    .values({
      token_id: tokenId,
      key,
      request_hash: answer.requestHash,
      status: answer.status,
      body: JSON.stringify(answer.body),
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS)),
    })
    .execute();
}

/** Removes keys past their time; the housekeeping's. Returns how many. */
export async function sweepIdempotencyKeys(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("idempotency_keys")
    .where("expires_at", "<=", nowIso(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

import { randomInt } from "node:crypto";
import { CODE_TTL_MINUTES } from "../../common/accounts.js";
import { nowIso, type Executor } from "../db/database.js";

/**
 * One-time sign-in codes: six digits from a cryptographically secure generator, stored only as
 * an argon2id hash, valid for 10 minutes and once. A new code replaces any unused one.
 */
export const CODE_TTL_MS = CODE_TTL_MINUTES * 60 * 1000;

export function generateCode(): string {
  return String(randomInt(100_000, 1_000_000));
}

export interface ActiveCode {
  id: number;
  codeHash: string;
}

/** Stores a new code for the user and drops the unused ones, so only the newest works. */
export async function replaceCode(
  db: Executor,
  userId: number,
  codeHash: string,
  now: Date = new Date(),
): Promise<void> {
  await deleteUnusedCodes(db, userId);
  await db
    .insertInto("login_codes")
    .values({
      user_id: userId,
      code_hash: codeHash,
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + CODE_TTL_MS)),
      used_at: null,
    })
    .execute();
}

export async function deleteUnusedCodes(db: Executor, userId: number): Promise<void> {
  await db
    .deleteFrom("login_codes")
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}

/** The user's current code, if it is unused and has not expired. */
export async function findActiveCode(
  db: Executor,
  userId: number,
  now: Date = new Date(),
): Promise<ActiveCode | null> {
  const row = await db
    .selectFrom("login_codes")
    .select(["id", "code_hash"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? { id: row.id, codeHash: row.code_hash } : null;
}

/** Marks a code used; false when another request used it first (or it expired meanwhile). */
export async function consumeCode(
  db: Executor,
  codeId: number,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("login_codes")
    .set({ used_at: nowIso(now) })
    .where("id", "=", codeId)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

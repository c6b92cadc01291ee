import type { Db } from "../db/database.js";
import { nowIso } from "../db/database.js";
import { hashToken, newSessionToken } from "./tokens.js";

/**
 * Server-side sessions. Values are documented in docs/decisions/003-sessions.md:
 * idle timeout 30 minutes for a browser-session sign-in and 7 days for "Remember me";
 * absolute lifetime 12 hours, or 30 days with "Remember me".
 */
export const SESSION_COOKIE = "ets_session";
export const SESSION_LIMITS = {
  idleMs: { session: 30 * 60 * 1000, persistent: 7 * 24 * 3600 * 1000 },
  absoluteMs: { session: 12 * 3600 * 1000, persistent: 30 * 24 * 3600 * 1000 },
};
/** last_seen_at is written at most this often, so reads do not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export type Role = "student" | "admin";

export interface SessionUser {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  indexNumber: string | null;
  sessionId: number;
}

export async function createSession(
  db: Db,
  userId: number,
  persistent: boolean,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const expiresAt = new Date(
    now.getTime() +
      (persistent ? SESSION_LIMITS.absoluteMs.persistent : SESSION_LIMITS.absoluteMs.session),
  );
  await db
    .insertInto("sessions")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      persistent: persistent ? 1 : 0,
      created_at: nowIso(now),
      last_seen_at: nowIso(now),
      expires_at: nowIso(expiresAt),
    })
    .execute();
  return { token, expiresAt };
}

/** The signed-in user for a token, or null when the token is unknown, expired, idle or the user inactive. */
export async function findSessionUser(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<SessionUser | null> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as session_id",
      "sessions.persistent",
      "sessions.last_seen_at",
      "sessions.expires_at",
      "users.id as user_id",
      "users.email",
      "users.name",
      "users.role",
      "users.index_number",
      "users.active",
    ])
    .where("sessions.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const idleMs = row.persistent ? SESSION_LIMITS.idleMs.persistent : SESSION_LIMITS.idleMs.session;
  const lastSeen = Date.parse(row.last_seen_at);
  const expired = Date.parse(row.expires_at) <= now.getTime() || lastSeen + idleMs <= now.getTime();
  if (expired || Number(row.active) !== 1) {
    await db.deleteFrom("sessions").where("id", "=", row.session_id).execute();
    return null;
  }
  if (now.getTime() - lastSeen > TOUCH_INTERVAL_MS) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: nowIso(now) })
      .where("id", "=", row.session_id)
      .execute();
  }
  return {
    id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    indexNumber: row.index_number,
    sessionId: row.session_id,
  };
}

export async function deleteSession(db: Db, sessionId: number): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

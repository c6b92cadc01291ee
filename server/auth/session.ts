import type { FastifyReply } from "fastify";
import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import type { Db, Executor } from "../db/database.js";
import { nowIso } from "../db/database.js";
import { hotQuery, runHotQuery } from "../db/dialect.js";
import type { Database } from "../db/schema.js";
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
/** "oidc" and "saml": single sign-on (issue 10); sign-out then offers the provider's own. */
export type SignInMethod = "password" | "code" | "oidc" | "saml";

export interface SessionUser {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  indexNumber: string | null;
  sessionId: number;
  /**
   * How this session began, and when: a fresh code session may set a password without the old one.
   * "api_token": no session at all, a request with an API token (server/auth/api-tokens.ts).
   */
  signInMethod: SignInMethod | "api_token";
  signedInAt: string;
}

export interface NewSession {
  token: string;
  persistent: boolean;
  expiresAt: Date;
}

/** A new 256-bit token for every sign-in; only its hash is stored. */
export async function createSession(
  db: Executor,
  userId: number,
  options: { persistent: boolean; method: SignInMethod },
  now: Date = new Date(),
): Promise<NewSession> {
  const token = newSessionToken();
  const kind = options.persistent ? "persistent" : "session";
  const expiresAt = new Date(now.getTime() + SESSION_LIMITS.absoluteMs[kind]);
  await db
    .insertInto("sessions")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      persistent: options.persistent ? 1 : 0,
      sign_in_method: options.method,
      created_at: nowIso(now),
      last_seen_at: nowIso(now),
      expires_at: nowIso(expiresAt),
    })
    .execute();
  return { token, persistent: options.persistent, expiresAt };
}

/**
 * The session and its user by the token's hash: every authenticated request runs it, so it is
 * compiled once (server/db/dialect.ts, hotQuery). The placeholder is the token hash.
 */
const sessionByTokenHash = hotQuery("session_by_token_hash", (db: Kysely<Database>) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as session_id",
      "sessions.persistent",
      "sessions.sign_in_method",
      "sessions.created_at as session_created_at",
      "sessions.last_seen_at",
      "sessions.expires_at",
      "users.id as user_id",
      "users.email",
      "users.name",
      "users.role",
      "users.index_number",
      "users.active",
    ])
    .where("sessions.token_hash", "=", "token hash"),
);

/** The signed-in user for a token, or null when the token is unknown, expired, idle or the user inactive. */
export async function findSessionUser(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<SessionUser | null> {
  const [row] = await runHotQuery(db, sessionByTokenHash, [hashToken(token)]);
  return row ? checkSession(db, row, now) : null;
}

/** A session and its user as read from the database, whichever query read them. */
export interface SessionRow {
  session_id: number;
  persistent: number;
  sign_in_method: SignInMethod;
  session_created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_id: number;
  email: string;
  name: string | null;
  role: Role;
  index_number: string | null;
  active: number;
}

/**
 * The user of a session row that was found by its token hash, or null when the session has
 * expired, been idle too long or its user is inactive (the session is then deleted). Touches
 * last_seen_at at most once a minute. Every way of reading a session goes through here, so the
 * rules of docs/decisions/003-sessions.md live in one place.
 */
export async function checkSession(
  db: Db,
  row: SessionRow,
  now: Date = new Date(),
): Promise<SessionUser | null> {
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
    signInMethod: row.sign_in_method,
    signedInAt: row.session_created_at,
  };
}

export async function deleteSession(db: Executor, sessionId: number): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/** Signs a user out everywhere, or everywhere but one session (after a password change). */
export async function deleteUserSessions(
  db: Executor,
  userId: number,
  exceptSessionId: number | null = null,
): Promise<void> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (exceptSessionId !== null) query = query.where("id", "<>", exceptSessionId);
  await query.execute();
}

/**
 * HttpOnly, SameSite=Lax, Secure over https. "Remember me" gives a persistent cookie that lives as
 * long as the session can; otherwise the cookie ends with the browser session.
 */
export function setSessionCookie(reply: FastifyReply, config: Config, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secure,
    path: "/",
    ...(session.persistent ? { maxAge: SESSION_LIMITS.absoluteMs.persistent / 1000 } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secure,
    path: "/",
  });
}

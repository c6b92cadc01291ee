import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import {
  API_TOKEN_PREFIX,
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenScope,
} from "../../common/api-tokens.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { hotQuery, runHotQuery } from "../db/dialect.js";
import type { Database } from "../db/schema.js";
import type { SessionUser } from "./session.js";
import { hashToken } from "./tokens.js";

/**
 * API tokens (issue 21, docs/decisions/022-api-tokens.md): named, scoped, expiring, revocable
 * credentials for the university's systems. The token is `ets_` and 256 random bits (base64url),
 * shown once; only its SHA-256 is stored, as for sessions: a value with 256 bits of entropy
 * cannot be guessed from its hash, so a slow password hash would only slow every request.
 */

/** What a request made with an API token carries (request.apiToken). */
export interface ApiTokenPrincipal {
  id: number;
  name: string;
  scopes: ReadonlySet<ApiTokenScope>;
}

/** last_used_at is written at most this often, so reads do not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/** A new token: the prefix says "API token" to the auth hook and to secret scanners. */
export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function isApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

export function parseScopes(stored: string): ApiTokenScope[] {
  const known = new Set<string>(API_TOKEN_SCOPES);
  return stored.split(" ").filter((s): s is ApiTokenScope => known.has(s));
}

/**
 * The token and its creator by the token's hash: every token request runs it, so it is compiled
 * once (server/db/dialect.ts, hotQuery). The placeholder is the token hash.
 */
const tokenByHash = hotQuery("api_token_by_hash", (db: Kysely<Database>) =>
  db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.created_by")
    .select([
      "api_tokens.id",
      "api_tokens.name",
      "api_tokens.scopes",
      "api_tokens.expires_at",
      "api_tokens.revoked_at",
      "api_tokens.last_used_at",
      "api_tokens.last_used_ip",
      "users.id as user_id",
      "users.email",
      "users.role",
      "users.active",
    ])
    .where("api_tokens.token_hash", "=", "token hash"),
);

export type ApiTokenCheck =
  | { ok: true; principal: ApiTokenPrincipal; user: SessionUser }
  | { ok: false; message: string };

/** A token and its creator as tokenByHash reads them. */
interface TokenRow {
  id: number;
  name: string;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  user_id: number;
  email: string;
  role: "student" | "admin";
  active: number;
}

/** How long a token read from the database is trusted before it is read again (decisions/022). */
export const API_TOKEN_CACHE_MS = 2000;
/** Tokens kept at most; the one read longest ago goes first. */
const CACHE_ENTRIES = 1000;

export interface ApiTokenChecker {
  /**
   * The principal of a token, or why it is refused (401): unknown, expired, revoked, or its
   * creator is no longer an active administrator (a token acts with its creator's authority,
   * never more). Records when and from where it was last used, at most once a minute.
   */
  check(token: string, ip: string, now?: Date): Promise<ApiTokenCheck>;
  /** Forgets a token read before (revoked here: refused at once on this server). */
  forget(tokenId: number): void;
}

/**
 * Checks tokens, keeping each one read for API_TOKEN_CACHE_MS: a token's request then asks the
 * database only for its own data, as a session's status read does (the benchmark's target). The
 * price: a token revoked on another server, or whose creator lost access, is refused there within
 * two seconds; on the server that revoked it, at once (forget). Expiry is exact: it is checked on
 * every request. An unknown token is never kept.
 */
export function apiTokenChecker(db: Db, ttlMs = API_TOKEN_CACHE_MS): ApiTokenChecker {
  const cache = new Map<string, { row: TokenRow; readAt: number }>();
  return {
    async check(token, ip, now = new Date()) {
      const key = hashToken(token);
      let entry = cache.get(key);
      if (entry === undefined || now.getTime() - entry.readAt >= ttlMs) {
        const [row] = await runHotQuery(db, tokenByHash, [key]);
        cache.delete(key);
        if (!row) return { ok: false, message: "This API token is not known." };
        entry = { row, readAt: now.getTime() };
        cache.set(key, entry);
        if (cache.size > CACHE_ENTRIES) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      return judge(db, entry.row, ip, now);
    },
    forget(tokenId) {
      for (const [key, entry] of cache) if (entry.row.id === tokenId) cache.delete(key);
    },
  };
}

async function judge(db: Db, row: TokenRow, ip: string, now: Date): Promise<ApiTokenCheck> {
  if (row.revoked_at !== null) return { ok: false, message: "This API token has been revoked." };
  if (Date.parse(row.expires_at) <= now.getTime()) {
    return { ok: false, message: `This API token expired at ${row.expires_at}.` };
  }
  if (Number(row.active) !== 1 || row.role !== "admin") {
    return {
      ok: false,
      message: "The administrator who created this API token no longer has access.",
    };
  }
  const lastUsed = row.last_used_at === null ? 0 : Date.parse(row.last_used_at);
  if (now.getTime() - lastUsed > TOUCH_INTERVAL_MS || row.last_used_ip !== ip) {
    // Kept on the cached row too, so the next requests do not write it again.
    row.last_used_at = nowIso(now);
    row.last_used_ip = ip;
    await db
      .updateTable("api_tokens")
      .set({ last_used_at: row.last_used_at, last_used_ip: ip })
      .where("id", "=", row.id)
      .execute();
  }
  return {
    ok: true,
    principal: { id: row.id, name: row.name, scopes: new Set(parseScopes(row.scopes)) },
    user: {
      id: row.user_id,
      email: row.email,
      name: `API token "${row.name}"`,
      role: "admin",
      indexNumber: null,
      sessionId: 0,
      signInMethod: "api_token",
      signedInAt: nowIso(now),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The administrators' list (server/admin/tokens-routes.ts)

export interface NewApiToken {
  name: string;
  scopes: readonly ApiTokenScope[];
  expiresAt: Date;
  createdBy: number;
}

/** Stores a new token's hash and answers the token itself, which is never stored. */
export async function insertApiToken(
  db: Executor,
  input: NewApiToken,
  now: Date = new Date(),
): Promise<{ id: number; token: string }> {
  const token = newApiToken();
  const row = await db
    .insertInto("api_tokens")
    .values({
      name: input.name,
      token_hash: hashToken(token),
      token_prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      scopes: [...input.scopes].sort().join(" "),
      created_by: input.createdBy,
      created_at: nowIso(now),
      expires_at: nowIso(input.expiresAt),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

const listColumns = [
  "api_tokens.id",
  "api_tokens.name",
  "api_tokens.token_prefix",
  "api_tokens.scopes",
  "api_tokens.created_at",
  "api_tokens.expires_at",
  "api_tokens.revoked_at",
  "api_tokens.last_used_at",
  "api_tokens.last_used_ip",
  "users.email as created_by_email",
] as const;

type ListedRow = {
  id: number;
  name: string;
  token_prefix: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  created_by_email: string | null;
};

function presentToken(row: ListedRow, now: Date): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    scopes: parseScopes(row.scopes),
    createdAt: row.created_at,
    createdBy: row.created_by_email,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    lastUsedFrom: row.last_used_ip,
    state:
      row.revoked_at !== null
        ? "revoked"
        : Date.parse(row.expires_at) <= now.getTime()
          ? "expired"
          : "active",
  };
}

/** One page of tokens, newest first. */
export async function listApiTokens(
  db: Executor,
  page: number,
  pageSize: number,
  now: Date = new Date(),
): Promise<{ items: ApiToken[]; total: number }> {
  const rows = await db
    .selectFrom("api_tokens")
    .leftJoin("users", "users.id", "api_tokens.created_by")
    .select(listColumns)
    .orderBy("api_tokens.created_at", "desc")
    .orderBy("api_tokens.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const { total } = await db
    .selectFrom("api_tokens")
    .select((eb) => eb.fn.countAll<number | string>().as("total"))
    .executeTakeFirstOrThrow();
  return { items: rows.map((row) => presentToken(row, now)), total: Number(total) };
}

export async function findApiToken(
  db: Executor,
  id: number,
  now: Date = new Date(),
): Promise<ApiToken | null> {
  const row = await db
    .selectFrom("api_tokens")
    .leftJoin("users", "users.id", "api_tokens.created_by")
    .select(listColumns)
    .where("api_tokens.id", "=", id)
    .executeTakeFirst();
  return row ? presentToken(row, now) : null;
}

/** Revokes a token; answers false when it was already revoked. */
export async function revokeApiToken(
  db: Executor,
  id: number,
  revokedBy: number,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("api_tokens")
    .set({ revoked_at: nowIso(now), revoked_by: revokedBy })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

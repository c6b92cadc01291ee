import type { FastifyBaseLogger } from "fastify";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { nowIso, type Db } from "../db/database.js";
import { isDatabaseBusy } from "../db/dialect.js";
import { AppError, isDatabaseUnavailable } from "../errors.js";

/**
 * Request limits counted in the database (docs/decisions/008-several-servers.md, "Request
 * limits"), so every app server on one database spends the same budget: three servers allow what
 * one does. A store for @fastify/rate-limit: one atomic statement per request, the same SQL on
 * SQLite and PostgreSQL.
 */

export interface RateLimitStoreOptions {
  /** Where a failing database is reported; the client only hears "try again". */
  log: FastifyBaseLogger;
  /** The clock windows are measured by (tests pass their own). */
  now?: () => Date;
}

/** What a limit counted so far in its current window. */
export interface RateLimitHit {
  count: number;
  resetsAt: string;
}

/**
 * A limit may carry its own name (createRateLimit has no route to name it by); every other limit
 * is named by its route.
 */
export interface NamedLimit {
  limitName?: string;
}

export const LIMITS_UNAVAILABLE_MESSAGE =
  "We cannot take this request just now. Nothing was done. Please try again in a minute.";

/**
 * Counts one request for `key` and answers the count in the current window and when it ends: a
 * new window of `windowMs` when there is no counter or its window has passed, otherwise one more.
 * One statement, so two servers counting the same key at the same moment both count. `by` counts
 * several requests at once (the API tokens' counter, server/auth/api-token-limits.ts, batches).
 */
export async function countRequest(
  db: Db,
  key: string,
  windowMs: number,
  now: Date = new Date(),
  by = 1,
): Promise<RateLimitHit> {
  const at = nowIso(now);
  const row = await db
    .insertInto("rate_limit_counters")
    .values({ key, count: by, resets_at: nowIso(new Date(now.getTime() + windowMs)) })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        // SET expressions read the row as it was before this statement, in both databases.
        const windowOver = eb("rate_limit_counters.resets_at", "<=", at);
        return {
          count: eb
            .case()
            .when(windowOver)
            .then(eb.val(by))
            .else(eb("rate_limit_counters.count", "+", eb.val(by)))
            .end(),
          resets_at: eb
            .case()
            .when(windowOver)
            .then(eb.ref("excluded.resets_at"))
            .else(eb.ref("rate_limit_counters.resets_at"))
            .end(),
        };
      }),
    )
    .returning(["count", "resets_at"])
    .executeTakeFirstOrThrow();
  return { count: row.count, resetsAt: row.resets_at };
}

/**
 * Deletes counters whose window has passed; they would start afresh anyway. Returns how many.
 * Meant for the periodic housekeeping (one server at a time).
 */
export async function sweepRateLimitCounters(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("rate_limit_counters")
    .where("resets_at", "<=", nowIso(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The store class @fastify/rate-limit instantiates. Each limit gets a child whose keys start with
 * the limit's name, so two limits never share a counter even when they count the same address.
 *
 * When the database fails, the request is refused with 503 and the cause is logged: never
 * a 500, and never a free pass (a limit that stops counting while the database struggles is
 * exactly what someone guessing passwords would wait for).
 */
export function databaseRateLimitStore(
  db: Db,
  options: RateLimitStoreOptions,
): FastifyRateLimitStoreCtor {
  const clock = options.now ?? (() => new Date());

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(_pluginOptions: unknown, prefix = "") {
      this.#prefix = prefix;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock();
      countRequest(db, `${this.#prefix}${key}`, timeWindow, now).then(
        ({ count, resetsAt }) => {
          callback(null, {
            current: count,
            ttl: Math.max(0, Date.parse(resetsAt) - now.getTime()),
          });
        },
        (error: unknown) => {
          // SQLite's write lock held elsewhere for a moment: the one error handler answers it 503
          // with Retry-After, as for any request that meets it.
          if (isDatabaseBusy(error)) {
            callback(error as Error);
            return;
          }
          // A database that is down is reported where it is noticed; anything else is a fault here.
          const level = isDatabaseUnavailable(error) ? "warn" : "error";
          options.log[level](
            { err: error, limit: this.#prefix.slice(0, -1) },
            "request limit: the counter could not be updated; refusing the request",
          );
          callback(new AppError("unavailable", LIMITS_UNAVAILABLE_MESSAGE));
        },
      );
    }

    child(limitOptions: unknown): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(undefined, `${limitName(limitOptions)}:`);
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * The name a limit's counters are kept under: its own `limitName`, or its route's method and URL
 * ("POST /api/user_sign_in"). @fastify/rate-limit passes the limit's options with the route as
 * `routeInfo` (an empty object for createRateLimit).
 */
function limitName(limitOptions: unknown): string {
  const { limitName: name, routeInfo } = (limitOptions ?? {}) as {
    limitName?: unknown;
    routeInfo?: { method?: unknown; url?: unknown };
  };
  if (typeof name === "string" && name !== "") return name;
  const method = routeInfo?.method;
  const url = routeInfo?.url;
  if (typeof url === "string") {
    const methods = Array.isArray(method) ? method.join(",") : String(method);
    return `${methods} ${url}`;
  }
  // Without a name, two limits could end up counting in one another's counters.
  throw new Error("A request limit outside a route needs a limitName");
}

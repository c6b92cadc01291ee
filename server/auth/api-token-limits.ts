import type { RateLimit } from "../config.js";
import type { Db } from "../db/database.js";
import { countRequest } from "./rate-limit-store.js";

/**
 * The per-token request limit (docs/decisions/022-api-tokens.md, "Rate limits"), counted in the
 * shared limit store (rate_limit_counters, key `api-token:<id>`) so every server spends one
 * budget, but not with a write per request: a token's requests are counted here and added to the
 * shared counter in batches of a twentieth of the limit (at least 1), or after a second, whichever
 * comes first. Between two batches a server decides on the shared count it last read plus its own
 * requests since, so the limit can be passed by at most one batch per server (5 % of the limit).
 * With a limit under 20 every request is written, and the count is exact.
 */
interface Tally {
  /** This server's requests not yet added to the shared counter. */
  pending: number;
  /** The shared count as last read. */
  known: number;
  /** When the shared window ends (ms); 0: not read yet. */
  resetsAt: number;
  /** When this server last added its requests (ms). */
  flushedAt: number;
}

const FLUSH_AFTER_MS = 1000;

export interface TokenLimitVerdict {
  over: boolean;
  /** How long until the window ends, for Retry-After. */
  waitMs: number;
}

export function tokenRequestCounter(db: Db, limit: RateLimit, clock: () => number = Date.now) {
  const tallies = new Map<number, Tally>();
  const batch = Math.max(1, Math.floor(limit.max / 20));

  return async function countTokenRequest(tokenId: number): Promise<TokenLimitVerdict> {
    const now = clock();
    let tally = tallies.get(tokenId);
    if (tally === undefined || (tally.resetsAt !== 0 && tally.resetsAt <= now)) {
      tally = { pending: 0, known: 0, resetsAt: 0, flushedAt: 0 };
      tallies.set(tokenId, tally);
    }
    tally.pending += 1;
    if (tally.pending >= batch || tally.resetsAt === 0 || now - tally.flushedAt >= FLUSH_AFTER_MS) {
      const by = tally.pending;
      tally.pending = 0;
      tally.flushedAt = now;
      const hit = await countRequest(db, `api-token:${tokenId}`, limit.windowMs, new Date(now), by);
      tally.known = hit.count;
      tally.resetsAt = Date.parse(hit.resetsAt);
    }
    return {
      over: tally.known + tally.pending > limit.max,
      waitMs: Math.max(0, tally.resetsAt - now),
    };
  };
}

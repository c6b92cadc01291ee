import type { CreateRateLimitOptions } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RateLimit } from "../config.js";
import { rateLimited } from "../errors.js";
import type { NamedLimit } from "./rate-limit-store.js";

/**
 * Request limits (docs/decisions/004-accounts-and-mail.md). Per client address: @fastify/rate-limit's
 * per-route config, counted before the body is even read. Per account: a limiter keyed by the email
 * in the (validated) body, whether or not an account exists, so it tells nothing about accounts.
 * Every count is kept in the database, shared by all servers (rate-limit-store.ts).
 */

/** Route config limiting one client address (request.ip, which honours TRUST_PROXY). */
export function perAddress(limit: RateLimit) {
  return { rateLimit: { max: limit.max, timeWindow: limit.windowMs } };
}

/** A preHandler limiting requests about one email address; share one between routes to share the budget. */
export function perEmail(app: FastifyInstance, name: string, limit: RateLimit) {
  // Counted under `name`: a limiter made here has no route to be named by.
  const options: CreateRateLimitOptions & NamedLimit = {
    limitName: name,
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: bodyEmail,
  };
  const check = app.createRateLimit(options);
  return async (request: FastifyRequest): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw rateLimited(
        `Too many requests for this email address. Please wait ${describeWait(result.ttl)} and try again.`,
      );
    }
  };
}

function bodyEmail(request: FastifyRequest): string {
  const body: unknown = request.body;
  if (typeof body === "object" && body !== null && "email" in body) {
    const email = (body as { email: unknown }).email;
    if (typeof email === "string") return email.trim().toLowerCase();
  }
  return "";
}

/** "45 seconds", "1 minute", "15 minutes": how long to wait, in words a person reads. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

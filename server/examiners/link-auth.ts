import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  EXAMINER_AUTH_SCHEME,
  type LinkRefusal,
  type LinkRefusedBody,
} from "../../common/examiners.js";
import { recordAudit } from "../accounts/audit.js";
import { countRequest } from "../auth/rate-limit-store.js";
import { describeWait } from "../auth/rate-limits.js";
import { hashToken } from "../auth/tokens.js";
import type { Config } from "../config.js";
import { nowIso, type Db } from "../db/database.js";
import { AppError, type ErrorBody } from "../errors.js";
import { findLinkByTokenHash, type LinkExamination } from "./link-repository.js";

/**
 * The examiner's link as a credential (issue 9, docs/decisions/009-examiners.md). The examiner
 * page sends `Authorization: Examiner <token>` on every call to /api/examiner/*; this module
 * decides, before the request's body is read, whether the token opens an examination:
 *
 * - a header that is missing, malformed or too long, or a token with no examination: 401
 *   "invalid" (nothing is looked up for a token that cannot be one);
 * - an examination replaced, a link revoked or expired: 410 with that reason;
 * - every refusal counts against the client's address in the request limits' shared counter
 *   (RATE_LIMIT_EXAMINER_LINKS per 15 minutes). Past the limit a refused token answers 429 until
 *   the window ends. A valid token is never counted nor held back: a university's examiners may
 *   share one address, and twenty stale links from it must not lock the others out. Telling a
 *   hit from a miss gains a guesser nothing against 256-bit tokens; the limit is there to keep a
 *   flood of refusals out of the audit log.
 *
 * Refusals carry `linkRefusedBodySchema`'s body, with the school's contact, so the page can say
 * what to do instead of showing an error. Each refusal is audited `examiner.link_refused` with
 * its reason and the address; the crossing of the limit is audited once per window as
 * `examiner.link_throttled` (the refusals after it are not, so a flood cannot flood the audit
 * log). Neither the token nor its hash is ever written anywhere: a known link is named by its
 * examination's id instead.
 */

declare module "fastify" {
  interface FastifyRequest {
    /** The examination whose link authorised this request; set on /api/examiner/* routes. */
    examinerLink: LinkExamination | null;
  }
}

/** A token is 32 random bytes in base64url: 43 characters, no padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Longer headers are refused before a regular expression even reads them. */
const MAX_HEADER_LENGTH = 200;
const HEADER_PATTERN = new RegExp(`^${EXAMINER_AUTH_SCHEME}[ \\t]+(\\S+)[ \\t]*$`, "i");

/** The token from `Authorization: Examiner <token>`, or null when the header cannot hold one. */
export function parseExaminerAuthorization(header: string | undefined): string | null {
  if (header === undefined || header.length > MAX_HEADER_LENGTH) return null;
  const token = HEADER_PATTERN.exec(header)?.[1];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : null;
}

/** The counter refused tokens are counted under, per client address. */
export function refusedLinkCounterKey(ip: string): string {
  return `examiner-link-refused:${ip}`;
}

const SCHOOL = "the School of Graduate Studies";

/** What the page says for each refusal; the school's contact is shown beside it. */
export const LINK_REFUSAL_MESSAGES: Record<LinkRefusal, string> = {
  invalid: `This examination link is not valid. Open the link exactly as it appears in your invitation mail; if it still does not work, ask ${SCHOOL} for a new one.`,
  expired: `This examination link has expired. If you still need to download the thesis or upload your report, ask ${SCHOOL} for a new link.`,
  revoked: `This examination link has been withdrawn by ${SCHOOL}. If you think this is a mistake, please contact the school.`,
  replaced: `This examination was withdrawn from you: ${SCHOOL} passed it to another examiner, so this link no longer opens it and there is nothing more for you to do. If you have questions, please contact the school.`,
};

export const LINK_REFUSAL_STATUS: Record<LinkRefusal, 401 | 410> = {
  invalid: 401,
  expired: 410,
  revoked: 410,
  replaced: 410,
};

/** Why a found examination's link does not open it, or null when it does. */
export function linkRefusalFor(link: LinkExamination, now: Date): LinkRefusal | null {
  if (link.state === "replaced") return "replaced";
  if (link.linkRevokedAt !== null) return "revoked";
  // A link with no expiry was never sent properly; it does not open anything.
  if (link.linkExpiresAt === null || link.linkExpiresAt <= nowIso(now)) return "expired";
  // A token on an examination that was never sent is not a link the examiner was given.
  if (link.state === "nominated") return "invalid";
  return null;
}

export type LinkCheck =
  | { ok: true; link: LinkExamination }
  | { ok: false; status: 401 | 410; body: LinkRefusedBody }
  | { ok: false; status: 429; body: ErrorBody; retryAfterSeconds: number };

/**
 * Decides whether the Authorization header opens an examination, counting and auditing every
 * refusal. Call once per request, before the body is read.
 */
export async function checkExaminerLink(
  ctx: { db: Db; config: Pick<Config, "contactEmail" | "rateLimits"> },
  header: string | undefined,
  ip: string,
  now: Date = new Date(),
): Promise<LinkCheck> {
  const { db, config } = ctx;
  const limit = config.rateLimits.examinerLinks;
  const key = refusedLinkCounterKey(ip);

  const token = parseExaminerAuthorization(header);
  const link = token === null ? null : await findLinkByTokenHash(db, hashToken(token));
  const reason = link === null ? "invalid" : linkRefusalFor(link, now);
  if (link !== null && reason === null) return { ok: true, link };

  const hit = await countRequest(db, key, limit.windowMs, now);
  if (hit.count > limit.max) {
    // Exactly one request sees the count pass the limit, whichever server it reaches.
    if (hit.count === limit.max + 1) {
      await recordAudit(
        db,
        {
          event: "examiner.link_throttled",
          ip,
          details: { refusals: limit.max, windowEndsAt: hit.resetsAt },
        },
        now,
      );
    }
    return throttled(hit.resetsAt, now);
  }
  const refusal = reason ?? "invalid";
  await recordAudit(
    db,
    {
      event: "examiner.link_refused",
      subject: link?.examinerEmail ?? null,
      ip,
      details: {
        reason: refusal,
        ...(link ? { examinationId: link.examinationId } : {}),
      },
    },
    now,
  );
  return {
    ok: false,
    status: LINK_REFUSAL_STATUS[refusal],
    body: {
      success: false,
      code: "link_refused",
      reason: refusal,
      message: LINK_REFUSAL_MESSAGES[refusal],
      schoolContact: config.contactEmail,
    },
  };
}

function throttled(resetsAt: string, now: Date): LinkCheck {
  const waitMs = Math.max(0, Date.parse(resetsAt) - now.getTime());
  return {
    ok: false,
    status: 429,
    body: {
      success: false,
      code: "rate_limited",
      message: `Too many requests. Please wait ${describeWait(waitMs)} and try again.`,
    },
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/**
 * Guards every route of the plugin it is called in: an onRequest hook, so a refused link is
 * answered before a byte of the body is read (a report upload may be a hundred megabytes).
 */
export function guardExaminerLinks(app: FastifyInstance): void {
  app.decorateRequest("examinerLink", null);
  app.addHook("onRequest", async (request, reply) => {
    const check = await checkExaminerLink(app, request.headers.authorization, request.ip);
    if (check.ok) {
      request.examinerLink = check.link;
      return;
    }
    if (check.status === 429) void reply.header("retry-after", check.retryAfterSeconds);
    return reply.code(check.status).send(check.body);
  });
}

/** The examination of the request's link; only behind guardExaminerLinks. */
export function currentLink(request: FastifyRequest): LinkExamination {
  if (!request.examinerLink) throw new AppError("unauthorized", LINK_REFUSAL_MESSAGES.invalid);
  return request.examinerLink;
}

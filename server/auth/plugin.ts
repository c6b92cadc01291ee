import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.js";
import type { Db } from "../db/database.js";
import { AppError, forbidden, unauthorized } from "../errors.js";
import { SESSION_COOKIE, findSessionUser, type SessionUser } from "./session.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The signed-in user, or null. Set for every request before any handler runs, except on a
     * route that reads the session itself (config.readsSessionItself): there its handler sets it.
     */
    user: SessionUser | null;
    /** How the session token arrived: cookie-authenticated writes need a same-origin check. */
    authVia: "cookie" | "bearer" | null;
  }
  interface FastifyContextConfig {
    /**
     * This GET route reads the session in the same statement as its own data (the status read,
     * server/submissions/status-read.ts): one query per request instead of two. The hook then
     * leaves request.user null, and the handler must call useSession before it answers.
     */
    readsSessionItself?: boolean;
  }
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const ADMIN_PREFIX = "/api/admin/";
/**
 * Routes a cross-site form post is meant to reach: the SAML identity provider's answer arrives
 * from its own site by design (the HTTP-POST binding). It rides on no session: the answer is
 * authenticated by its XML signature and its InResponseTo, which the route checks. Matched on the
 * route pattern, so no other path can borrow the exemption.
 */
const CROSS_SITE_POSTS = new Set(["/api/auth/saml/acs"]);

/**
 * Resolves the session for every request, guards cookie-authenticated writes against
 * cross-site requests by checking Origin (or Referer) against this site's own origin, and keeps
 * everything under /api/admin/ for administrators.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
    const publicOrigin = new URL(opts.config.publicUrl).origin;
    app.decorateRequest("user", null);
    app.decorateRequest("authVia", null);

    /** The same-origin check and the /api/admin guard, once the session is known. */
    const guard = (request: FastifyRequest): void => {
      const crossSiteByDesign =
        request.method === "POST" && CROSS_SITE_POSTS.has(request.routeOptions.url ?? "");
      if (UNSAFE_METHODS.has(request.method) && !crossSiteByDesign) {
        const origin = requestOrigin(request);
        const sameSite =
          origin === null || origin === publicOrigin || origin === hostOrigin(request);
        // A cookie rides along on cross-site requests; a bearer token never does.
        if (!sameSite || (origin === null && request.authVia === "cookie")) {
          throw new AppError("forbidden", "Cross-site request refused.");
        }
      }

      // Every route under /api/admin is for administrators, whatever its own guard says, and
      // before its body or parameters are validated. The matched route pattern is checked, not
      // the raw URL, so an encoded path cannot slip past.
      if (request.routeOptions.url?.startsWith(ADMIN_PREFIX)) {
        if (!request.user) throw unauthorized();
        if (request.user.role !== "admin") throw forbidden();
      }
    };

    // A callback hook, not an async one: a request with nothing to look up (no token, or a route
    // that reads its session itself) goes on at once, without a promise. A throw here, in guard
    // included, is Fastify's to turn into the error answer.
    app.addHook("onRequest", (request, _reply, done) => {
      if (!request.url.startsWith("/api/")) return done();
      const token = sessionToken(request);
      // Only safe methods may defer the lookup: the same-origin check needs authVia.
      const deferred = request.routeOptions.config.readsSessionItself === true && isSafe(request);
      if (token === null || deferred) {
        guard(request);
        return done();
      }
      findSessionUser(opts.db, token.value).then(
        (user) => {
          request.user = user;
          if (user) request.authVia = token.via;
          try {
            guard(request);
          } catch (error) {
            return done(asError(error));
          }
          done();
        },
        (error: unknown) => done(asError(error)),
      );
    });
  },
  { name: "ets-auth", dependencies: ["@fastify/cookie"] },
);

/** The session token a request carries: a Bearer header wins over the cookie. */
export function sessionToken(
  request: FastifyRequest,
): { value: string; via: "cookie" | "bearer" } | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  const value = bearer ?? request.cookies[SESSION_COOKIE];
  // Longer than every token this server issues: not looked up.
  if (!value || value.length > 200) return null;
  return { value, via: bearer ? "bearer" : "cookie" };
}

/**
 * For a route that reads the session itself (config.readsSessionItself): records the user its
 * query found, as the hook does for every other route, and answers 401 when there is none.
 */
export function useSession(
  request: FastifyRequest,
  token: ReturnType<typeof sessionToken>,
  user: SessionUser | null,
): SessionUser {
  request.user = user;
  request.authVia = user && token ? token.via : null;
  return currentUser(request);
}

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));

const isSafe = (request: FastifyRequest) => request.method === "GET" || request.method === "HEAD";

function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin && origin !== "null") return origin;
  const referer = request.headers.referer;
  if (referer) {
    try {
      return new URL(referer).origin;
    } catch {
      return "invalid";
    }
  }
  return null;
}

function hostOrigin(request: FastifyRequest): string | null {
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : null;
}

/** preHandler: any signed-in user. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
}

/** preHandler: an administrator; a signed-in student gets 403, nobody 401. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (request.user.role !== "admin") throw forbidden();
}

/** preHandler: a signed-in student (the Messages tab is the student's own). */
export async function requireStudent(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (request.user.role !== "student") throw forbidden("Messages are shown to students.");
}

/** The signed-in user; call only behind requireUser or requireAdmin. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

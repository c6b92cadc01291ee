import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { ApiTokenScope } from "../../common/api-tokens.js";
import type { Config } from "../config.js";
import type { Db } from "../db/database.js";
import { AppError, forbidden, rateLimited, unauthorized } from "../errors.js";
import { apiTokenChecker, isApiToken, type ApiTokenPrincipal } from "./api-tokens.js";
import { tokenRequestCounter } from "./api-token-limits.js";
import { describeWait } from "./rate-limits.js";
import { SESSION_COOKIE, findSessionUser, type SessionUser } from "./session.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The signed-in user, or null. Set for every request before any handler runs, except on a
     * route that reads the session itself (config.readsSessionItself): there its handler sets it.
     */
    user: SessionUser | null;
    /** How the session token arrived: cookie-authenticated writes need a same-origin check. */
    authVia: "cookie" | "bearer" | "api_token" | null;
    /**
     * The API token the request was made with (issue 21, docs/decisions/022-api-tokens.md), or
     * null. request.user is then its creator acting as an administrator, limited to the scopes.
     */
    apiToken: ApiTokenPrincipal | null;
  }
  interface FastifyInstance {
    /**
     * Every API route with the scope a token needs to call it (none: tokens refused), gathered as
     * routes are added: the scope tests walk it, so a new route cannot escape them.
     */
    apiRoutes: ApiRouteEntry[];
    /** Forgets a token this server read (call it when revoking: refused here at once). */
    forgetApiToken(tokenId: number): void;
  }
  interface FastifyContextConfig {
    /**
     * This GET route reads the session in the same statement as its own data (the status read,
     * server/submissions/status-read.ts): one query per request instead of two. The hook then
     * leaves request.user null, and the handler must call useSession before it answers.
     */
    readsSessionItself?: boolean;
    /**
     * The scope an API token needs to call this route (docs/decisions/022-api-tokens.md). A route
     * without it refuses every API token (403), whatever the token's scopes.
     */
    tokenScope?: ApiTokenScope;
  }
}

/** One route as apiRoutes lists it. */
export interface ApiRouteEntry {
  method: string;
  url: string;
  tokenScope: ApiTokenScope | null;
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

/** Why a request carrying both an API token and a session cookie is refused (decisions/022). */
export const TOKEN_AND_COOKIE_MESSAGE =
  "Send an API token or a session cookie, not both: a request made with an API token carries no cookie.";

/**
 * Resolves the session for every request, guards cookie-authenticated writes against
 * cross-site requests by checking Origin (or Referer) against this site's own origin, and keeps
 * everything under /api/admin/ for administrators.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
    const publicOrigin = new URL(opts.config.publicUrl).origin;
    const countTokenRequest = tokenRequestCounter(opts.db, opts.config.rateLimits.apiTokens);
    const apiTokens = apiTokenChecker(opts.db);
    app.decorate("forgetApiToken", (tokenId: number) => apiTokens.forget(tokenId));
    app.decorateRequest("user", null);
    app.decorateRequest("authVia", null);
    app.decorateRequest("apiToken", null);
    const apiRoutes: ApiRouteEntry[] = [];
    app.decorate("apiRoutes", apiRoutes);
    app.addHook("onRoute", (route) => {
      if (!route.url.startsWith("/api/")) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const scope = (route.config as { tokenScope?: ApiTokenScope } | undefined)?.tokenScope;
      for (const method of methods) {
        apiRoutes.push({ method, url: route.url, tokenScope: scope ?? null });
      }
    });

    /** The same-origin check and the /api/admin guard, once the session is known. */
    const guard = (request: FastifyRequest): void => {
      const crossSiteByDesign =
        request.method === "POST" && CROSS_SITE_POSTS.has(request.routeOptions.url ?? "");
      // An API token is no ambient credential a browser adds by itself: no same-origin check.
      const viaToken = request.authVia === "api_token";
      if (UNSAFE_METHODS.has(request.method) && !crossSiteByDesign && !viaToken) {
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

    /**
     * A request with an API token: the token must be live, within its own request limit, and hold
     * the scope the route names (config.tokenScope); a route naming none refuses it.
     */
    const authenticateApiToken = async (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
    ): Promise<void> => {
      if (request.cookies[SESSION_COOKIE] !== undefined) {
        throw new AppError("validation", TOKEN_AND_COOKIE_MESSAGE);
      }
      const checked = await apiTokens.check(token, request.ip);
      if (!checked.ok) throw unauthorized(checked.message);
      request.apiToken = checked.principal;
      // Counted in the shared limit store, so every server spends one budget per token.
      const { over, waitMs } = await countTokenRequest(checked.principal.id);
      if (over) {
        void reply.header("retry-after", Math.max(1, Math.ceil(waitMs / 1000)));
        throw rateLimited(
          `Too many requests with this API token. Please wait ${describeWait(waitMs)} and try again.`,
        );
      }
      // No route matched: the 404 answers, and says nothing a token could use.
      if (request.is404) return;
      const scope = request.routeOptions.config.tokenScope;
      if (scope === undefined) {
        throw forbidden("API tokens cannot call this route: it is only for people signed in.");
      }
      if (!checked.principal.scopes.has(scope)) {
        throw forbidden(`This API token lacks the scope "${scope}", which this route needs.`);
      }
      request.user = checked.user;
      request.authVia = "api_token";
      guard(request);
    };

    // A callback hook, not an async one: a request with nothing to look up (no token, or a route
    // that reads its session itself) goes on at once, without a promise. A throw here, in guard
    // included, is Fastify's to turn into the error answer.
    app.addHook("onRequest", (request, reply, done) => {
      const apiToken = apiTokenOf(request);
      if (!request.url.startsWith("/api/")) {
        // A token never reaches a page: pages are for people, in a browser, with a session.
        if (apiToken !== null) {
          return done(forbidden("API tokens are for the API under /api/, not for pages."));
        }
        return done();
      }
      if (apiToken !== null) {
        authenticateApiToken(request, reply, apiToken).then(
          () => done(),
          (error: unknown) => done(asError(error)),
        );
        return;
      }
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

const BEARER = /^Bearer\s+(\S+)$/i;

/** The API token a request carries in `Authorization: Bearer ets_...`, or null. */
export function apiTokenOf(request: FastifyRequest): string | null {
  const bearer = BEARER.exec(request.headers.authorization ?? "")?.[1];
  // Longer than every token this server issues: not looked up.
  return bearer !== undefined && isApiToken(bearer) && bearer.length <= 200 ? bearer : null;
}

/**
 * The session token a request carries: a Bearer header wins over the cookie. An API token
 * (apiTokenOf) is no session token: the hook has checked it already.
 */
export function sessionToken(
  request: FastifyRequest,
): { value: string; via: "cookie" | "bearer" } | null {
  const header = BEARER.exec(request.headers.authorization ?? "")?.[1];
  if (header !== undefined && isApiToken(header)) return null;
  const bearer = header;
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
  // An API token's request was authenticated by the hook (no session to read).
  if (request.apiToken !== null && request.user !== null) return request.user;
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

/**
 * preHandler: an administrator; a signed-in student gets 403, nobody 401. An API token passes
 * only with the scope the route names (config.tokenScope); the auth hook checked it already, and
 * this says it again where the route is declared.
 */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (request.user.role !== "admin") throw forbidden();
  if (request.apiToken) {
    const scope = request.routeOptions.config.tokenScope;
    if (scope === undefined || !request.apiToken.scopes.has(scope)) {
      throw forbidden(
        scope === undefined
          ? "API tokens cannot call this route: it is only for people signed in."
          : `This API token lacks the scope "${scope}", which this route needs.`,
      );
    }
  }
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

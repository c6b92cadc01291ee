import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ssoOptionsResponseSchema, type SsoOptions } from "../../../common/sso.js";
import type { Config } from "../../config.js";
import { perAddress } from "../../auth/rate-limits.js";
import {
  answerSsoNavigationError,
  finishSsoSignIn,
  recordSsoRefusal,
  refuseSsoSignIn,
  safeReturnPath,
} from "./identity.js";
import {
  OidcRefusal,
  finishOidcCodeExchange,
  oidcConfiguration,
  readOidcPrivateKey,
  refusalFor,
  startOidcSignIn,
} from "./oidc.js";
import { markReplay, saveSsoRequest, SSO_REQUEST_TTL_MS, takeSsoRequest } from "./requests.js";

/**
 * Single sign-on through OpenID Connect, and what the login page needs to know (issue 10).
 * The start and the callback are browser navigations, not API calls: every outcome is a redirect,
 * to the provider, to the user's home page, or back to the login page with `?sso_error=`.
 */

/**
 * The browser that started a sign-in carries its `state` in this cookie, and the callback needs
 * it: a callback URL made by someone else (login CSRF, signing a victim in as the attacker) is
 * refused. SameSite=Lax still rides on the provider's top-level redirect back to us.
 */
export const OIDC_STATE_COOKIE = "ets_oidc_state";
const OIDC_COOKIE_PATH = "/api/auth/oidc";

export function ssoOptions(config: Config): SsoOptions {
  const providers: SsoOptions["providers"] = [];
  if (config.sso.oidc) {
    providers.push({
      provider: "oidc",
      label: config.sso.oidc.label,
      startHref: "/api/auth/oidc/start",
    });
  }
  if (config.sso.saml) {
    providers.push({
      provider: "saml",
      label: config.sso.saml.label,
      startHref: "/api/auth/saml/start",
    });
  }
  return { providers, localSignIn: config.sso.localSignIn };
}

const startQuerySchema = z.object({ returnTo: z.string().max(500).optional() });
const callbackQuerySchema = z.object({
  state: z.string().max(500).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
});

export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;

  app.get(
    "/auth/sso",
    {
      schema: {
        tags: ["accounts"],
        operationId: "getSsoOptions",
        summary: "The single sign-on buttons for the login page, and which local sign-ins stay",
        response: { 200: ssoOptionsResponseSchema },
      },
    },
    async () => ({ data: ssoOptions(app.config) }),
  );

  const oidc = app.config.sso.oidc;
  if (!oidc) return;
  // Read now, so a missing or unusable key file stops the start with its variable's name.
  const privateKey = readOidcPrivateKey(oidc);

  if (privateKey) {
    app.get(
      "/auth/oidc/jwks",
      {
        schema: {
          tags: ["accounts"],
          summary:
            "Our public key for private_key_jwt, for the provider's registration of this application (its jwks_uri)",
        },
      },
      async (_request, reply) =>
        reply
          .type("application/jwk-set+json")
          .header("cache-control", "public, max-age=3600")
          .send({ keys: [privateKey.publicJwk] }),
    );
  }

  app.get(
    "/auth/oidc/start",
    {
      config: perAddress(limits.sso),
      errorHandler: answerSsoNavigationError,
      schema: {
        tags: ["accounts"],
        summary: "Start signing in through OpenID Connect: redirects to the provider",
        querystring: startQuerySchema,
      },
    },
    async (request, reply) => {
      let start;
      try {
        const configuration = await oidcConfiguration(app.config, oidc);
        start = await startOidcSignIn(configuration, app.config, oidc);
      } catch (error) {
        return refuseOidc(request, reply, refusalFor(error), "unreachable");
      }
      await saveSsoRequest(app.db, {
        key: start.state,
        provider: "oidc",
        nonce: start.nonce,
        codeVerifier: start.codeVerifier,
        returnTo: safeReturnPath(request.query.returnTo),
      });
      reply.setCookie(OIDC_STATE_COOKIE, start.state, {
        httpOnly: true,
        sameSite: "lax",
        secure: app.config.secure,
        path: OIDC_COOKIE_PATH,
        maxAge: SSO_REQUEST_TTL_MS / 1000,
      });
      return reply.redirect(start.authorizationUrl, 303);
    },
  );

  app.get(
    "/auth/oidc/callback",
    {
      config: perAddress(limits.sso),
      errorHandler: answerSsoNavigationError,
      schema: {
        tags: ["accounts"],
        summary: "The provider's answer: signs in and redirects home, or back to the login page",
        querystring: callbackQuerySchema,
      },
    },
    async (request, reply) => {
      const { state, error } = request.query;
      const cookieState = request.cookies[OIDC_STATE_COOKIE];
      reply.clearCookie(OIDC_STATE_COOKIE, { path: OIDC_COOKIE_PATH });
      // Taken once: a second use of the same answer (a replay, a reload) finds nothing.
      const saved = state ? await takeSsoRequest(app.db, state, "oidc") : null;
      if (!saved || !saved.nonce || !saved.codeVerifier) {
        return refuseOidc(request, reply, new OidcRefusal("expired", "unknown or used state"));
      }
      if (cookieState !== state) {
        return refuseOidc(
          request,
          reply,
          new OidcRefusal("expired", "state not started in this browser"),
        );
      }
      if (error !== undefined) {
        const failure = error === "access_denied" ? "cancelled" : "invalid_response";
        return refuseOidc(request, reply, new OidcRefusal(failure, `provider error: ${error}`));
      }

      let answer;
      try {
        const configuration = await oidcConfiguration(app.config, oidc);
        answer = await finishOidcCodeExchange(
          configuration,
          oidc,
          new URL(request.url, app.config.publicUrl),
          { state: saved.key, nonce: saved.nonce, codeVerifier: saved.codeVerifier },
        );
      } catch (caught) {
        return refuseOidc(request, reply, refusalFor(caught));
      }
      // The nonce is saved with one request only, so seeing it twice means an ID token was
      // replayed into another sign-in; it is remembered until the token expires.
      const expiresAt = new Date(
        Math.max(answer.expiresAt.getTime(), Date.now() + SSO_REQUEST_TTL_MS),
      );
      if (!(await markReplay(app.db, `oidc:${saved.nonce}`, expiresAt))) {
        return refuseOidc(request, reply, new OidcRefusal("expired", "nonce replayed"));
      }
      return finishSsoSignIn(request, reply, answer.identity, { returnTo: saved.returnTo });
    },
  );
};

async function refuseOidc(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: OidcRefusal,
  failure = refusal.failure,
): Promise<FastifyReply> {
  request.log.warn({ failure, reason: refusal.reason }, "OpenID Connect sign-in refused");
  await recordSsoRefusal(request, { provider: "oidc", failure, reason: refusal.reason });
  return refuseSsoSignIn(reply, failure);
}

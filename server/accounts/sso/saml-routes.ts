import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { perAddress } from "../../auth/rate-limits.js";
import { SSO_REQUEST_TTL_MS } from "./requests.js";
import {
  answerSsoNavigationError,
  finishSsoSignIn,
  recordSsoRefusal,
  refuseSsoSignIn,
  safeReturnPath,
} from "./identity.js";
import {
  idpMetadataSource,
  readSpKeys,
  serviceProviderMetadata,
  startSamlSignIn,
  verifySamlResponse,
  type IdpDescription,
} from "./saml.js";

/**
 * The IdP posts a Response of a few kilobytes, tens with an encrypted assertion and a large group
 * list; a quarter of a megabyte leaves room for that and refuses more while it arrives.
 */
export const SAML_FORM_BODY_LIMIT = 256 * 1024;

/**
 * What the IdP's page posts to the ACS URL (the SAML HTTP-POST binding). Both fields optional so
 * a form without SAMLResponse lands on the login page with a message, not on a validation error.
 */
const acsFormSchema = z.object({
  SAMLResponse: z.string().max(SAML_FORM_BODY_LIMIT).optional(),
  RelayState: z.string().max(1000).optional(),
});

const startQuerySchema = z.object({
  /** A path of this site to land on after signing in; other values are ignored. */
  returnTo: z.string().max(500).optional(),
});

/**
 * With PUBLIC_URL https, the browser that starts a sign-in carries its request id in this cookie,
 * and the assertion consumer needs it: an answer posted from another browser (login forgery,
 * signing a victim in as the attacker) is refused. The IdP's answer arrives by a cross-site POST,
 * which carries only SameSite=None cookies, and browsers take those over https only, so over
 * plain http (a trial on one machine) answers are not bound.
 */
export const SAML_REQUEST_COOKIE = "ets_saml_request";
const SAML_COOKIE_PATH = "/api/auth/saml";

/**
 * Single sign-on through SAML 2.0 (issue 10, docs/decisions/010-single-sign-on.md): our SP
 * metadata, the SP-initiated start, and the assertion consumer service. Registered only when
 * SAML_IDP_METADATA is set.
 */
export const samlRoutes: FastifyPluginAsyncZod = async (app) => {
  const saml = app.config.sso.saml;
  if (!saml) return;
  const publicUrl = app.config.publicUrl;
  const bindToBrowser = app.config.secure;
  const keys = readSpKeys(saml);
  const metadata = idpMetadataSource(saml.idpMetadata, {
    onRefreshFailed: (error) =>
      app.log.warn(
        { err: error },
        "the SAML IdP metadata could not be read again; the last good copy stays in use",
      ),
  });
  const limit = perAddress(app.config.rateLimits.sso);

  // Fastify parses no form bodies by default; this parser serves this plugin's routes only.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: SAML_FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  /** The IdP's metadata, or null (and a warning) when it cannot be read. */
  async function identityProvider(): Promise<IdpDescription | null> {
    try {
      return await metadata.get();
    } catch (error) {
      app.log.warn({ err: error }, "the SAML IdP metadata cannot be read");
      return null;
    }
  }

  app.get(
    "/auth/saml/metadata",
    {
      schema: {
        tags: ["single sign-on"],
        summary: "Our SAML service provider metadata, for the identity provider's administrators",
      },
    },
    async (_request, reply) =>
      reply
        .type("application/samlmetadata+xml; charset=utf-8")
        .send(serviceProviderMetadata(saml, publicUrl, keys)),
  );

  app.get(
    "/auth/saml/start",
    {
      config: limit,
      errorHandler: answerSsoNavigationError,
      schema: {
        tags: ["single sign-on"],
        summary: "Start a SAML sign-in: redirects to the identity provider",
        querystring: startQuerySchema,
      },
    },
    async (request, reply) => {
      const idp = await identityProvider();
      if (!idp) {
        await recordSsoRefusal(request, {
          provider: "saml",
          failure: "unreachable",
          reason: "IdP metadata unreadable",
        });
        return refuseSsoSignIn(reply, "unreachable");
      }
      const start = await startSamlSignIn(
        app.db,
        saml,
        publicUrl,
        keys,
        idp,
        safeReturnPath(request.query.returnTo),
      );
      if (bindToBrowser) {
        reply.setCookie(SAML_REQUEST_COOKIE, start.requestId, {
          httpOnly: true,
          secure: true,
          sameSite: "none",
          path: SAML_COOKIE_PATH,
          maxAge: SSO_REQUEST_TTL_MS / 1000,
        });
      }
      if (start.binding === "redirect") return reply.redirect(start.url, 303);
      return sendPostForm(reply, start.url, start.fields);
    },
  );

  app.post(
    "/auth/saml/acs",
    {
      bodyLimit: SAML_FORM_BODY_LIMIT,
      config: limit,
      errorHandler: answerSsoNavigationError,
      schema: {
        tags: ["single sign-on"],
        summary:
          "Assertion consumer service: the identity provider posts its signed answer here; redirects to the user's home or back to the login page with ?sso_error=",
        body: acsFormSchema,
      },
    },
    async (request, reply) => {
      const refuse = async (
        failure: "unreachable" | "invalid_response",
        reason: string,
      ): Promise<FastifyReply> => {
        await recordSsoRefusal(request, { provider: "saml", failure, reason });
        return refuseSsoSignIn(reply, failure);
      };
      const browserRequestId = request.cookies[SAML_REQUEST_COOKIE] ?? null;
      if (bindToBrowser) reply.clearCookie(SAML_REQUEST_COOKIE, { path: SAML_COOKIE_PATH });
      const samlResponse = request.body.SAMLResponse?.trim();
      if (!samlResponse) return refuse("invalid_response", "no SAMLResponse in the form");
      const idp = await identityProvider();
      if (!idp) return refuse("unreachable", "IdP metadata unreadable");

      const outcome = await verifySamlResponse(
        app.db,
        saml,
        publicUrl,
        keys,
        idp,
        samlResponse,
        bindToBrowser ? { browserRequestId } : {},
      );
      if (!outcome.ok) {
        request.log.info(
          { failure: outcome.failure, reason: outcome.reason },
          "SAML answer refused",
        );
        await recordSsoRefusal(request, {
          provider: "saml",
          failure: outcome.failure,
          reason: outcome.reason,
        });
        return refuseSsoSignIn(reply, outcome.failure);
      }
      return finishSsoSignIn(request, reply, outcome.identity, { returnTo: outcome.returnTo });
    },
  );
};

/**
 * The HTTP-POST binding for an IdP that offers no HTTP-Redirect endpoint: a page whose form posts
 * the AuthnRequest to the IdP. The app's Content-Security-Policy allows forms to this site only and
 * no inline script, so this one page gets its own: a form to the IdP, and the one script by nonce.
 */
function sendPostForm(
  reply: FastifyReply,
  url: string,
  fields: Record<string, string>,
): FastifyReply {
  const nonce = randomBytes(16).toString("base64");
  const inputs = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join("");
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in</title></head><body>` +
    `<form id="saml" method="post" action="${escapeHtml(url)}">${inputs}` +
    `<p>Taking you to your university's sign-in page.</p>` +
    `<button type="submit">Continue</button></form>` +
    `<script nonce="${nonce}">document.getElementById("saml").submit();</script></body></html>`;
  return reply
    .header(
      "content-security-policy",
      `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${new URL(url).origin}; base-uri 'none'; frame-ancestors 'none'`,
    )
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(html);
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

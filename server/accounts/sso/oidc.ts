import * as client from "openid-client";
import type { SsoFailure } from "../../../common/sso.js";
import type { Config, OidcConfig } from "../../config.js";
import type { SsoIdentity } from "./identity.js";

/**
 * OpenID Connect through openid-client (issue 10, docs/decisions/010-single-sign-on.md): the
 * authorization code flow with PKCE (S256), a random `state` and `nonce`, and the ID token checked
 * by the library: issuer, audience, signature against the provider's published keys (the
 * non-repudiation check, which openid-client leaves off unless asked), expiry and nonce.
 */

/** Where the provider sends the person back; registered at the provider as the redirect URI. */
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
/** Where the provider's sign-out sends the person afterwards (a post-logout redirect URI). */
export const OIDC_POST_LOGOUT_PATH = "/auth/login";
/** A provider that does not answer within this many seconds counts as unreachable. */
const REQUEST_TIMEOUT_SECONDS = 10;

/**
 * One discovered configuration per app's config (a test builds several apps). A failed discovery
 * is forgotten, so the next sign-in tries again instead of failing until a restart.
 */
const discoveries = new WeakMap<Config, Promise<client.Configuration>>();

/** The provider's configuration, discovered from OIDC_ISSUER once and then reused. */
export function oidcConfiguration(config: Config, oidc: OidcConfig): Promise<client.Configuration> {
  const cached = discoveries.get(config);
  if (cached) return cached;
  const discovery = discover(oidc);
  discoveries.set(config, discovery);
  discovery.catch(() => {
    if (discoveries.get(config) === discovery) discoveries.delete(config);
  });
  return discovery;
}

async function discover(oidc: OidcConfig): Promise<client.Configuration> {
  const execute: ((configuration: client.Configuration) => void)[] = [
    client.enableNonRepudiationChecks,
  ];
  // Plain http only to the machine itself (a provider run for development or tests); a school's
  // provider is always reached over https.
  if (isLoopbackHttp(oidc.issuer)) execute.push(client.allowInsecureRequests);
  return client.discovery(
    new URL(oidc.issuer),
    oidc.clientId,
    oidc.clientSecret ?? undefined,
    // A public client (no secret) authenticates with PKCE alone.
    oidc.clientSecret ? client.ClientSecretPost(oidc.clientSecret) : client.None(),
    { execute, timeout: REQUEST_TIMEOUT_SECONDS },
  );
}

function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** What the start of a sign-in saves, and the provider address to send the person to. */
export interface OidcStart {
  state: string;
  nonce: string;
  codeVerifier: string;
  authorizationUrl: string;
}

export async function startOidcSignIn(
  configuration: client.Configuration,
  config: Config,
  oidc: OidcConfig,
): Promise<OidcStart> {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const authorizationUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`,
    scope: oidc.scopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  return { state, nonce, codeVerifier, authorizationUrl: authorizationUrl.href };
}

/** The verified answer: who the provider says this is, and until when its ID token is valid. */
export interface OidcAnswer {
  identity: SsoIdentity;
  /** The ID token's expiry: the nonce is remembered until then, so it cannot be used again. */
  expiresAt: Date;
}

export class OidcRefusal extends Error {
  constructor(
    readonly failure: SsoFailure,
    /** For the audit row and the log: a short reason, never a token. */
    readonly reason: string,
  ) {
    super(reason);
    this.name = "OidcRefusal";
  }
}

/**
 * Exchanges the code for tokens and checks the ID token (state, PKCE verifier, nonce, issuer,
 * audience, signature, expiry), then reads the claims. Throws OidcRefusal: `unreachable` when the
 * provider cannot be reached or fails on its side, `invalid_response` when its answer does not
 * pass a check.
 */
export async function finishOidcCodeExchange(
  configuration: client.Configuration,
  oidc: OidcConfig,
  callbackUrl: URL,
  saved: { state: string; nonce: string; codeVerifier: string },
): Promise<OidcAnswer> {
  let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  try {
    tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      expectedState: saved.state,
      expectedNonce: saved.nonce,
      pkceCodeVerifier: saved.codeVerifier,
      idTokenExpected: true,
    });
  } catch (error) {
    throw refusalFor(error);
  }
  const idToken = tokens.claims();
  if (!idToken) throw new OidcRefusal("invalid_response", "no ID token");

  let claims: Record<string, unknown> = { ...idToken };
  // Some providers put only `sub` in the ID token and the rest behind the userinfo endpoint.
  if (claims[oidc.emailClaim] === undefined && configuration.serverMetadata().userinfo_endpoint) {
    try {
      const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
      claims = { ...userinfo, ...idToken };
    } catch (error) {
      throw refusalFor(error);
    }
  }
  return {
    identity: identityFromClaims(claims, oidc),
    expiresAt: new Date(idToken.exp * 1000),
  };
}

/**
 * The claims as an SsoIdentity. `email_verified` must be true for the `email` claim. A school that
 * names another claim for the address (Entra ID's `upn` or `preferred_username`) takes it from its
 * own directory, which no user can change; the provider then sends no `email_verified` for it, and
 * the address counts as verified unless the provider says otherwise.
 */
export function identityFromClaims(claims: Record<string, unknown>, oidc: OidcConfig): SsoIdentity {
  const rawEmail = claims[oidc.emailClaim];
  const email =
    typeof rawEmail === "string" && rawEmail.includes("@") ? rawEmail.trim().toLowerCase() : null;
  const verifiedClaim = claims.email_verified;
  const verified = verifiedClaim === true || verifiedClaim === "true";
  const emailVerified =
    oidc.emailClaim === "email" ? verified : verifiedClaim === undefined || verified;
  return {
    provider: "oidc",
    subject: String(claims.sub),
    email,
    emailVerified: email !== null && emailVerified,
    indexNumber: oidc.indexNumberClaim ? claimText(claims[oidc.indexNumberClaim]) : null,
    groups: claimList(claims[oidc.groupsClaim]),
    name: claimText(claims.name),
  };
}

function claimText(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  return text === "" ? null : text.slice(0, 200);
}

/** A groups claim is a JSON array of names or ids, or (some providers) one comma-separated string. */
function claimList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return items
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .slice(0, 500);
}

/** openid-client's errors as the login page's failures. */
export function refusalFor(error: unknown): OidcRefusal {
  if (error instanceof OidcRefusal) return error;
  // fetch() rejects with a TypeError when the connection fails.
  if (error instanceof TypeError)
    return new OidcRefusal("unreachable", `network: ${error.message}`);
  if (error instanceof client.ClientError) {
    if (error.code === "OAUTH_TIMEOUT" || error.code === "OAUTH_ABORT") {
      return new OidcRefusal("unreachable", error.message);
    }
    const cause: unknown = error.cause;
    if (cause instanceof Response && cause.status >= 500) {
      return new OidcRefusal("unreachable", `provider answered ${cause.status}`);
    }
    return new OidcRefusal("invalid_response", describe(error));
  }
  if (error instanceof client.ResponseBodyError) {
    return new OidcRefusal(
      error.status >= 500 ? "unreachable" : "invalid_response",
      `${error.error}: ${error.error_description ?? ""}`,
    );
  }
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcRefusal(
      error.error === "access_denied" ? "cancelled" : "invalid_response",
      error.error,
    );
  }
  return new OidcRefusal("invalid_response", error instanceof Error ? error.message : "unknown");
}

/** The library's message and the check's own (in its cause), e.g. "unexpected JWT "aud" value". */
function describe(error: Error): string {
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message;
}

/**
 * Where the provider signs the person out too, for a session that began with OpenID Connect:
 * its end_session_endpoint with our client id and the way back to the login page; null when the
 * provider has none (Google) or cannot be reached now (our own session is ended regardless).
 */
export async function oidcEndSessionUrl(config: Config): Promise<string | null> {
  const oidc = config.sso.oidc;
  if (!oidc) return null;
  try {
    const configuration = await oidcConfiguration(config, oidc);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(configuration, {
      client_id: oidc.clientId,
      post_logout_redirect_uri: `${config.publicUrl}${OIDC_POST_LOGOUT_PATH}`,
    }).href;
  } catch {
    return null;
  }
}

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  webcrypto,
  type KeyObject,
} from "node:crypto";
import fs from "node:fs";
import * as client from "openid-client";
import type { SsoFailure } from "../../../common/sso.js";
import type { Config, OidcConfig, OidcTokenAuthMethod } from "../../config.js";
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
  // Discovered first without our credentials: how we authenticate depends on what it advertises.
  const discovered = await client.discovery(
    new URL(oidc.issuer),
    oidc.clientId,
    undefined,
    client.None(),
    {
      execute,
      timeout: REQUEST_TIMEOUT_SECONDS,
    },
  );
  const server = discovered.serverMetadata();
  const method = tokenAuthMethodFor(oidc, server.token_endpoint_auth_methods_supported);
  const configuration = new client.Configuration(
    server,
    oidc.clientId,
    oidc.clientSecret ?? undefined,
    await clientAuthentication(method, oidc),
  );
  for (const apply of execute) apply(configuration);
  configuration.timeout = REQUEST_TIMEOUT_SECONDS;
  return configuration;
}

/** Set up wrongly for this provider: said in the log and the audit row, `unreachable` to the person. */
export class OidcSetupError extends Error {
  override name = "OidcSetupError";
}

/**
 * How we authenticate at the provider's token endpoint. OIDC_TOKEN_AUTH_METHOD when set;
 * otherwise the first of the methods our credentials allow that the provider advertises
 * (token_endpoint_auth_methods_supported; a provider that advertises none supports
 * client_secret_basic, the OpenID Connect default): private_key_jwt with a key file,
 * client_secret_basic then client_secret_post with a secret, none (PKCE alone) with neither.
 */
export function tokenAuthMethodFor(
  oidc: Pick<OidcConfig, "tokenAuthMethod" | "clientSecret" | "privateKeyFile">,
  advertised: readonly string[] | undefined,
): OidcTokenAuthMethod {
  if (oidc.tokenAuthMethod) return oidc.tokenAuthMethod;
  const supported = advertised && advertised.length > 0 ? advertised : ["client_secret_basic"];
  const ours: OidcTokenAuthMethod[] = [
    ...(oidc.privateKeyFile ? (["private_key_jwt"] as const) : []),
    ...(oidc.clientSecret ? (["client_secret_basic", "client_secret_post"] as const) : []),
    ...(!oidc.privateKeyFile && !oidc.clientSecret ? (["none"] as const) : []),
  ];
  const method = ours.find((candidate) => supported.includes(candidate));
  if (method) return method;
  throw new OidcSetupError(
    `the provider's token endpoint accepts ${supported.join(", ")}, and our credentials allow ${ours.join(", ")}: set OIDC_CLIENT_SECRET or OIDC_PRIVATE_KEY_FILE to match, or name the method in OIDC_TOKEN_AUTH_METHOD`,
  );
}

async function clientAuthentication(
  method: OidcTokenAuthMethod,
  oidc: OidcConfig,
): Promise<client.ClientAuth> {
  switch (method) {
    case "client_secret_basic":
      return client.ClientSecretBasic(oidc.clientSecret ?? undefined);
    case "client_secret_post":
      return client.ClientSecretPost(oidc.clientSecret ?? undefined);
    case "none":
      // A public client authenticates with PKCE alone.
      return client.None();
    case "private_key_jwt": {
      const key = readOidcPrivateKey(oidc);
      if (!key) throw new OidcSetupError("private_key_jwt needs OIDC_PRIVATE_KEY_FILE");
      return client.PrivateKeyJwt({ key: await key.cryptoKey(), kid: key.kid });
    }
  }
}

/** Our key for private_key_jwt: what signs the client assertion, and what the provider checks it with. */
export interface OidcPrivateKey {
  /** The `kid` in the assertion's header: OIDC_PRIVATE_KEY_ID, or the key's JWK thumbprint. */
  kid: string;
  /** The public half as a JWK (GET /api/auth/oidc/jwks), for the provider's registration. */
  publicJwk: Record<string, unknown>;
  cryptoKey(): Promise<CryptoKey>;
}

/** The WebCrypto algorithm, and the JWS `alg`, for each kind of key we sign assertions with. */
function signingAlgorithm(key: KeyObject): {
  params: RsaHashedImportParams | EcKeyImportParams | Algorithm;
  alg: string;
} {
  const type = key.asymmetricKeyType;
  if (type === "rsa")
    return { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, alg: "RS256" };
  if (type === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === "prime256v1")
      return { params: { name: "ECDSA", namedCurve: "P-256" }, alg: "ES256" };
    if (curve === "secp384r1")
      return { params: { name: "ECDSA", namedCurve: "P-384" }, alg: "ES384" };
  }
  if (type === "ed25519") return { params: { name: "Ed25519" }, alg: "EdDSA" };
  throw new Error(
    "OIDC_PRIVATE_KEY_FILE must hold an RSA, EC (P-256 or P-384) or Ed25519 private key",
  );
}

/**
 * Reads OIDC_PRIVATE_KEY_FILE (PEM): null when unset. Called when the routes are registered, so a
 * missing or unusable file stops the server with the variable's name, and again at discovery.
 */
export function readOidcPrivateKey(oidc: OidcConfig): OidcPrivateKey | null {
  if (!oidc.privateKeyFile) return null;
  let key: KeyObject;
  try {
    key = createPrivateKey(fs.readFileSync(oidc.privateKeyFile, "utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`OIDC_PRIVATE_KEY_FILE cannot be read as a PEM private key: ${reason}`);
  }
  const { params, alg } = signingAlgorithm(key);
  const pub = createPublicKey(key).export({ format: "jwk" });
  const kid = oidc.privateKeyId ?? jwkThumbprint(pub);
  return {
    kid,
    publicJwk: { ...pub, kid, alg, use: "sig" },
    cryptoKey: () =>
      webcrypto.subtle.importKey(
        "pkcs8",
        key.export({ format: "der", type: "pkcs8" }),
        params,
        false,
        ["sign"],
      ),
  };
}

/** RFC 7638: the SHA-256 of the key's required members, in order, as base64url. */
function jwkThumbprint(jwk: JsonWebKey): string {
  const members: Record<string, readonly string[]> = {
    RSA: ["e", "kty", "n"],
    EC: ["crv", "kty", "x", "y"],
    OKP: ["crv", "kty", "x"],
  };
  const required = members[jwk.kty ?? ""] ?? [];
  const canonical = JSON.stringify(
    Object.fromEntries(required.map((name) => [name, (jwk as Record<string, unknown>)[name]])),
  );
  return createHash("sha256").update(canonical).digest("base64url");
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

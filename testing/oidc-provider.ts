import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID Connect provider (the npm `oidc-provider`, the certified implementation) on
 * loopback, for the single sign-on tests (issue 10). People sign in through its own development
 * pages (any password; the login is the user's `sub`); consent is given for them, as a school's
 * provider does for its own applications. It can be told to misbehave: to answer with an ID token
 * whose claims are wrong but correctly signed (issuer, audience, expiry, nonce), signed by a key it
 * does not publish, or altered after signing; or to fail discovery as if it were down.
 */

export interface TestOidcUser {
  /** The `sub`, and what is typed as the login on the provider's page. */
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[] | string;
  /** Sent as the `student_index` claim. */
  indexNumber?: string;
}

/** The claim the test provider sends the index number in (OIDC_INDEX_NUMBER_CLAIM). */
export const TEST_INDEX_NUMBER_CLAIM = "student_index";

type Claims = Record<string, unknown>;

export interface Misbehaviour {
  /** Rewrites the ID token's claims and signs it again with the provider's own key. */
  idTokenClaims?: (claims: Claims) => Claims;
  /** Signs the ID token with a key the provider does not publish (the same `kid`). */
  foreignKey?: boolean;
  /** Changes a claim after signing, leaving the original signature on it. */
  tamper?: boolean;
  /** Answers discovery with 503, as a provider that is down. */
  discoveryDown?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** What the next answers do wrong; reset by assigning {}. */
  misbehave: Misbehaviour;
  users: Map<string, TestOidcUser>;
  addUser(user: TestOidcUser): void;
  /**
   * Walks the provider's pages the way a browser would (authorize, the login form, back) and
   * returns the URL the provider redirects to at the end: our callback with code and state.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  /** Like signIn, but the person presses "cancel" (the abort link): the callback gets access_denied. */
  cancel(authorizationUrl: string): Promise<URL>;
  /** Env for the app under test: OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and claim names. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Our callback and post-logout URLs are registered for this origin (PUBLIC_URL). */
  publicUrl: string;
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  users?: TestOidcUser[];
  /**
   * How the client must authenticate at the token endpoint (its registration's
   * token_endpoint_auth_method; the provider refuses any other): client_secret_basic by default.
   */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** The client's public keys, for private_key_jwt. */
  clientJwks?: { keys: Record<string, unknown>[] };
  /** What discovery advertises as token_endpoint_auth_methods_supported (the library's list). */
  advertisedAuthMethods?: readonly string[];
}

export async function startOidcProvider(options: StartOptions): Promise<TestOidcProvider> {
  const host = options.host ?? "127.0.0.1";
  const clientId = options.clientId ?? "ets-tracking";
  const clientSecret = options.clientSecret ?? "test-client-secret-0123456789abcdef";
  const users = new Map<string, TestOidcUser>((options.users ?? []).map((u) => [u.sub, u]));
  const signing = rsaKey("test-signing-key");
  const foreign = rsaKey("test-signing-key");
  const misbehaviour: { current: Misbehaviour } = { current: {} };

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${port}`;

  const authMethod = options.tokenEndpointAuthMethod ?? "client_secret_basic";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        ...(authMethod === "private_key_jwt"
          ? { jwks: options.clientJwks ?? { keys: [] } }
          : { client_secret: clientSecret }),
        redirect_uris: [`${options.publicUrl}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${options.publicUrl}/auth/login`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: authMethod,
      },
    ],
    ...(options.advertisedAuthMethods
      ? { clientAuthMethods: [...options.advertisedAuthMethods] }
      : {}),
    jwks: { keys: [signing.jwk] },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    pkce: { methods: ["S256"], required: () => true },
    // Groups and the index number ride with `profile`, so the default OIDC_SCOPES receive them,
    // as Entra ID sends groups whatever the scopes.
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "groups", TEST_INDEX_NUMBER_CLAIM],
    },
    // Lifetimes set, so the library does not print a notice for each default it falls back to.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    // Every claim in the ID token itself, as Entra ID and Google send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          ...(user.email !== undefined ? { email: user.email } : {}),
          ...(user.emailVerified !== undefined ? { email_verified: user.emailVerified } : {}),
          ...(user.name !== undefined ? { name: user.name } : {}),
          ...(user.groups !== undefined ? { groups: user.groups } : {}),
          ...(user.indexNumber !== undefined
            ? { [TEST_INDEX_NUMBER_CLAIM]: user.indexNumber }
            : {}),
        }),
      };
    },
    // Consent is the school's, given for its own application: nobody is asked.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const existing =
        ctx.oidc.result?.consent?.grantId ??
        ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  provider.proxy = false;

  provider.use(async (ctx, next) => {
    const wrong = misbehaviour.current;
    if (wrong.discoveryDown && ctx.path.startsWith("/.well-known/")) {
      ctx.status = 503;
      ctx.body = { error: "temporarily_unavailable" };
      return;
    }
    // oidc-provider takes client_secret_basic and client_secret_post for each other; a school's
    // provider may not (ADFS, some Keycloak set-ups accept only the registered one), so the
    // registered method is the only one accepted here: Basic credentials, or none in the header.
    if (ctx.path === "/token" && ctx.method === "POST") {
      const basic = /^basic /i.test(ctx.get("authorization"));
      if (
        (authMethod === "client_secret_basic" && !basic) ||
        (authMethod === "client_secret_post" && basic)
      ) {
        ctx.status = 401;
        ctx.body = {
          error: "invalid_client",
          error_description: `this client authenticates with ${authMethod} only`,
        };
        return;
      }
    }
    await next();
    if (ctx.path === "/token" && ctx.status === 200 && isTokenBody(ctx.body)) {
      ctx.body = {
        ...ctx.body,
        id_token: rewriteIdToken(ctx.body.id_token, wrong, signing, foreign),
      };
    }
  });

  server.on("request", provider.callback());

  return {
    issuer,
    port,
    clientId,
    clientSecret,
    get misbehave() {
      return misbehaviour.current;
    },
    set misbehave(value: Misbehaviour) {
      misbehaviour.current = value;
    },
    users,
    addUser: (user) => void users.set(user.sub, user),
    signIn: (authorizationUrl, login) => walk(issuer, authorizationUrl, { login }),
    cancel: (authorizationUrl) => walk(issuer, authorizationUrl, { abort: true }),
    env: () => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      ...(authMethod === "private_key_jwt" ? {} : { OIDC_CLIENT_SECRET: clientSecret }),
      OIDC_INDEX_NUMBER_CLAIM: TEST_INDEX_NUMBER_CLAIM,
      OIDC_GROUPS_CLAIM: "groups",
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isTokenBody(body: unknown): body is { id_token: string } {
  return typeof body === "object" && body !== null && typeof (body as Claims).id_token === "string";
}

interface SigningKey {
  key: KeyObject;
  jwk: Record<string, unknown>;
}

function rsaKey(kid: string): SigningKey {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  return { key: createPrivateKey({ key: jwk, format: "jwk" }), jwk };
}

const b64 = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function signJwt(header: Claims, claims: Claims, key: KeyObject): string {
  const input = `${b64(JSON.stringify(header))}.${b64(JSON.stringify(claims))}`;
  return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
}

function rewriteIdToken(
  idToken: string,
  wrong: Misbehaviour,
  signing: SigningKey,
  foreign: SigningKey,
): string {
  if (!wrong.idTokenClaims && !wrong.foreignKey && !wrong.tamper) return idToken;
  const [header, payload, signature] = idToken.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims;
  if (wrong.tamper) {
    const altered = { ...claims, email: "someone.else@students.sgs.test" };
    return `${header}.${b64(JSON.stringify(altered))}.${signature}`;
  }
  const parsedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as Claims;
  const rewritten = wrong.idTokenClaims ? wrong.idTokenClaims(claims) : claims;
  return signJwt(parsedHeader, rewritten, wrong.foreignKey ? foreign.key : signing.key);
}

/**
 * Follows the provider's redirects with a cookie jar, submitting its login form (or pressing its
 * abort link) on the interaction page, until a redirect leaves the provider.
 */
async function walk(
  issuer: string,
  start: string,
  action: { login?: string; abort?: boolean },
): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  let method: "GET" | "POST" = "GET";
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.origin !== new URL(issuer).origin) return url;
    const response = await fetch(url, {
      method,
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      ...(body ? { body } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || !url.pathname.startsWith("/interaction/")) {
      throw new Error(
        `The test provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`,
      );
    }
    const uid = url.pathname.split("/")[2]!;
    if (action.abort) {
      url = new URL(`/interaction/${uid}/abort`, issuer);
      method = "GET";
      body = undefined;
    } else {
      url = new URL(`/interaction/${uid}`, issuer);
      method = "POST";
      body = new URLSearchParams({ prompt: "login", login: action.login ?? "", password: "x" });
    }
  }
  throw new Error("The test provider kept redirecting");
}

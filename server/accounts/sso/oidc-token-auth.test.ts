import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { startOidcProvider, type TestOidcProvider } from "../../../testing/oidc-provider.js";
import { readOidcPrivateKey, tokenAuthMethodFor } from "./oidc.js";

/**
 * How we authenticate at the provider's token endpoint (issue 24): client_secret_basic, the
 * OpenID Connect default, unless the provider advertises otherwise or OIDC_TOKEN_AUTH_METHOD says;
 * client_secret_post; private_key_jwt with our key (OIDC_PRIVATE_KEY_FILE). Each against a real
 * provider (oidc-provider) whose client registration requires that one method and refuses others.
 */

const PUBLIC_URL = "http://localhost:3000";
const ADMIN_EMAIL = "registrar@staff.sgs.test";

let dir: string;
let keyFile: string;
let publicJwk: Record<string, unknown>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-oidc-key-"));
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  keyFile = path.join(dir, "oidc-key.pem");
  fs.writeFileSync(keyFile, privateKey.export({ format: "pem", type: "pkcs8" }));
  publicJwk = { ...publicKey.export({ format: "jwk" }), kid: "ets-test-key", alg: "ES256" };
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Setup {
  provider: TestOidcProvider;
  t: TestApp;
  close(): Promise<void>;
}

async function setUp(
  providerOptions: Partial<Parameters<typeof startOidcProvider>[0]>,
  env: Record<string, string> = {},
): Promise<Setup> {
  const provider = await startOidcProvider({
    publicUrl: PUBLIC_URL,
    users: [{ sub: "registrar", email: ADMIN_EMAIL, emailVerified: true, name: "Registrar" }],
    ...providerOptions,
  });
  const t = await createTestApp({
    ...provider.env(),
    SSO_ADMIN_EMAILS: ADMIN_EMAIL,
    RATE_LIMIT_SSO: "10000",
    ...env,
  });
  return {
    provider,
    t,
    close: async () => {
      await t.close();
      await provider.close();
    },
  };
}

/** A whole sign-in: our start, the provider's pages, our callback. */
async function signIn({ provider, t }: Setup) {
  const started = await t.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
  expect(started.statusCode).toBe(303);
  const state = started.cookies.find((c) => c.name === "ets_oidc_state")!;
  const back = await provider.signIn(started.headers.location as string, "registrar");
  return t.app.inject({
    method: "GET",
    url: `${back.pathname}${back.search}`,
    headers: { cookie: `ets_oidc_state=${state.value}` },
  });
}

async function lastRefusalReason(t: TestApp): Promise<string> {
  const row = await t.db
    .selectFrom("audit_log")
    .select("details")
    .where("event", "=", "sso.refused")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return (JSON.parse(row.details ?? "{}") as { reason: string }).reason;
}

describe("the token endpoint's authentication, against a provider that requires one method", () => {
  it.each([
    ["client_secret_basic, by default", { tokenEndpointAuthMethod: "client_secret_basic" }, {}],
    [
      "client_secret_post, the one method the provider advertises",
      {
        tokenEndpointAuthMethod: "client_secret_post",
        advertisedAuthMethods: ["client_secret_post"],
      },
      {},
    ],
    [
      "client_secret_post, named by OIDC_TOKEN_AUTH_METHOD",
      { tokenEndpointAuthMethod: "client_secret_post" },
      { OIDC_TOKEN_AUTH_METHOD: "client_secret_post" },
    ],
    [
      "private_key_jwt, with our key",
      { tokenEndpointAuthMethod: "private_key_jwt" },
      { OIDC_PRIVATE_KEY_FILE: "<key>", OIDC_PRIVATE_KEY_ID: "ets-test-key" },
    ],
  ] as const)("signs in with %s", async (_what, providerOptions, env) => {
    const setup = await setUp(
      {
        ...providerOptions,
        ...(providerOptions.tokenEndpointAuthMethod === "private_key_jwt"
          ? { clientJwks: { keys: [publicJwk] } }
          : {}),
      },
      Object.fromEntries(
        Object.entries(env).map(([name, value]) => [name, value === "<key>" ? keyFile : value]),
      ),
    );
    try {
      const res = await signIn(setup);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).not.toMatch(/sso_error/);
      expect(res.cookies.find((c) => c.name === "ets_session")).toBeDefined();
    } finally {
      await setup.close();
    }
  });

  it("is refused by a provider that requires another method, and says why in the audit log", async () => {
    const setup = await setUp(
      { tokenEndpointAuthMethod: "client_secret_basic" },
      { OIDC_TOKEN_AUTH_METHOD: "client_secret_post" },
    );
    try {
      const res = await signIn(setup);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe("/auth/login?sso_error=invalid_response");
      expect(await lastRefusalReason(setup.t)).toMatch(/invalid_client/);
    } finally {
      await setup.close();
    }
  });

  it("publishes the public half of our key for private_key_jwt, never the private one", async () => {
    const setup = await setUp(
      { tokenEndpointAuthMethod: "private_key_jwt", clientJwks: { keys: [publicJwk] } },
      { OIDC_PRIVATE_KEY_FILE: keyFile },
    );
    try {
      const res = await setup.t.app.inject({ method: "GET", url: "/api/auth/oidc/jwks" });
      expect(res.statusCode).toBe(200);
      const { keys } = res.json<{ keys: Record<string, unknown>[] }>();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({
        kty: "EC",
        crv: "P-256",
        x: publicJwk.x,
        y: publicJwk.y,
        alg: "ES256",
        use: "sig",
      });
      expect(keys[0]).not.toHaveProperty("d");
      // No OIDC_PRIVATE_KEY_ID: the key's RFC 7638 thumbprint names it.
      expect(keys[0]!.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await setup.close();
    }
  });
});

describe("tokenAuthMethodFor", () => {
  const withSecret = { tokenAuthMethod: null, clientSecret: "s", privateKeyFile: null };

  it("takes client_secret_basic when the provider advertises it or advertises nothing", () => {
    expect(tokenAuthMethodFor(withSecret, undefined)).toBe("client_secret_basic");
    expect(tokenAuthMethodFor(withSecret, ["client_secret_post", "client_secret_basic"])).toBe(
      "client_secret_basic",
    );
  });

  it("takes what the provider advertises and our credentials allow", () => {
    expect(tokenAuthMethodFor(withSecret, ["client_secret_post", "private_key_jwt"])).toBe(
      "client_secret_post",
    );
    expect(
      tokenAuthMethodFor({ tokenAuthMethod: null, clientSecret: null, privateKeyFile: "/k.pem" }, [
        "client_secret_basic",
        "private_key_jwt",
      ]),
    ).toBe("private_key_jwt");
    expect(
      tokenAuthMethodFor({ tokenAuthMethod: null, clientSecret: null, privateKeyFile: null }, [
        "client_secret_basic",
        "none",
      ]),
    ).toBe("none");
  });

  it("follows OIDC_TOKEN_AUTH_METHOD whatever is advertised", () => {
    expect(
      tokenAuthMethodFor({ ...withSecret, tokenAuthMethod: "client_secret_post" }, [
        "client_secret_basic",
      ]),
    ).toBe("client_secret_post");
  });

  it("says what to set when nothing matches", () => {
    expect(() => tokenAuthMethodFor(withSecret, ["private_key_jwt"])).toThrow(
      /accepts private_key_jwt.*OIDC_PRIVATE_KEY_FILE/,
    );
  });
});

describe("readOidcPrivateKey", () => {
  it("names OIDC_PRIVATE_KEY_FILE when the file is not a usable key", () => {
    const notAKey = path.join(dir, "not-a-key.pem");
    fs.writeFileSync(notAKey, "hello");
    const oidc = {
      issuer: "https://login.example",
      clientId: "ets",
      clientSecret: null,
      scopes: "openid",
      label: "x",
      emailClaim: "email",
      indexNumberClaim: null,
      groupsClaim: "groups",
      tokenAuthMethod: null,
      privateKeyId: null,
    };
    expect(() => readOidcPrivateKey({ ...oidc, privateKeyFile: notAKey })).toThrow(
      /^OIDC_PRIVATE_KEY_FILE cannot be read/,
    );
    expect(() =>
      readOidcPrivateKey({ ...oidc, privateKeyFile: path.join(dir, "missing.pem") }),
    ).toThrow(/^OIDC_PRIVATE_KEY_FILE cannot be read/);
    expect(readOidcPrivateKey({ ...oidc, privateKeyFile: null })).toBeNull();
  });
});

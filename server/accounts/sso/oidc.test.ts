import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ssoOptionsResponseSchema, type SsoFailure } from "../../../common/sso.js";
import type { LightMyRequestResponse } from "fastify";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import {
  ADMIN_PASSCODE,
  addSubmission,
  postJson,
  signInAs as signInWithPassword,
  signedInAdmin,
} from "../../../testing/accounts.js";
import { startOidcProvider, type TestOidcProvider } from "../../../testing/oidc-provider.js";

/**
 * OpenID Connect sign-in against a real provider (oidc-provider) on loopback: our side driven
 * through app.inject, the provider's pages over real HTTP.
 */

const PUBLIC_URL = "http://localhost:3000";
let provider: TestOidcProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startOidcProvider({ publicUrl: PUBLIC_URL });
  t = await createTestApp({
    ...provider.env(),
    SSO_ADMIN_GROUPS: "sgs-staff,SGS Registry",
    SSO_ADMIN_EMAILS: "dean@staff.sgs.test",
    ETS_STUDENT_EMAIL_DOMAINS: "students.sgs.test,staff.sgs.test",
    RATE_LIMIT_SSO: "10000",
  });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});
beforeEach(() => {
  provider.misbehave = {};
});

let counter = 0;
function fresh(tag: string): string {
  counter += 1;
  return `${tag}${counter}`;
}

interface Started {
  authorizationUrl: string;
  stateCookie: string;
}

async function start(query = ""): Promise<Started> {
  const res = await t.app.inject({ method: "GET", url: `/api/auth/oidc/start${query}` });
  expect(res.statusCode).toBe(303);
  const cookie = res.cookies.find((c) => c.name === "ets_oidc_state");
  expect(cookie).toBeDefined();
  return {
    authorizationUrl: res.headers.location as string,
    stateCookie: `ets_oidc_state=${cookie!.value}`,
  };
}

async function callback(url: URL, stateCookie: string): Promise<LightMyRequestResponse> {
  expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/api/auth/oidc/callback`);
  return t.app.inject({
    method: "GET",
    url: `${url.pathname}${url.search}`,
    headers: { cookie: stateCookie },
  });
}

async function signInAs(login: string, query = ""): Promise<LightMyRequestResponse> {
  const started = await start(query);
  return callback(await provider.signIn(started.authorizationUrl, login), started.stateCookie);
}

function sessionCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === "ets_session");
  if (!cookie)
    throw new Error(
      `No session cookie (status ${res.statusCode}, ${String(res.headers.location)})`,
    );
  return `ets_session=${cookie.value}`;
}

async function me(cookie: string) {
  const res = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  return {
    status: res.statusCode,
    user: res.json<{ user?: { email: string; role: string; indexNumber: string | null } }>().user,
  };
}

async function addStudentAccount(email: string, indexNumber: string, active = true): Promise<void> {
  await addSubmission(t.db, indexNumber, { studentEmail: email });
  const at = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({
      email,
      index_number: indexNumber,
      name: "Student",
      role: "student",
      password_hash: null,
      active: active ? 1 : 0,
      failed_sign_ins: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

function expectRefused(res: LightMyRequestResponse, failure: SsoFailure): void {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/auth/login?sso_error=${failure}`);
  expect(res.cookies.find((c) => c.name === "ets_session")).toBeUndefined();
}

async function lastRefusal(): Promise<{ failure: string; reason: string }> {
  const row = await t.db
    .selectFrom("audit_log")
    .select("details")
    .where("event", "=", "sso.refused")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return JSON.parse(row.details ?? "{}") as { failure: string; reason: string };
}

async function accountFor(email: string) {
  return t.db
    .selectFrom("users")
    .select(["id", "role", "index_number", "password_hash", "active"])
    .where("email", "=", email)
    .executeTakeFirst();
}

describe("GET /api/auth/sso", () => {
  it("lists the OpenID Connect button and the local sign-in switch", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/sso" });
    expect(res.statusCode).toBe(200);
    const body = ssoOptionsResponseSchema.parse(res.json());
    expect(body.data).toEqual({
      providers: [
        { provider: "oidc", label: "your university account", startHref: "/api/auth/oidc/start" },
      ],
      localSignIn: "on",
    });
  });
});

describe("starting a sign-in", () => {
  it("sends the person to the provider with PKCE S256, a random state and nonce, saved for the callback", async () => {
    const first = await start();
    const second = await start();
    const url = new URL(first.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    const params = url.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe(provider.clientId);
    expect(params.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/auth/oidc/callback`);
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")!.length).toBeGreaterThanOrEqual(22);
    expect(params.get("nonce")!.length).toBeGreaterThanOrEqual(22);
    const other = new URL(second.authorizationUrl).searchParams;
    expect(other.get("state")).not.toBe(params.get("state"));
    expect(other.get("nonce")).not.toBe(params.get("nonce"));

    const saved = await t.db
      .selectFrom("sso_requests")
      .selectAll()
      .where("key", "=", params.get("state")!)
      .executeTakeFirstOrThrow();
    expect(saved.provider).toBe("oidc");
    expect(saved.nonce).toBe(params.get("nonce"));
    // The verifier stays here; only its hash went to the provider.
    expect(saved.code_verifier).not.toBe(params.get("code_challenge"));
    expect(Date.parse(saved.expires_at) - Date.parse(saved.created_at)).toBe(10 * 60 * 1000);
  });
});

describe("who becomes what", () => {
  it("signs in an existing student matched by the verified email, and links the identity", async () => {
    const indexNumber = fresh("10");
    const email = `${fresh("ama")}@students.sgs.test`;
    await addStudentAccount(email, indexNumber);
    const sub = fresh("sub-ama-");
    provider.addUser({ sub, email, emailVerified: true, name: "Ama Mensah" });

    const res = await signInAs(sub);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/dashboard/status");
    const session = await me(sessionCookieOf(res));
    expect(session.status).toBe(200);
    expect(session.user).toMatchObject({ email, role: "student", indexNumber });

    const identity = await t.db
      .selectFrom("user_identities")
      .innerJoin("users", "users.id", "user_identities.user_id")
      .select(["users.email", "user_identities.provider"])
      .where("user_identities.subject", "=", sub)
      .executeTakeFirst();
    expect(identity).toEqual({ email, provider: "oidc" });
    const sessionRow = await t.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select("sessions.sign_in_method")
      .where("users.email", "=", email)
      .executeTakeFirstOrThrow();
    expect(sessionRow.sign_in_method).toBe("oidc");
  });

  it("finds a linked identity by its subject even after the provider's email changed", async () => {
    const email = `${fresh("kofi")}@students.sgs.test`;
    await addStudentAccount(email, fresh("11"));
    const sub = fresh("sub-kofi-");
    provider.addUser({ sub, email, emailVerified: true });
    expect((await signInAs(sub)).headers.location).toBe("/dashboard/status");

    provider.addUser({ sub, email: `${fresh("renamed")}@students.sgs.test`, emailVerified: false });
    const again = await signInAs(sub);
    expect(again.headers.location).toBe("/dashboard/status");
    expect((await me(sessionCookieOf(again))).user?.email).toBe(email);
  });

  it("creates a student account linked to the submission named by the index-number claim", async () => {
    const indexNumber = `PG/${fresh("20")}`;
    await addSubmission(t.db, indexNumber, { studentName: "Yaw Boateng", studentEmail: null });
    const email = `${fresh("yaw")}@students.sgs.test`;
    const sub = fresh("sub-yaw-");
    // The claim's letter case differs from the record's: the account takes the record's spelling.
    provider.addUser({ sub, email, emailVerified: true, indexNumber: indexNumber.toLowerCase() });

    const res = await signInAs(sub);
    expect(res.headers.location).toBe("/dashboard/status");
    expect((await me(sessionCookieOf(res))).user).toMatchObject({
      email,
      role: "student",
      indexNumber,
    });
    const account = await accountFor(email);
    expect(account).toMatchObject({
      role: "student",
      index_number: indexNumber,
      password_hash: null,
    });
    const created = await t.db
      .selectFrom("audit_log")
      .select(["details", "actor_user_id"])
      .where("event", "=", "sso.account_created")
      .where("subject", "=", email)
      .executeTakeFirstOrThrow();
    expect(created.actor_user_id).toBe(account!.id);
    expect(JSON.parse(created.details!)).toEqual({ provider: "oidc", role: "student" });
  });

  it("creates a student account from the student email on file when the provider sends no index number", async () => {
    const indexNumber = fresh("21");
    const email = `${fresh("esi")}@students.sgs.test`;
    await addSubmission(t.db, indexNumber, { studentEmail: email.toUpperCase() });
    const sub = fresh("sub-esi-");
    provider.addUser({ sub, email, emailVerified: true });

    const res = await signInAs(sub);
    expect(res.headers.location).toBe("/dashboard/status");
    expect((await accountFor(email))?.index_number).toBe(indexNumber);
  });

  it("refuses an index number with no submission (no_submission)", async () => {
    const sub = fresh("sub-nosub-");
    provider.addUser({
      sub,
      email: `${sub}@students.sgs.test`,
      emailVerified: true,
      indexNumber: "NOPE-1",
    });
    expectRefused(await signInAs(sub), "no_submission");
    expect(await accountFor(`${sub}@students.sgs.test`)).toBeUndefined();
  });

  it("refuses when the submission carries another student email (email_mismatch)", async () => {
    const indexNumber = fresh("22");
    await addSubmission(t.db, indexNumber, { studentEmail: "owner@students.sgs.test" });
    const sub = fresh("sub-mismatch-");
    provider.addUser({ sub, email: `${sub}@students.sgs.test`, emailVerified: true, indexNumber });
    expectRefused(await signInAs(sub), "email_mismatch");
  });

  it("refuses a second account for a submission that already has one (account_taken)", async () => {
    const indexNumber = fresh("23");
    await addStudentAccount(`${fresh("first")}@students.sgs.test`, indexNumber);
    // The submission's email on file is the first account's; clear it so only the rule of one
    // account per submission is left to refuse.
    await t.db
      .updateTable("submissions")
      .set({ student_email: null })
      .where("index_number", "=", indexNumber)
      .execute();
    const sub = fresh("sub-second-");
    provider.addUser({ sub, email: `${sub}@students.sgs.test`, emailVerified: true, indexNumber });
    expectRefused(await signInAs(sub), "account_taken");
  });

  it("refuses a new student outside the student email domains (not_allowed)", async () => {
    const indexNumber = fresh("24");
    await addSubmission(t.db, indexNumber, { studentEmail: null });
    const sub = fresh("sub-gmail-");
    provider.addUser({ sub, email: `${sub}@gmail.example`, emailVerified: true, indexNumber });
    expectRefused(await signInAs(sub), "not_allowed");
  });

  it("makes a member of an admin group an administrator, without a password", async () => {
    const email = `${fresh("registrar")}@staff.sgs.test`;
    const sub = fresh("sub-registrar-");
    // Group names are matched without regard to letter case.
    provider.addUser({ sub, email, emailVerified: true, groups: ["library", "SGS-STAFF"] });

    const res = await signInAs(sub);
    expect(res.headers.location).toBe("/admin");
    expect((await me(sessionCookieOf(res))).user).toMatchObject({ email, role: "admin" });
    expect(await accountFor(email)).toMatchObject({ role: "admin", password_hash: null });
    const adminOnly = await t.app.inject({
      method: "GET",
      url: "/api/admin/users",
      headers: { cookie: sessionCookieOf(res) },
    });
    expect(adminOnly.statusCode).toBe(200);
  });

  it("reads a groups claim sent as one comma-separated string", async () => {
    const email = `${fresh("officer")}@staff.sgs.test`;
    const sub = fresh("sub-officer-");
    provider.addUser({ sub, email, emailVerified: true, groups: "library, SGS Registry" });
    expect((await signInAs(sub)).headers.location).toBe("/admin");
  });

  it("makes an address on the admin allow-list an administrator", async () => {
    const sub = fresh("sub-dean-");
    provider.addUser({ sub, email: "Dean@Staff.SGS.test", emailVerified: true });
    const res = await signInAs(sub);
    expect(res.headers.location).toBe("/admin");
    expect((await me(sessionCookieOf(res))).user).toMatchObject({
      email: "dean@staff.sgs.test",
      role: "admin",
    });
  });

  it("refuses staff outside the admin groups and the allow-list (not_allowed)", async () => {
    const sub = fresh("sub-lecturer-");
    const email = `${sub}@staff.sgs.test`;
    provider.addUser({ sub, email, emailVerified: true, groups: ["lecturers"] });
    expectRefused(await signInAs(sub), "not_allowed");
    expect(await accountFor(email)).toBeUndefined();
    expect(await lastRefusal()).toMatchObject({ failure: "not_allowed" });
  });

  it("refuses an administrator who has left the admin groups: staff lose access the day they leave", async () => {
    const sub = fresh("sub-leaver-");
    const email = `${sub}@staff.sgs.test`;
    provider.addUser({ sub, email, emailVerified: true, groups: ["sgs-staff"] });
    expect((await signInAs(sub)).headers.location).toBe("/admin");

    provider.addUser({ sub, email, emailVerified: true, groups: [] });
    expectRefused(await signInAs(sub), "not_allowed");
    expect((await lastRefusal()).reason).toMatch(/no longer in the admin groups/);
  });

  it("refuses a password administrator signing in through a provider that does not list them", async () => {
    const email = `${fresh("breakglass")}@staff.sgs.test`;
    await signedInAdmin(t.app, email);
    const sub = fresh("sub-breakglass-");
    provider.addUser({ sub, email, emailVerified: true });
    expectRefused(await signInAs(sub), "not_allowed");
    // The break-glass password still works.
    await expect(signInWithPassword(t.app, email, ADMIN_PASSCODE)).resolves.toMatch(
      /^ets_session=/,
    );
  });

  it("refuses a deactivated account, found by email or by identity (deactivated)", async () => {
    const email = `${fresh("gone")}@students.sgs.test`;
    await addStudentAccount(email, fresh("25"));
    const sub = fresh("sub-gone-");
    provider.addUser({ sub, email, emailVerified: true });
    expect((await signInAs(sub)).headers.location).toBe("/dashboard/status");

    await t.db.updateTable("users").set({ active: 0 }).where("email", "=", email).execute();
    expectRefused(await signInAs(sub), "deactivated");
  });

  it("refuses an unverified email (email_not_verified)", async () => {
    const email = `${fresh("unverified")}@students.sgs.test`;
    await addStudentAccount(email, fresh("26"));
    const sub = fresh("sub-unverified-");
    provider.addUser({ sub, email, emailVerified: false });
    expectRefused(await signInAs(sub), "email_not_verified");
    // Nothing was linked to the account by the unverified address.
    const linked = await t.db
      .selectFrom("user_identities")
      .select("id")
      .where("subject", "=", sub)
      .executeTakeFirst();
    expect(linked).toBeUndefined();
  });

  it("refuses a person the provider gives no email for (no_email)", async () => {
    const sub = fresh("sub-noemail-");
    provider.addUser({ sub });
    expectRefused(await signInAs(sub), "no_email");
  });

  it("goes to the saved local return path, and ignores one that leaves the site", async () => {
    const email = `${fresh("return")}@students.sgs.test`;
    await addStudentAccount(email, fresh("27"));
    const sub = fresh("sub-return-");
    provider.addUser({ sub, email, emailVerified: true });
    expect((await signInAs(sub, "?returnTo=%2Fdashboard%2Fmessages")).headers.location).toBe(
      "/dashboard/messages",
    );
    expect((await signInAs(sub, "?returnTo=%2F%2Fevil.example%2Fx")).headers.location).toBe(
      "/dashboard/status",
    );
    expect((await signInAs(sub, "?returnTo=https%3A%2F%2Fevil.example")).headers.location).toBe(
      "/dashboard/status",
    );
  });

  it("gives one account to the same new person signing in twice at once", async () => {
    const indexNumber = fresh("28");
    await addSubmission(t.db, indexNumber, { studentEmail: null });
    const sub = fresh("sub-twice-");
    const email = `${sub}@students.sgs.test`;
    provider.addUser({ sub, email, emailVerified: true, indexNumber });
    const [a, b] = await Promise.all([start(), start()]);
    const [urlA, urlB] = await Promise.all([
      provider.signIn(a.authorizationUrl, sub),
      provider.signIn(b.authorizationUrl, sub),
    ]);
    const [resA, resB] = await Promise.all([
      callback(urlA, a.stateCookie),
      callback(urlB, b.stateCookie),
    ]);
    expect([resA.headers.location, resB.headers.location]).toEqual([
      "/dashboard/status",
      "/dashboard/status",
    ]);
    const accounts = await t.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(accounts).toHaveLength(1);
  });
});

describe("refusing a wrong or replayed answer", () => {
  async function signedUpStudent(): Promise<string> {
    const email = `${fresh("checked")}@students.sgs.test`;
    await addStudentAccount(email, fresh("30"));
    const sub = fresh("sub-checked-");
    provider.addUser({ sub, email, emailVerified: true });
    return sub;
  }

  it("refuses an ID token from another issuer", async () => {
    const sub = await signedUpStudent();
    provider.misbehave = { idTokenClaims: (c) => ({ ...c, iss: "https://impostor.example" }) };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/iss/);
  });

  it("refuses an ID token for another client (audience mismatch)", async () => {
    const sub = await signedUpStudent();
    provider.misbehave = { idTokenClaims: (c) => ({ ...c, aud: "another-client" }) };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/aud/);
  });

  it("refuses an expired ID token", async () => {
    const sub = await signedUpStudent();
    const now = Math.floor(Date.now() / 1000);
    provider.misbehave = { idTokenClaims: (c) => ({ ...c, iat: now - 1200, exp: now - 600 }) };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/exp|timestamp/);
  });

  it("refuses an ID token whose nonce is not the one this sign-in sent", async () => {
    const sub = await signedUpStudent();
    provider.misbehave = { idTokenClaims: (c) => ({ ...c, nonce: "someone-elses-nonce" }) };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/nonce/);
  });

  it("refuses an ID token signed by a key the provider does not publish", async () => {
    const sub = await signedUpStudent();
    provider.misbehave = { foreignKey: true };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/signature/i);
  });

  it("refuses an ID token altered after it was signed", async () => {
    const sub = await signedUpStudent();
    provider.misbehave = { tamper: true };
    expectRefused(await signInAs(sub), "invalid_response");
    expect((await lastRefusal()).reason).toMatch(/signature/i);
    expect(await accountFor("someone.else@students.sgs.test")).toBeUndefined();
  });

  it("refuses the same callback a second time (state replay)", async () => {
    const sub = await signedUpStudent();
    const started = await start();
    const url = await provider.signIn(started.authorizationUrl, sub);
    expect((await callback(url, started.stateCookie)).headers.location).toBe("/dashboard/status");
    expectRefused(await callback(url, started.stateCookie), "expired");
  });

  it("refuses an ID token whose nonce was already used in another sign-in (nonce replay)", async () => {
    const sub = await signedUpStudent();
    const first = await start();
    const usedNonce = new URL(first.authorizationUrl).searchParams.get("nonce")!;
    const firstUrl = await provider.signIn(first.authorizationUrl, sub);
    expect((await callback(firstUrl, first.stateCookie)).headers.location).toBe(
      "/dashboard/status",
    );

    // A second sign-in that ends up with the first one's nonce in its ID token.
    const second = await start();
    const authorization = new URL(second.authorizationUrl);
    const state = authorization.searchParams.get("state")!;
    authorization.searchParams.set("nonce", usedNonce);
    await t.db
      .updateTable("sso_requests")
      .set({ nonce: usedNonce })
      .where("key", "=", state)
      .execute();
    const secondUrl = await provider.signIn(authorization.href, sub);
    expectRefused(await callback(secondUrl, second.stateCookie), "expired");
    expect((await lastRefusal()).reason).toBe("nonce replayed");
  });

  it("refuses a callback in a browser that did not start the sign-in (login CSRF)", async () => {
    const sub = await signedUpStudent();
    const attacker = await start();
    const url = await provider.signIn(attacker.authorizationUrl, sub);
    const victim = await start();
    expectRefused(await callback(url, victim.stateCookie), "expired");
    expectRefused(
      await t.app.inject({ method: "GET", url: `${url.pathname}${url.search}` }),
      "expired",
    );
  });

  it("refuses a callback whose state is unknown or expired", async () => {
    expectRefused(
      await t.app.inject({
        method: "GET",
        url: "/api/auth/oidc/callback?code=abc&state=made-up",
        headers: { cookie: "ets_oidc_state=made-up" },
      }),
      "expired",
    );
    const started = await start();
    const state = new URL(started.authorizationUrl).searchParams.get("state")!;
    await t.db
      .updateTable("sso_requests")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("key", "=", state)
      .execute();
    const sub = await signedUpStudent();
    expectRefused(
      await callback(await provider.signIn(started.authorizationUrl, sub), started.stateCookie),
      "expired",
    );
  });

  it("tells a person who cancelled at the provider that they cancelled", async () => {
    const started = await start();
    const url = await provider.cancel(started.authorizationUrl);
    expect(url.searchParams.get("error")).toBe("access_denied");
    expectRefused(await callback(url, started.stateCookie), "cancelled");
  });
});

describe("an unreachable provider", () => {
  it("sends the person back with unreachable, and tries discovery again on the next attempt", async () => {
    const own = await startOidcProvider({ publicUrl: PUBLIC_URL, clientId: "down-client" });
    const app = await createTestApp({ ...own.env(), RATE_LIMIT_SSO: "10000" });
    try {
      own.misbehave = { discoveryDown: true };
      expectRefused(
        await app.app.inject({ method: "GET", url: "/api/auth/oidc/start" }),
        "unreachable",
      );
      own.misbehave = {};
      const res = await app.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${own.issuer}/auth\\?`));
    } finally {
      await app.close();
      await own.close();
    }
  });

  it("sends the person back with unreachable when nothing listens at the issuer", async () => {
    const gone = await startOidcProvider({ publicUrl: PUBLIC_URL });
    const env = gone.env();
    await gone.close();
    const app = await createTestApp({ ...env, RATE_LIMIT_SSO: "10000" });
    try {
      expectRefused(
        await app.app.inject({ method: "GET", url: "/api/auth/oidc/start" }),
        "unreachable",
      );
    } finally {
      await app.close();
    }
  });

  it("refuses a provider whose discovery document names another issuer", async () => {
    const app = await createTestApp({
      ...provider.env(),
      OIDC_ISSUER: provider.issuer.replace("127.0.0.1", "localhost"),
      RATE_LIMIT_SSO: "10000",
    });
    try {
      expectRefused(
        await app.app.inject({ method: "GET", url: "/api/auth/oidc/start" }),
        "unreachable",
      );
    } finally {
      await app.close();
    }
  });
});

describe("signing out", () => {
  it("ends our session and points to the provider's sign-out for a session begun there", async () => {
    const email = `${fresh("leaving")}@students.sgs.test`;
    await addStudentAccount(email, fresh("40"));
    const sub = fresh("sub-leaving-");
    provider.addUser({ sub, email, emailVerified: true });
    const cookie = sessionCookieOf(await signInAs(sub));

    const res = await postJson(t.app, "/api/logout", {}, { cookie });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ success: boolean; redirectTo?: string }>();
    expect(body.success).toBe(true);
    const redirect = new URL(body.redirectTo!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(redirect.searchParams.get("client_id")).toBe(provider.clientId);
    expect(redirect.searchParams.get("post_logout_redirect_uri")).toBe(`${PUBLIC_URL}/auth/login`);
    expect((await me(cookie)).status).toBe(401);
    // The provider accepts the request: it shows its sign-out confirmation page.
    const page = await fetch(redirect, { redirect: "manual" });
    expect(page.status).toBe(200);
  });

  it("answers a password session's sign-out as before, without a redirect", async () => {
    const cookie = await signedInAdmin(t.app, `${fresh("local")}@staff.sgs.test`);
    const res = await postJson(t.app, "/api/logout", {}, { cookie });
    expect(res.json()).toEqual({ success: true });
  });
});

describe("request limits", () => {
  it("limits sign-in starts and callbacks per address (RATE_LIMIT_SSO), back on the login page with a plain message", async () => {
    const app = await createTestApp({ ...provider.env(), RATE_LIMIT_SSO: "2" });
    try {
      const hit = (url: string, ip = "203.0.113.9") =>
        app.app.inject({ method: "GET", url, remoteAddress: ip });
      const limited = "/auth/login?sso_error=rate_limited";
      const location = async (url: string, ip?: string) => {
        const res = await hit(url, ip);
        expect(res.statusCode).toBe(303);
        return res.headers.location;
      };
      expect(await location("/api/auth/oidc/start")).not.toBe(limited);
      expect(await location("/api/auth/oidc/start")).not.toBe(limited);
      expect(await location("/api/auth/oidc/start")).toBe(limited);
      expect(await location("/api/auth/oidc/callback?state=x")).toBe(
        "/auth/login?sso_error=expired",
      );
      expect(await location("/api/auth/oidc/callback?state=x")).toBe(
        "/auth/login?sso_error=expired",
      );
      expect(await location("/api/auth/oidc/callback?state=x")).toBe(limited);
      expect(await location("/api/auth/oidc/start", "203.0.113.10")).not.toBe(limited);
      // The options the login page reads stay an API answer.
      expect((await hit("/api/auth/sso")).headers["content-type"]).toMatch(/application\/json/);
    } finally {
      await app.close();
    }
  });
});

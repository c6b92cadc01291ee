import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addSubmission, SITE } from "../../../testing/accounts.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import {
  NAME_ID_TRANSIENT,
  SHIBBOLETH_ATTRIBUTES,
  startSamlIdp,
  type PostedResponse,
  type SamlTestUser,
  type TestSamlIdp,
} from "../../../testing/saml-idp.js";
import { parseIdpMetadata } from "./saml.js";

/**
 * SAML 2.0 sign-in (issue 10) against a real identity provider (samlify, on loopback): the full
 * redirect to the IdP, its sign-in form, and its signed answer posted to our ACS URL, then every
 * answer we must refuse.
 */

const SAML_ENV = {
  SAML_EMAIL_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.email,
  SAML_GROUPS_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.groups,
  SAML_INDEX_NUMBER_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.indexNumber,
  SSO_ADMIN_GROUPS: "sgs-staff",
  ETS_STUDENT_EMAIL_DOMAINS: "st.school.test",
  RATE_LIMIT_SSO: "10000",
};

let idp: TestSamlIdp;
let t: TestApp;
let acs: string;
let counter = 0;

beforeAll(async () => {
  idp = await startSamlIdp();
  t = await createTestApp({ SAML_IDP_METADATA: idp.metadataUrl, ...SAML_ENV });
  acs = `${t.config.publicUrl}/api/auth/saml/acs`;
  const metadata = await t.app.inject({ method: "GET", url: "/api/auth/saml/metadata" });
  idp.trustServiceProvider(metadata.body);
});

afterAll(async () => {
  await t?.close();
  await idp?.stop();
});

afterEach(() => idp.reset());

async function start(app = t.app, returnTo?: string): Promise<string> {
  const res = await app.inject({
    method: "GET",
    url: "/api/auth/saml/start",
    query: returnTo ? { returnTo } : {},
  });
  expect(res.statusCode).toBe(303);
  return String(res.headers.location);
}

function postToAcs(posted: PostedResponse, app = t.app): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ SAMLResponse: posted.SAMLResponse });
  if (posted.RelayState !== null) form.set("RelayState", posted.RelayState);
  // The browser posts from the IdP's page: a cross-site request, as in production.
  return app.inject({
    method: "POST",
    url: "/api/auth/saml/acs",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.url },
    payload: form.toString(),
  });
}

async function signInThroughIdp(user: SamlTestUser | "cancel"): Promise<LightMyRequestResponse> {
  const posted = await idp.signIn(await start(), user);
  expect(posted.action).toBe(acs);
  return postToAcs(posted);
}

function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const cookie = res.cookies.find((c) => c.name === "ets_session");
  return cookie ? `ets_session=${cookie.value}` : null;
}

async function me(cookie: string) {
  const res = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().user as { email: string; role: string; indexNumber: string | null };
}

function expectRefused(res: LightMyRequestResponse, failure: string): void {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/auth/login?sso_error=${failure}`);
  expect(sessionCookieOf(res)).toBeNull();
}

/** A student with a submission on record, and the IdP's view of them. */
async function student(): Promise<SamlTestUser> {
  counter += 1;
  const indexNumber = `1077${String(counter).padStart(4, "0")}`;
  const email = `student${counter}@st.school.test`;
  await addSubmission(t.db, indexNumber, { studentEmail: email });
  return { nameId: `persistent-student-${counter}`, email, indexNumber, displayName: "Ama Mensah" };
}

/** The refusal is audited with why: proves each test was refused for the reason it is about. */
async function expectAuditedReason(pattern: RegExp): Promise<void> {
  const reasons = await refusalReasons();
  expect(reasons.at(-1)).toMatch(pattern);
}

async function refusalReasons(): Promise<string[]> {
  const rows = await t.db
    .selectFrom("audit_log")
    .select("details")
    .where("event", "=", "sso.refused")
    .execute();
  return rows.map((r) => String(JSON.parse(r.details ?? "{}").reason));
}

describe("service provider metadata", () => {
  it("publishes our entity id, the ACS URL with the POST binding and WantAssertionsSigned", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/saml/metadata" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/samlmetadata+xml");
    expect(res.body).toContain(`entityID="${t.config.publicUrl}/api/auth/saml/metadata"`);
    expect(res.body).toContain('WantAssertionsSigned="true"');
    expect(res.body).toMatch(
      new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"\\s+Location="${acs}"`),
    );
    // No key configured: nothing to publish, and requests go unsigned.
    expect(res.body).not.toContain("KeyDescriptor");
  });

  it("publishes our signing and encryption certificate when a key pair is configured", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sp-keys-"));
    const { generateTestKeyPair } = await import("../../../testing/saml-idp.js");
    const keys = generateTestKeyPair("ETS test service provider");
    fs.writeFileSync(path.join(dir, "sp.key"), keys.privateKey);
    fs.writeFileSync(path.join(dir, "sp.crt"), keys.certificate);
    const signed = await createTestApp({
      SAML_IDP_METADATA: idp.metadataUrl,
      SAML_SP_ENTITY_ID: "https://ets.school.test/saml",
      SAML_SP_PRIVATE_KEY_FILE: path.join(dir, "sp.key"),
      SAML_SP_CERTIFICATE_FILE: path.join(dir, "sp.crt"),
      ...SAML_ENV,
    });
    try {
      const res = await signed.app.inject({ method: "GET", url: "/api/auth/saml/metadata" });
      expect(res.body).toContain('entityID="https://ets.school.test/saml"');
      expect(res.body).toContain('AuthnRequestsSigned="true"');
      expect(res.body).toContain('use="signing"');
      expect(res.body).toContain('use="encryption"');
      const body = keys.certificate.replace(/-----[A-Z ]+-----|\s/g, "");
      expect(res.body.replace(/\s/g, "")).toContain(body);

      // The AuthnRequest is signed (HTTP-Redirect binding: SigAlg and Signature in the query).
      const location = new URL(await start(signed.app));
      expect(location.searchParams.get("SigAlg")).toBe(
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      );
      expect(location.searchParams.get("Signature")).toBeTruthy();
    } finally {
      await signed.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("signing in through the identity provider", () => {
  it("redirects to the IdP's SSO URL with an AuthnRequest whose ID is saved for the answer", async () => {
    const location = new URL(await start());
    expect(`${location.origin}${location.pathname}`).toBe(idp.ssoUrl);
    expect(location.searchParams.get("SAMLRequest")).toBeTruthy();
    const saved = await t.db
      .selectFrom("sso_requests")
      .select(["key", "provider"])
      .where("provider", "=", "saml")
      .execute();
    expect(saved.length).toBeGreaterThan(0);
  });

  it("signs a student in, creating the account linked to the submission by the index number", async () => {
    const user = await student();
    const res = await signInThroughIdp(user);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/dashboard/status");
    const cookie = sessionCookieOf(res);
    expect(cookie).not.toBeNull();
    expect(await me(cookie!)).toMatchObject({
      email: user.email,
      role: "student",
      indexNumber: user.indexNumber,
    });
    const identity = await t.db
      .selectFrom("user_identities")
      .select(["provider", "subject"])
      .where("subject", "=", user.nameId)
      .executeTakeFirst();
    expect(identity).toEqual({ provider: "saml", subject: user.nameId });
  });

  it("signs the same student in again to the same account", async () => {
    const user = await student();
    const first = await me(sessionCookieOf(await signInThroughIdp(user))!);
    const second = await me(sessionCookieOf(await signInThroughIdp(user))!);
    expect(second).toEqual(first);
  });

  it("signs a member of an administrators' group in as an administrator", async () => {
    const res = await signInThroughIdp({
      nameId: "persistent-registrar",
      email: "Registrar@School.test",
      groups: ["all-staff", "sgs-staff"],
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/admin");
    expect(await me(sessionCookieOf(res)!)).toMatchObject({
      email: "registrar@school.test",
      role: "admin",
    });
  });

  it("lands on the page asked for when the sign-in started", async () => {
    const user = await student();
    const posted = await idp.signIn(await start(t.app, "/dashboard/documents"), user);
    const res = await postToAcs(posted);
    expect(res.headers.location).toBe("/dashboard/documents");
    expect(sessionCookieOf(res)).not.toBeNull();
  });

  it("accepts a signed response around a signed assertion", async () => {
    idp.behaviour.signing = "both";
    const res = await signInThroughIdp(await student());
    expect(res.headers.location).toBe("/dashboard/status");
    expect(sessionCookieOf(res)).not.toBeNull();
  });

  it("names a person sent with a transient NameID by their email, so they keep one identity", async () => {
    const user = await student();
    const once = await signInThroughIdp({
      ...user,
      nameId: "_t1",
      nameIdFormat: NAME_ID_TRANSIENT,
    });
    const twice = await signInThroughIdp({
      ...user,
      nameId: "_t2",
      nameIdFormat: NAME_ID_TRANSIENT,
    });
    expect(await me(sessionCookieOf(twice)!)).toEqual(await me(sessionCookieOf(once)!));
    const identities = await t.db
      .selectFrom("user_identities")
      .select("subject")
      .where("subject", "like", `email:${user.email}`)
      .execute();
    expect(identities).toEqual([{ subject: `email:${user.email}` }]);
  });
});

describe("refusing answers", () => {
  it("refuses an assertion that is not signed, even inside a signed response", async () => {
    idp.behaviour.signing = "response";
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/Invalid signature/);
  });

  it("refuses a response signed nowhere", async () => {
    idp.behaviour.signing = "none";
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/Invalid signature/);
  });

  it("refuses an assertion signed by a key the IdP's metadata does not publish", async () => {
    idp.behaviour.signWithOtherKey = true;
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/Invalid signature/);
  });

  it("refuses an expired assertion (the IdP's clock beyond the accepted skew)", async () => {
    // NotOnOrAfter is five minutes after the IdP's now: ten minutes behind is five past expiry.
    idp.behaviour.clockShiftMs = -10 * 60 * 1000;
    expectRefused(await signInThroughIdp(await student()), "expired");
    await expectAuditedReason(/assertion expired/);
  });

  it("accepts an IdP clock off by less than the accepted skew", async () => {
    // NotBefore is the IdP's now: 30 s ahead is within SAML_CLOCK_SKEW_SECONDS (60).
    idp.behaviour.clockShiftMs = 30 * 1000;
    const res = await signInThroughIdp(await student());
    expect(sessionCookieOf(res)).not.toBeNull();
  });

  it("refuses an assertion that is not valid yet (the IdP's clock ahead beyond the skew)", async () => {
    idp.behaviour.clockShiftMs = 3 * 60 * 1000;
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/not yet valid/);
  });

  it("refuses the same assertion posted twice", async () => {
    const posted = await idp.signIn(await start(), await student());
    const first = await postToAcs(posted);
    expect(sessionCookieOf(first)).not.toBeNull();
    expectRefused(await postToAcs(posted), "expired");
    await expectAuditedReason(/assertion replayed/);
  });

  it("refuses an assertion for another audience", async () => {
    idp.behaviour.audience = "https://another-service.school.test/saml";
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/audience mismatch/);
  });

  it("refuses an assertion whose recipient is another ACS URL", async () => {
    idp.behaviour.recipient = "https://another-service.school.test/saml/acs";
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/Recipient/);
  });

  it("refuses a response whose destination is another ACS URL", async () => {
    idp.behaviour.destination = "https://another-service.school.test/saml/acs";
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/wrong Destination/);
  });

  it("refuses a signed response without a Destination", async () => {
    idp.behaviour.signing = "both";
    idp.behaviour.omitDestination = true;
    expectRefused(await signInThroughIdp(await student()), "invalid_response");
    await expectAuditedReason(/signed Response without Destination/);
  });

  it("accepts a response without a Destination when only its assertion is signed", async () => {
    idp.behaviour.signing = "assertion";
    idp.behaviour.omitDestination = true;
    const res = await signInThroughIdp(await student());
    expect(res.statusCode).toBe(303);
    expect(sessionCookieOf(res)).not.toBeNull();
  });

  it("refuses an answer to a request we never made (unknown InResponseTo)", async () => {
    idp.behaviour.inResponseTo = "_0123456789abcdef0123456789abcdef01234567";
    expectRefused(await signInThroughIdp(await student()), "expired");
    await expectAuditedReason(/InResponseTo unknown, used or expired/);
  });

  it("refuses a member of staff outside the administrators' groups", async () => {
    const res = await signInThroughIdp({
      nameId: "persistent-librarian",
      email: "librarian@school.test",
      groups: ["all-staff", "library"],
    });
    expectRefused(res, "not_allowed");
    const account = await t.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "librarian@school.test")
      .executeTakeFirst();
    expect(account).toBeUndefined();
  });

  it("tells the login page the person cancelled at the IdP", async () => {
    expectRefused(await signInThroughIdp("cancel"), "cancelled");
    await expectAuditedReason(/Responder error/);
  });

  it("sends a post without SAMLResponse back to the login page", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/saml/acs",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.url },
      payload: "RelayState=x",
    });
    expectRefused(res, "invalid_response");
  });

  it("refuses a body larger than a SAML answer can be, before parsing it", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/saml/acs",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.url },
      payload: `SAMLResponse=${"A".repeat(300 * 1024)}`,
    });
    expect(res.statusCode).toBe(413);
  });

  it("sends a garbled SAMLResponse back to the login page", async () => {
    const res = await postToAcs({ action: acs, SAMLResponse: "bm90IHhtbA==", RelayState: null });
    expectRefused(res, "invalid_response");
  });
});

describe("the cross-site check", () => {
  it("lets the IdP's cross-site post reach the ACS URL and nothing else", async () => {
    const user = await student();
    const cookie = sessionCookieOf(await signInThroughIdp(user))!;
    const elsewhere = await t.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { cookie, origin: idp.url },
    });
    expect(elsewhere.statusCode).toBe(403);
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/user_sign_in",
      headers: { origin: idp.url },
      payload: { email: user.email, password: "whatever-it-is" },
    });
    expect(signIn.statusCode).toBe(403);
    // Still signed in: the refused logout did nothing.
    expect((await me(cookie)).email).toBe(user.email);
    const sameSite = await t.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { cookie, ...SITE },
    });
    expect(sameSite.statusCode).toBe(200);
  });
});

describe("identity provider metadata", () => {
  it("sends the person back to the login page when the IdP's metadata cannot be fetched", async () => {
    const closedPort = await freePort();
    const offline = await createTestApp({
      SAML_IDP_METADATA: `http://127.0.0.1:${closedPort}/metadata`,
      ...SAML_ENV,
    });
    try {
      expectRefused(
        await offline.app.inject({ method: "GET", url: "/api/auth/saml/start" }),
        "unreachable",
      );
      expectRefused(
        await postToAcs(
          { action: acs, SAMLResponse: "bm90IHhtbA==", RelayState: null },
          offline.app,
        ),
        "unreachable",
      );
    } finally {
      await offline.close();
    }
  });

  it("reads a metadata file, and posts the AuthnRequest to an IdP that offers only HTTP-POST", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-idp-metadata-"));
    const file = path.join(dir, "idp.xml");
    fs.writeFileSync(
      file,
      idp.metadataXml.replace(
        /urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect/g,
        "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
      ),
    );
    const fromFile = await createTestApp({ SAML_IDP_METADATA: file, ...SAML_ENV });
    try {
      const res = await fromFile.app.inject({ method: "GET", url: "/api/auth/saml/start" });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain(`action="${idp.ssoUrl}"`);
      expect(res.body).toContain('name="SAMLRequest"');
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain(`form-action ${idp.url}`);
      expect(csp).toMatch(/script-src 'nonce-[^']+'/);
      // The POST binding carries the request base64-encoded, not deflated: it reads as XML.
      const samlRequest = /name="SAMLRequest" value="([^"]+)"/.exec(res.body)![1]!;
      expect(Buffer.from(samlRequest, "base64").toString("utf8")).toContain("AuthnRequest");
    } finally {
      await fromFile.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the entity id, SSO URL, certificate and logout URL from the IdP's metadata", async () => {
    const withSlo = await startSamlIdp({ singleLogout: true });
    try {
      const parsed = parseIdpMetadata(withSlo.metadataXml);
      expect(parsed).toMatchObject({
        entityId: withSlo.entityId,
        ssoUrl: withSlo.ssoUrl,
        ssoBinding: "redirect",
        sloUrl: `${withSlo.url}/slo`,
      });
      const published = withSlo.certificate.replace(/-----[A-Z ]+-----|\s/g, "");
      expect(parsed.signingCertificates.map((c) => c.replace(/-----[A-Z ]+-----|\s/g, ""))).toEqual(
        [published],
      );
    } finally {
      await withSlo.stop();
    }
  });

  it("names what is wrong with metadata it cannot use", () => {
    expect(() => parseIdpMetadata("<not xml")).toThrow(
      /not well-formed|no SAML 2.0 identity provider/,
    );
    expect(() =>
      parseIdpMetadata(
        idp.metadataXml.replace(/<[^>]*KeyDescriptor[\s\S]*<\/[^>]*KeyDescriptor>/, ""),
      ),
    ).toThrow(/no signing certificate/);
    const twice = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${idp.metadataXml.replace(/<\?xml[^>]*\?>/, "")}${idp.metadataXml.replace(/<\?xml[^>]*\?>/, "")}</EntitiesDescriptor>`;
    expect(() => parseIdpMetadata(twice)).toThrow(/several identity providers/);
  });
});

describe("binding the answer to the browser that started it (PUBLIC_URL https)", () => {
  let secureIdp: TestSamlIdp;
  let secure: TestApp;

  beforeAll(async () => {
    secureIdp = await startSamlIdp();
    secure = await createTestApp({
      SAML_IDP_METADATA: secureIdp.metadataUrl,
      ...SAML_ENV,
      PUBLIC_URL: "https://ets.school.test",
    });
    const metadata = await secure.app.inject({ method: "GET", url: "/api/auth/saml/metadata" });
    secureIdp.trustServiceProvider(metadata.body);
  });
  afterAll(async () => {
    await secure?.close();
    await secureIdp?.stop();
  });

  /** A sign-in started in one browser: the IdP's URL and the cookie that browser now holds. */
  async function startIn(): Promise<{ idpUrl: string; cookie: string }> {
    const res = await secure.app.inject({ method: "GET", url: "/api/auth/saml/start" });
    expect(res.statusCode).toBe(303);
    const set = String(res.headers["set-cookie"]);
    expect(set).toMatch(/^ets_saml_request=_[0-9a-f]{40};/);
    expect(set).toMatch(/; HttpOnly/i);
    expect(set).toMatch(/; Secure/i);
    expect(set).toMatch(/; SameSite=None/i);
    expect(set).toMatch(/; Path=\/api\/auth\/saml/);
    const cookie = res.cookies.find((c) => c.name === "ets_saml_request")!;
    return { idpUrl: String(res.headers.location), cookie: `ets_saml_request=${cookie.value}` };
  }

  function postFrom(posted: PostedResponse, cookie: string | null) {
    return secure.app.inject({
      method: "POST",
      url: "/api/auth/saml/acs",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: secureIdp.url,
        ...(cookie ? { cookie } : {}),
      },
      payload: new URLSearchParams({ SAMLResponse: posted.SAMLResponse }).toString(),
    });
  }

  async function lastReason(): Promise<string> {
    const row = await secure.db
      .selectFrom("audit_log")
      .select("details")
      .where("event", "=", "sso.refused")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return String(JSON.parse(row.details ?? "{}").reason);
  }

  async function someone(): Promise<SamlTestUser> {
    counter += 1;
    const indexNumber = `1088${String(counter).padStart(4, "0")}`;
    const email = `student${counter}@st.school.test`;
    await addSubmission(secure.db, indexNumber, { studentEmail: email });
    return { nameId: `persistent-secure-${counter}`, email, indexNumber };
  }

  it("signs in the browser that started the sign-in, and clears its cookie", async () => {
    const started = await startIn();
    const posted = await secureIdp.signIn(started.idpUrl, await someone());
    const res = await postFrom(posted, started.cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/dashboard/status");
    expect(sessionCookieOf(res)).not.toBeNull();
    expect(res.cookies.find((c) => c.name === "ets_saml_request")?.value).toBe("");
  });

  it("refuses an answer posted from a browser that did not start it (login forgery)", async () => {
    // The attacker signs in at the IdP as themselves and has the victim's browser post the answer.
    const attacker = await startIn();
    const posted = await secureIdp.signIn(attacker.idpUrl, await someone());
    const res = await postFrom(posted, null);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/auth/login?sso_error=expired");
    expect(sessionCookieOf(res)).toBeNull();
    expect(await lastReason()).toBe("sign-in not started in this browser");
  });

  it("refuses an answer to another sign-in than the one this browser started", async () => {
    const victim = await startIn();
    const attacker = await startIn();
    const posted = await secureIdp.signIn(attacker.idpUrl, await someone());
    const res = await postFrom(posted, victim.cookie);
    expect(res.headers.location).toBe("/auth/login?sso_error=expired");
    expect(sessionCookieOf(res)).toBeNull();
    expect(await lastReason()).toBe("sign-in not started in this browser");
  });

  it("sets no cookie over plain http, where a SameSite=None cookie cannot be kept", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/saml/start" });
    expect(res.statusCode).toBe(303);
    expect(res.cookies.find((c) => c.name === "ets_saml_request")).toBeUndefined();
  });
});

describe("request limits", () => {
  it("limits sign-in starts and answers per client address (RATE_LIMIT_SSO), back on the login page with a plain message", async () => {
    const limited = await createTestApp({
      SAML_IDP_METADATA: idp.metadataUrl,
      ...SAML_ENV,
      RATE_LIMIT_SSO: "2",
    });
    try {
      await start(limited.app);
      await start(limited.app);
      const third = await limited.app.inject({ method: "GET", url: "/api/auth/saml/start" });
      expect(third.statusCode).toBe(303);
      expect(third.headers.location).toBe("/auth/login?sso_error=rate_limited");
      const acsPost = () =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/saml/acs",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.url },
          payload: "SAMLResponse=",
        });
      expect((await acsPost()).headers.location).toBe("/auth/login?sso_error=invalid_response");
      expect((await acsPost()).headers.location).toBe("/auth/login?sso_error=invalid_response");
      expect((await acsPost()).headers.location).toBe("/auth/login?sso_error=rate_limited");
    } finally {
      await limited.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

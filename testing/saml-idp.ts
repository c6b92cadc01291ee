import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as samlify from "samlify";

/**
 * A real SAML 2.0 identity provider for tests (issue 10), built with samlify, on loopback. It
 * publishes its metadata, takes our AuthnRequest over the HTTP-Redirect binding, shows a sign-in
 * page where the person under test is typed in (a browser fills it in Playwright; API tests post
 * the same form), and answers with a signed Response over the HTTP-POST binding: a page whose
 * form the browser submits to our ACS URL.
 *
 * The key and self-signed certificate it signs with are made at start by the `openssl` binary
 * (node:crypto makes keys but no X.509 certificate, and neither node-forge nor selfsigned is
 * installed), so no key is ever committed. A second key pair, never published, plays an attacker.
 *
 * `behaviour` turns the IdP into the misbehaving or hostile peers the refusal tests need: an
 * unsigned assertion, a signature by another key, a clock far off, another audience, recipient
 * or InResponseTo.
 */

// samlify checks every message against the SAML schemas through a validator the caller chooses;
// it refuses to parse without one. The product does not use samlify (node-saml verifies what we
// receive), and this IdP only parses AuthnRequests made by our own SP in tests, so a permissive
// validator is enough here: schema validation of our outgoing requests is not what these tests
// prove, and the validators samlify offers need a native or Java add-on not installed here.
samlify.setSchemaValidator({ validate: async () => "skipped: test identity provider" });

const SAML_PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const SAML_ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
export const NAME_ID_PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
export const NAME_ID_TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

/** The attribute names a Shibboleth IdP releases (eduPerson and inetOrgPerson OIDs). */
export const SHIBBOLETH_ATTRIBUTES = {
  email: "urn:oid:0.9.2342.19200300.100.1.3",
  /** isMemberOf: the groups the person belongs to, one value each. */
  groups: "urn:oid:1.3.6.1.4.1.5923.1.5.1.1",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  /** A school's own attribute for the student's index number. */
  indexNumber: "urn:oid:1.3.6.1.4.1.99999.1.1",
} as const;

/** The person the IdP signs in: typed into its sign-in page. */
export interface SamlTestUser {
  /** The NameID; a persistent id by default. */
  nameId: string;
  nameIdFormat?: string;
  email?: string | null;
  indexNumber?: string | null;
  groups?: string[];
  displayName?: string | null;
}

export interface SamlIdpBehaviour {
  /** What is signed: the assertion (the usual), the response only, both, or nothing at all. */
  signing: "assertion" | "response" | "both" | "none";
  /** Sign with a key whose certificate the metadata does not publish (a forger). */
  signWithOtherKey: boolean;
  /** Added to the IdP's clock for every timestamp it writes. */
  clockShiftMs: number;
  /** Overrides of what a correct IdP writes, for the refusal tests. */
  audience?: string;
  recipient?: string;
  destination?: string;
  /** Leaves the Destination attribute off the Response (it is optional when nothing signs it). */
  omitDestination?: boolean;
  inResponseTo?: string;
}

const CORRECT: SamlIdpBehaviour = {
  signing: "assertion",
  signWithOtherKey: false,
  clockShiftMs: 0,
};

export interface PostedResponse {
  /** Where the browser would post it: the ACS URL from our SP metadata. */
  action: string;
  SAMLResponse: string;
  RelayState: string | null;
}

export interface TestSamlIdp {
  /** http://127.0.0.1:<port> */
  url: string;
  entityId: string;
  metadataUrl: string;
  ssoUrl: string;
  metadataXml: string;
  /** The published signing certificate (PEM). */
  certificate: string;
  behaviour: SamlIdpBehaviour;
  /** Back to a correct IdP. */
  reset(): void;
  /** Our SP's metadata, from GET /api/auth/saml/metadata: the IdP trusts only this SP. */
  trustServiceProvider(metadataXml: string): void;
  /**
   * What the person's browser does at the IdP: opens the AuthnRequest URL (the sign-in page),
   * submits the sign-in form for `user` (or presses Cancel), and reads the auto-posting form the
   * IdP answers with.
   */
  signIn(authnRequestUrl: string, user: SamlTestUser | "cancel"): Promise<PostedResponse>;
  stop(): Promise<void>;
}

export interface SamlIdpOptions {
  port?: number;
  /** Where to read our SP's metadata on first use, when trustServiceProvider was not called. */
  spMetadataUrl?: string;
  /** A SingleLogoutService in the metadata (its endpoint only says it signed out). */
  singleLogout?: boolean;
}

export async function startSamlIdp(options: SamlIdpOptions = {}): Promise<TestSamlIdp> {
  const published = generateTestKeyPair("ETS test identity provider");
  const forger = generateTestKeyPair("Not the identity provider");

  let spMetadata: string | null = null;
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(`Test IdP error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const entityId = `${url}/idp`;
  const ssoUrl = `${url}/sso`;

  const idpSettings = (keys: TestKeyPair) => ({
    entityID: entityId,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    nameIDFormat: [NAME_ID_PERSISTENT, NAME_ID_TRANSIENT],
    singleSignOnService: [{ Binding: REDIRECT_BINDING, Location: ssoUrl }],
    singleLogoutService: options.singleLogout
      ? [{ Binding: REDIRECT_BINDING, Location: `${url}/slo` }]
      : [],
    wantAuthnRequestsSigned: false,
  });
  const idp = samlify.IdentityProvider(idpSettings(published));
  const forgerIdp = samlify.IdentityProvider(idpSettings(forger));
  const metadataXml = idp.getMetadata();

  async function serviceProvider(): Promise<string> {
    if (spMetadata !== null) return spMetadata;
    if (!options.spMetadataUrl) throw new Error("the IdP does not know the service provider yet");
    const res = await fetch(options.spMetadataUrl);
    if (!res.ok) throw new Error(`SP metadata answered ${res.status}`);
    spMetadata = await res.text();
    return spMetadata;
  }

  /** samlify's view of our SP, adjusted so it signs what `signing` asks for. */
  function spEntity(xml: string, signing: "assertion" | "response" | "both") {
    const assertionSigned = signing !== "response";
    const metadata = xml.replace(
      /WantAssertionsSigned="(true|false)"/,
      `WantAssertionsSigned="${assertionSigned}"`,
    );
    return samlify.ServiceProvider({ metadata, wantMessageSigned: signing !== "assertion" });
  }

  function postAcsUrl(sp: ReturnType<typeof spEntity>): string {
    // samlify names bindings by their short name here ("post"), not by their URN.
    const location: unknown = sp.entityMeta.getAssertionConsumerService("post");
    if (typeof location !== "string") throw new Error("the SP metadata has no HTTP-POST ACS URL");
    return location;
  }

  const api: TestSamlIdp = {
    url,
    entityId,
    metadataUrl: `${url}/metadata`,
    ssoUrl,
    metadataXml,
    certificate: published.certificate,
    behaviour: { ...CORRECT },
    reset() {
      api.behaviour = { ...CORRECT };
    },
    trustServiceProvider(xml) {
      spMetadata = xml;
    },
    async signIn(authnRequestUrl, user) {
      const location = new URL(authnRequestUrl);
      const page = await fetch(location);
      if (page.status !== 200) throw new Error(`The IdP's sign-in page answered ${page.status}`);
      const fields = new URLSearchParams({
        SAMLRequest: location.searchParams.get("SAMLRequest") ?? "",
        RelayState: location.searchParams.get("RelayState") ?? "",
      });
      if (user === "cancel") {
        fields.set("action", "cancel");
      } else {
        fields.set("action", "sign-in");
        fields.set("nameId", user.nameId);
        fields.set("nameIdFormat", user.nameIdFormat ?? NAME_ID_PERSISTENT);
        fields.set("email", user.email ?? "");
        fields.set("indexNumber", user.indexNumber ?? "");
        fields.set("groups", (user.groups ?? []).join(","));
        fields.set("displayName", user.displayName ?? "");
      }
      const answer = await fetch(`${url}/sso/login`, { method: "POST", body: fields });
      if (answer.status !== 200) {
        throw new Error(`The IdP answered ${answer.status}: ${await answer.text()}`);
      }
      return readPostForm(await answer.text());
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? "/", url);
    if (req.method === "GET" && requestUrl.pathname === "/metadata") {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" });
      res.end(metadataXml);
      return;
    }
    if (req.method === "GET" && requestUrl.pathname === "/sso") {
      const samlRequest = requestUrl.searchParams.get("SAMLRequest");
      if (!samlRequest) return sendHtml(res, 400, page("Bad request", "<p>No SAMLRequest.</p>"));
      const parsed = await parseAuthnRequest(samlRequest);
      sendHtml(
        res,
        200,
        signInPage(samlRequest, requestUrl.searchParams.get("RelayState"), parsed.issuer),
      );
      return;
    }
    if (req.method === "POST" && requestUrl.pathname === "/sso/login") {
      const form = new URLSearchParams(await readBody(req));
      const samlRequest = form.get("SAMLRequest") ?? "";
      const relayState = form.get("RelayState") || null;
      const parsed = await parseAuthnRequest(samlRequest);
      const user: SamlTestUser | null =
        form.get("action") === "cancel"
          ? null
          : {
              nameId: form.get("nameId") || form.get("email") || "anonymous",
              nameIdFormat: form.get("nameIdFormat") || NAME_ID_PERSISTENT,
              email: form.get("email") || null,
              indexNumber: form.get("indexNumber") || null,
              groups: (form.get("groups") ?? "")
                .split(",")
                .map((g) => g.trim())
                .filter((g) => g.length > 0),
              displayName: form.get("displayName") || null,
            };
      const response = await buildResponse(parsed.id, user);
      sendHtml(res, 200, postPage(parsed.acsUrl, response, relayState));
      return;
    }
    if (req.method === "GET" && requestUrl.pathname === "/slo") {
      sendHtml(res, 200, page("Signed out", "<h1>You are signed out of the test IdP.</h1>"));
      return;
    }
    sendHtml(res, 404, page("Not found", "<p>Not found.</p>"));
  }

  async function parseAuthnRequest(
    samlRequest: string,
  ): Promise<{ id: string; issuer: string; acsUrl: string }> {
    const sp = spEntity(await serviceProvider(), "assertion");
    const result = await idp.parseLoginRequest(sp, "redirect", {
      query: { SAMLRequest: samlRequest },
    });
    const extract = result.extract as {
      request?: { id?: string; assertionConsumerServiceUrl?: string };
      issuer?: string;
    };
    const id = extract.request?.id;
    if (!id) throw new Error("the AuthnRequest has no ID");
    // The ACS URL comes from the SP's metadata, never from the request alone: a real IdP posts
    // only to endpoints it registered for that SP.
    return { id, issuer: extract.issuer ?? "", acsUrl: postAcsUrl(sp) };
  }

  async function buildResponse(requestId: string, user: SamlTestUser | null): Promise<string> {
    const b = api.behaviour;
    const spXml = await serviceProvider();
    const sp = spEntity(spXml, "assertion");
    const acsUrl = postAcsUrl(sp);
    const xml = responseXml({
      issuer: entityId,
      destination: b.omitDestination ? null : (b.destination ?? acsUrl),
      recipient: b.recipient ?? acsUrl,
      audience: b.audience ?? sp.entityMeta.getEntityID(),
      inResponseTo: b.inResponseTo ?? requestId,
      now: new Date(Date.now() + b.clockShiftMs),
      user,
    });
    // A refusal carries no assertion: only the response can be signed.
    const signing = user === null && b.signing !== "none" ? "response" : b.signing;
    if (signing === "none") return Buffer.from(xml, "utf8").toString("base64");
    const signer = b.signWithOtherKey ? forgerIdp : idp;
    const result = await signer.createLoginResponse(
      spEntity(spXml, signing),
      { extract: { request: { id: requestId } } },
      "post",
      {},
      { customTagReplacement: () => ({ id: requestId, context: xml }) },
    );
    return String(result.context);
  }

  return api;
}

interface TestKeyPair {
  privateKey: string;
  certificate: string;
}

/** A throwaway RSA key and self-signed certificate, made by the openssl binary in a temp folder. */
function generateTestKeyPair(commonName: string): TestKeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-saml-key-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-days",
        "2",
        "-subj",
        `/CN=${commonName}`,
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ],
      { stdio: "ignore" },
    );
    return {
      privateKey: fs.readFileSync(keyFile, "utf8"),
      certificate: fs.readFileSync(certFile, "utf8"),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export { generateTestKeyPair };

function responseXml(o: {
  issuer: string;
  destination: string | null;
  recipient: string;
  audience: string;
  inResponseTo: string;
  now: Date;
  user: SamlTestUser | null;
}): string {
  const id = `_${randomBytes(20).toString("hex")}`;
  const at = o.now.toISOString();
  const later = new Date(o.now.getTime() + 5 * 60 * 1000).toISOString();
  const head =
    `<samlp:Response xmlns:samlp="${SAML_PROTOCOL}" xmlns:saml="${SAML_ASSERTION}" ID="${id}" Version="2.0"` +
    ` IssueInstant="${at}"${o.destination === null ? "" : ` Destination="${esc(o.destination)}"`} InResponseTo="${esc(o.inResponseTo)}">` +
    `<saml:Issuer>${esc(o.issuer)}</saml:Issuer>`;
  if (o.user === null) {
    // What Shibboleth answers when the person cancels at its login page.
    return (
      head +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">` +
      `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>` +
      `<samlp:StatusMessage>User cancelled the sign-in</samlp:StatusMessage></samlp:Status></samlp:Response>`
    );
  }
  const u = o.user;
  const attributes: Array<[string, string[]]> = [];
  if (u.email) attributes.push([SHIBBOLETH_ATTRIBUTES.email, [u.email]]);
  if (u.displayName) attributes.push([SHIBBOLETH_ATTRIBUTES.displayName, [u.displayName]]);
  if (u.indexNumber) attributes.push([SHIBBOLETH_ATTRIBUTES.indexNumber, [u.indexNumber]]);
  if (u.groups && u.groups.length > 0) attributes.push([SHIBBOLETH_ATTRIBUTES.groups, u.groups]);
  const attributeStatement =
    attributes.length === 0
      ? ""
      : `<saml:AttributeStatement>${attributes
          .map(
            ([name, values]) =>
              `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
                .map(
                  (v) =>
                    `<saml:AttributeValue xsi:type="xs:string">${esc(v)}</saml:AttributeValue>`,
                )
                .join("")}</saml:Attribute>`,
          )
          .join("")}</saml:AttributeStatement>`;
  return (
    head +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"` +
    ` ID="_${randomBytes(20).toString("hex")}" Version="2.0" IssueInstant="${at}">` +
    `<saml:Issuer>${esc(o.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${esc(u.nameIdFormat ?? NAME_ID_PERSISTENT)}">${esc(u.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${later}" Recipient="${esc(o.recipient)}" InResponseTo="${esc(o.inResponseTo)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at}" NotOnOrAfter="${later}"><saml:AudienceRestriction>` +
    `<saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at}" SessionIndex="_${randomBytes(8).toString("hex")}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>${attributeStatement}</saml:Assertion></samlp:Response>`
  );
}

function esc(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`;
}

function signInPage(samlRequest: string, relayState: string | null, spEntityId: string): string {
  const field = (name: string, label: string, value = "") =>
    `<p><label for="${name}">${label}</label><br><input id="${name}" name="${name}" value="${esc(value)}"></p>`;
  return page(
    "Test IdP sign-in",
    `<main><h1>Test university sign-in</h1><p>Signing in to ${esc(spEntityId)}</p>` +
      `<form method="post" action="/sso/login">` +
      `<input type="hidden" name="SAMLRequest" value="${esc(samlRequest)}">` +
      `<input type="hidden" name="RelayState" value="${esc(relayState ?? "")}">` +
      field("email", "Email") +
      field("nameId", "Persistent id (NameID)") +
      field("indexNumber", "Index number") +
      field("groups", "Groups (comma-separated)") +
      field("displayName", "Display name") +
      `<p><button type="submit" name="action" value="sign-in">Sign in</button> ` +
      `<button type="submit" name="action" value="cancel">Cancel</button></p>` +
      `</form></main>`,
  );
}

/** The HTTP-POST binding: a form the browser submits at once to the SP's ACS URL. */
function postPage(acsUrl: string, samlResponse: string, relayState: string | null): string {
  return page(
    "Signing you in",
    `<form id="saml" method="post" action="${esc(acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${esc(samlResponse)}">` +
      (relayState === null
        ? ""
        : `<input type="hidden" name="RelayState" value="${esc(relayState)}">`) +
      `<noscript><button type="submit">Continue</button></noscript></form>` +
      `<script>document.getElementById("saml").submit();</script>`,
  );
}

/** Reads the auto-posting form back, as a browser would submit it. */
function readPostForm(html: string): PostedResponse {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  const value = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? null;
  const samlResponse = value("SAMLResponse");
  if (!action || !samlResponse) throw new Error("The IdP did not answer with a SAML POST form");
  return {
    action: unesc(action),
    SAMLResponse: unesc(samlResponse),
    RelayState: unescOrNull(value("RelayState")),
  };
}

function unesc(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function unescOrNull(value: string | null): string | null {
  return value === null ? null : unesc(value);
}

function sendHtml(res: http.ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

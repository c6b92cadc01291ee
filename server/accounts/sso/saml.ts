import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type * as XmlDom from "@xmldom/xmldom";
import type { SAML, Profile, SamlConfig as NodeSamlConfig } from "@node-saml/node-saml";
import type * as NodeSaml from "@node-saml/node-saml";
import type { SsoFailure } from "../../../common/sso.js";
import type { SamlConfig } from "../../config.js";
import type { Executor } from "../../db/database.js";
import type { SsoIdentity } from "./identity.js";
import { markReplay, saveSsoRequest, takeSsoRequest } from "./requests.js";
import { lazyModule } from "../../lazy-module.js";

/** Loaded when SAML is first used: most installs sign in with passwords or OpenID Connect. */
const nodeSaml = lazyModule<typeof NodeSaml>("@node-saml/node-saml");
const xmldom = lazyModule<typeof XmlDom>("@xmldom/xmldom");

/**
 * SAML 2.0 single sign-on (issue 10, docs/decisions/010-single-sign-on.md): the service provider
 * side, SP-initiated, on @node-saml/node-saml. node-saml checks the XML signature against the
 * IdP's published certificates, the audience and the NotBefore/NotOnOrAfter window; this module
 * adds what it leaves to its caller: the issuer, the recipient and destination, InResponseTo
 * against a request saved in the database (so whichever server receives the answer can check it)
 * and assertion replay.
 */

const METADATA_NS = "urn:oasis:names:tc:SAML:2.0:metadata";
const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
const PROTOCOL_NS = "urn:oasis:names:tc:SAML:2.0:protocol";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

/** Re-read the IdP's metadata this often, so a rolled-over signing certificate is picked up. */
export const IDP_METADATA_TTL_MS = 60 * 60 * 1000;
/** A single IdP's metadata is a few kilobytes; a federation's aggregate is not what we want. */
const MAX_METADATA_BYTES = 2 * 1024 * 1024;
const METADATA_TIMEOUT_MS = 10_000;

/** Display-name attributes of Shibboleth (eduPerson displayName, cn) and ADFS. */
const NAME_ATTRIBUTES = [
  "urn:oid:2.16.840.1.113730.3.1.241",
  "displayName",
  "http://schemas.microsoft.com/identity/claims/displayname",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name",
  "urn:oid:2.5.4.3",
];

/** What we need from the IdP's metadata. */
export interface IdpDescription {
  entityId: string;
  ssoUrl: string;
  ssoBinding: "redirect" | "post";
  /** PEM certificates its assertions may be signed with (two during a rollover). */
  signingCertificates: string[];
  /** Its SingleLogoutService (HTTP-Redirect), if it publishes one; see the ADR on sign-out. */
  sloUrl: string | null;
}

export class SamlMetadataError extends Error {
  override name = "SamlMetadataError";
}

/**
 * Reads the IdP's entity id, SSO endpoint and signing certificates from its metadata: an
 * EntityDescriptor, or an EntitiesDescriptor holding exactly one identity provider.
 */
export function parseIdpMetadata(xml: string): IdpDescription {
  const problems: string[] = [];
  const doc = new (xmldom().DOMParser)({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  }).parseFromString(xml, "text/xml");
  if (problems.length > 0 || !doc.documentElement) {
    throw new SamlMetadataError(`the IdP metadata is not well-formed XML: ${problems[0] ?? ""}`);
  }
  const descriptors = elements(doc, METADATA_NS, "IDPSSODescriptor").filter((d) =>
    (d.getAttribute("protocolSupportEnumeration") ?? "").includes(PROTOCOL_NS),
  );
  if (descriptors.length !== 1) {
    throw new SamlMetadataError(
      descriptors.length === 0
        ? "the metadata describes no SAML 2.0 identity provider (IDPSSODescriptor)"
        : "the metadata describes several identity providers: give the one IdP's own metadata",
    );
  }
  const descriptor = descriptors[0]!;
  const entity = descriptor.parentNode as Element | null;
  const entityId = entity?.getAttribute("entityID")?.trim();
  if (!entityId) throw new SamlMetadataError("the IdP's EntityDescriptor has no entityID");

  const services = elements(descriptor, METADATA_NS, "SingleSignOnService");
  const redirect = services.find((s) => s.getAttribute("Binding") === REDIRECT_BINDING);
  const post = services.find((s) => s.getAttribute("Binding") === POST_BINDING);
  const sso = redirect ?? post;
  const ssoUrl = sso?.getAttribute("Location")?.trim();
  if (!sso || !ssoUrl || !/^https?:\/\//.test(ssoUrl)) {
    throw new SamlMetadataError(
      "the IdP offers no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding",
    );
  }

  const signingCertificates = elements(descriptor, METADATA_NS, "KeyDescriptor")
    .filter((k) => {
      const use = k.getAttribute("use");
      return !use || use === "signing";
    })
    .flatMap((k) => elements(k, DSIG_NS, "X509Certificate"))
    .map((c) => toPem((c.textContent ?? "").replace(/\s+/g, "")))
    .filter((pem) => pem !== null);
  if (signingCertificates.length === 0) {
    throw new SamlMetadataError("the IdP metadata publishes no signing certificate");
  }

  const slo = elements(descriptor, METADATA_NS, "SingleLogoutService").find(
    (s) => s.getAttribute("Binding") === REDIRECT_BINDING,
  );
  return {
    entityId,
    ssoUrl,
    ssoBinding: sso === redirect ? "redirect" : "post",
    signingCertificates: [...new Set(signingCertificates)],
    sloUrl: slo?.getAttribute("Location")?.trim() || null,
  };
}

function elements(root: Document | Element, ns: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(ns, localName));
}

function toPem(base64: string): string | null {
  if (base64.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----`;
}

/**
 * The IdP's metadata from SAML_IDP_METADATA (a file or an https URL; http for loopback only, checked
 * at start in config.ts), read on first use and again
 * after IDP_METADATA_TTL_MS. A failed refresh keeps the last good copy (the IdP's metadata host
 * being down for a moment should not stop sign-ins) and is tried again at the next use; with no
 * good copy yet, the failure is the caller's `unreachable`.
 */
export interface IdpMetadataSource {
  get(now?: Date): Promise<IdpDescription>;
}

export function idpMetadataSource(
  location: string,
  options: { onRefreshFailed?: (error: unknown) => void } = {},
): IdpMetadataSource {
  let cached: { idp: IdpDescription; readAt: number } | null = null;
  let loading: Promise<IdpDescription> | null = null;

  const load = async (now: Date): Promise<IdpDescription> => {
    const idp = parseIdpMetadata(await readMetadata(location));
    cached = { idp, readAt: now.getTime() };
    return idp;
  };

  return {
    async get(now = new Date()) {
      if (cached && now.getTime() - cached.readAt < IDP_METADATA_TTL_MS) return cached.idp;
      // One read at a time: requests arriving while it runs share it.
      loading ??= load(now).finally(() => {
        loading = null;
      });
      if (!cached) return loading;
      const stale = cached.idp;
      return loading.catch((error: unknown) => {
        options.onRefreshFailed?.(error);
        return stale;
      });
    },
  };
}

async function readMetadata(location: string): Promise<string> {
  if (!/^https?:\/\//i.test(location)) {
    const stat = await fs.promises.stat(location);
    if (stat.size > MAX_METADATA_BYTES)
      throw new SamlMetadataError("the IdP metadata file is too large");
    return fs.promises.readFile(location, "utf8");
  }
  const res = await fetch(location, {
    signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
    headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
  });
  if (!res.ok) throw new SamlMetadataError(`the IdP metadata URL answered ${res.status}`);
  const body = await res.text();
  if (body.length > MAX_METADATA_BYTES)
    throw new SamlMetadataError("the IdP metadata is too large");
  return body;
}

/** Our own key and certificate (SAML_SP_PRIVATE_KEY_FILE, SAML_SP_CERTIFICATE_FILE), if set. */
export interface SpKeys {
  privateKey: string;
  certificate: string;
}

/** Reads our key pair at start: a missing or unreadable file stops the server with its name. */
export function readSpKeys(config: SamlConfig): SpKeys | null {
  if (!config.spPrivateKeyFile || !config.spCertificateFile) return null;
  const read = (file: string, variable: string) => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${variable} cannot be read: ${reason}`);
    }
  };
  return {
    privateKey: read(config.spPrivateKeyFile, "SAML_SP_PRIVATE_KEY_FILE"),
    certificate: read(config.spCertificateFile, "SAML_SP_CERTIFICATE_FILE"),
  };
}

/** Where the IdP posts its answer. */
export function acsUrl(publicUrl: string): string {
  return `${publicUrl}/api/auth/saml/acs`;
}

/** Our SP metadata for the IdP's administrators (GET /api/auth/saml/metadata). */
export function serviceProviderMetadata(
  config: SamlConfig,
  publicUrl: string,
  keys: SpKeys | null,
): string {
  return nodeSaml().generateServiceProviderMetadata({
    issuer: config.spEntityId,
    callbackUrl: acsUrl(publicUrl),
    wantAssertionsSigned: true,
    // No NameIDFormat: the IdP sends the format it is configured for (see the ADR).
    identifierFormat: null,
    ...(keys
      ? {
          privateKey: keys.privateKey,
          publicCerts: [keys.certificate],
          signatureAlgorithm: "sha256" as const,
          // The same pair decrypts: ADFS and Shibboleth encrypt assertions for an SP that
          // publishes an encryption certificate.
          decryptionPvk: keys.privateKey,
          decryptionCert: keys.certificate,
        }
      : {}),
  });
}

function samlClient(
  config: SamlConfig,
  publicUrl: string,
  keys: SpKeys | null,
  idp: IdpDescription,
  requestId?: string,
): SAML {
  const options: NodeSamlConfig = {
    issuer: config.spEntityId,
    callbackUrl: acsUrl(publicUrl),
    entryPoint: idp.ssoUrl,
    idpCert: idp.signingCertificates,
    audience: config.spEntityId,
    // Signed assertions are required; a signed Response around a signed assertion is accepted
    // too, but a signature on the Response alone is not.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: config.clockSkewSeconds * 1000,
    // InResponseTo is checked here against the database (checkAnswer), not in node-saml's memory.
    validateInResponseTo: "never" as NodeSamlConfig["validateInResponseTo"],
    // Let the IdP choose its NameID format and authentication method: asking for emailAddress or
    // an exact PasswordProtectedTransport makes ADFS and Shibboleth refuse people who sign in
    // with Kerberos or multi-factor.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    authnRequestBinding: idp.ssoBinding === "post" ? "HTTP-POST" : "HTTP-Redirect",
    // The POST binding carries the request base64-encoded, never deflated (saml-bindings 3.5.4).
    skipRequestCompression: idp.ssoBinding === "post",
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
    ...(keys
      ? {
          privateKey: keys.privateKey,
          publicCert: keys.certificate,
          decryptionPvk: keys.privateKey,
          signatureAlgorithm: "sha256" as const,
          digestAlgorithm: "sha256",
        }
      : {}),
  };
  return new (nodeSaml().SAML)(options);
}

/** Where to send the person: a URL (HTTP-Redirect) or a form to post (HTTP-POST). */
export type SamlStart = { requestId: string } & (
  | { binding: "redirect"; url: string }
  | { binding: "post"; url: string; fields: Record<string, string> }
);

/** Starts an SP-initiated sign-in: saves the AuthnRequest's ID, then builds the request. */
export async function startSamlSignIn(
  db: Executor,
  config: SamlConfig,
  publicUrl: string,
  keys: SpKeys | null,
  idp: IdpDescription,
  returnTo: string | null,
): Promise<SamlStart> {
  // An XML ID must not start with a digit.
  const requestId = `_${randomBytes(20).toString("hex")}`;
  await saveSsoRequest(db, {
    key: requestId,
    provider: "saml",
    nonce: null,
    codeVerifier: null,
    returnTo,
  });
  const saml = samlClient(config, publicUrl, keys, idp, requestId);
  if (idp.ssoBinding === "redirect") {
    return {
      requestId,
      binding: "redirect",
      url: await saml.getAuthorizeUrlAsync("", undefined, {}),
    };
  }
  const message = await saml.getAuthorizeMessageAsync("", undefined, {});
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(message)) {
    if (typeof value === "string") fields[key] = value;
  }
  return { requestId, binding: "post", url: idp.ssoUrl, fields };
}

export type SamlOutcome =
  | { ok: true; identity: SsoIdentity; returnTo: string | null }
  /** `reason` is for the audit row: a short code or the library's message, never the assertion. */
  | { ok: false; failure: SsoFailure; reason: string };

/**
 * Checks the IdP's answer posted to our ACS URL and turns it into an SsoIdentity. Every check
 * that fails gives the failure the login page explains: the person cancelled, the answer expired
 * or was already used, or it is not one we accept.
 */
export async function verifySamlResponse(
  db: Executor,
  config: SamlConfig,
  publicUrl: string,
  keys: SpKeys | null,
  idp: IdpDescription,
  samlResponse: string,
  options: {
    /**
     * The request id the browser posting the answer carries in its cookie (saml-routes.ts), when
     * answers are bound to the browser that started them (PUBLIC_URL https); undefined when not.
     */
    browserRequestId?: string | null;
    now?: Date;
  } = {},
): Promise<SamlOutcome> {
  const now = options.now ?? new Date();
  const saml = samlClient(config, publicUrl, keys, idp);
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    return refusalOf(error);
  }
  // A signed NoPassive answer: the IdP would not sign the person in without asking them.
  if (profile === null) return { ok: false, failure: "cancelled", reason: "no passive sign-in" };

  const assertion = readAssertion(profile);
  if (!assertion) return invalid("the assertion lacks an ID or a subject");
  if (profile.issuer !== idp.entityId) return invalid("the assertion's issuer is not the IdP");

  const ours = acsUrl(publicUrl);
  const { destination, signed } = responseEnvelope(profile);
  if (destination !== null && destination !== ours) return invalid("wrong Destination");
  // SAML bindings 3.5.5.2: a signed message sent by HTTP-POST must say where it is going, so a
  // signed Response made for another service provider cannot be replayed to us.
  if (signed && destination === null) return invalid("signed Response without Destination");
  // The Web SSO profile's bearer confirmation: for us, for this request, and not for ever.
  const confirmation = assertion.confirmations.find(
    (c) => c.method === BEARER && c.recipient === ours,
  );
  if (!confirmation) return invalid("no bearer SubjectConfirmation with our ACS URL as Recipient");
  if (!confirmation.inResponseTo) return invalid("unsolicited response (no InResponseTo)");
  if (profile.inResponseTo && profile.inResponseTo !== confirmation.inResponseTo) {
    return invalid("the Response's InResponseTo differs from the assertion's");
  }
  // Login forgery: an answer the attacker obtained for their own account, posted from the
  // victim's browser, names a request this browser never started.
  if (
    options.browserRequestId !== undefined &&
    options.browserRequestId !== confirmation.inResponseTo
  ) {
    return { ok: false, failure: "expired", reason: "sign-in not started in this browser" };
  }
  const notOnOrAfter = Date.parse(confirmation.notOnOrAfter ?? "");
  if (Number.isNaN(notOnOrAfter)) return invalid("the bearer confirmation has no NotOnOrAfter");

  // Kept until it could no longer pass the time checks anyway, skew included.
  const replayUntil = new Date(notOnOrAfter + config.clockSkewSeconds * 1000);
  if (!(await markReplay(db, `saml:${assertion.id}`, replayUntil, now))) {
    return { ok: false, failure: "expired", reason: "assertion replayed" };
  }
  const request = await takeSsoRequest(db, confirmation.inResponseTo, "saml", now);
  if (!request) {
    return { ok: false, failure: "expired", reason: "InResponseTo unknown, used or expired" };
  }

  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const email = firstValue(attributes[config.emailAttribute])?.toLowerCase() ?? null;
  const nameId = profile.nameID;
  // A transient NameID changes at every sign-in, so it cannot name the person: the email does.
  const subject = profile.nameIDFormat === TRANSIENT ? (email ? `email:${email}` : null) : nameId;
  if (!subject) return invalid("no NameID (or a transient one and no email)");

  return {
    ok: true,
    returnTo: request.returnTo,
    identity: {
      provider: "saml",
      subject,
      email,
      // The institution's own IdP asserts its own directory's address: verified by definition.
      emailVerified: email !== null,
      indexNumber: config.indexNumberAttribute
        ? (firstValue(attributes[config.indexNumberAttribute]) ?? null)
        : null,
      groups: allValues(attributes[config.groupsAttribute]),
      name: NAME_ATTRIBUTES.map((n) => firstValue(attributes[n])).find((v) => v) ?? null,
    },
  };
}

function invalid(reason: string): SamlOutcome {
  return { ok: false, failure: "invalid_response", reason };
}

/** The failure a rejection by node-saml means for the person. */
function refusalOf(error: unknown): SamlOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof nodeSaml().SamlStatusError) {
    // Responder/AuthnFailed is what Shibboleth and ADFS answer when the person cancels or fails
    // to sign in; RequestDenied when they decline to release their attributes.
    if (/AuthnFailed|RequestDenied|NoPassive/.test(error.xmlStatus)) {
      return { ok: false, failure: "cancelled", reason: message };
    }
    return { ok: false, failure: "invalid_response", reason: message };
  }
  if (/expired/i.test(message)) return { ok: false, failure: "expired", reason: message };
  return { ok: false, failure: "invalid_response", reason: message };
}

interface BearerConfirmation {
  method: string | null;
  recipient: string | null;
  inResponseTo: string | null;
  notOnOrAfter: string | null;
}

/**
 * The signed assertion's ID and subject confirmations. node-saml gives the verified assertion
 * (decrypted if it was encrypted) as an xml2js tree with namespace prefixes stripped.
 */
function readAssertion(
  profile: Profile,
): { id: string; confirmations: BearerConfirmation[] } | null {
  const tree = profile.getAssertion?.() as { Assertion?: XmlNode } | undefined;
  const assertion = tree?.Assertion;
  const id = assertion?.$?.ID;
  if (!assertion || !id) return null;
  const confirmations = children(children(assertion, "Subject")[0], "SubjectConfirmation").flatMap(
    (c) =>
      children(c, "SubjectConfirmationData").map((data) => ({
        method: c.$?.Method ?? null,
        recipient: data.$?.Recipient ?? null,
        inResponseTo: data.$?.InResponseTo ?? null,
        notOnOrAfter: data.$?.NotOnOrAfter ?? null,
      })),
  );
  return { id, confirmations };
}

interface XmlNode {
  $?: Record<string, string>;
  [child: string]: unknown;
}

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

/**
 * The Response's Destination (outside the assertion's signature when only that is signed), and
 * whether the Response itself is signed (a Signature among its own children; node-saml has
 * checked any signature there against the IdP's certificates already).
 */
function responseEnvelope(profile: Profile): { destination: string | null; signed: boolean } {
  const xml = profile.getSamlResponseXml?.();
  if (!xml) return { destination: null, signed: false };
  const root = new (xmldom().DOMParser)({
    errorHandler: { warning: () => undefined },
  }).parseFromString(xml, "text/xml").documentElement;
  if (!root) return { destination: null, signed: false };
  const signed = Array.from(root.childNodes).some(
    (node) =>
      node.nodeType === node.ELEMENT_NODE &&
      (node as Element).namespaceURI === DSIG_NS &&
      (node as Element).localName === "Signature",
  );
  return { destination: root.getAttribute("Destination") || null, signed };
}

function firstValue(value: unknown): string | undefined {
  return allValues(value)[0];
}

function allValues(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((v) => (typeof v === "string" ? v.trim() : "")).filter((v) => v.length > 0);
}

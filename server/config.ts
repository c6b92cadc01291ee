import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { MIN_ADMIN_PASSWORD_LENGTH } from "../common/accounts.js";
import { parseClamdUrl } from "./files/clamd.js";
import { parseStorageUrl } from "./files/storage.js";

// Defined with the account schemas the web forms share; re-exported for the server's callers.
export { MIN_ADMIN_PASSWORD_LENGTH };

/**
 * The one place that reads process.env. Everything else receives a Config.
 * Each bad variable is named in the error so a start fails with a readable line.
 */

export type DatabaseConfig = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  /**
   * The university, as the degree grantor in the library's formats (ETD-MS degree.grantor,
   * DSpace's etdms.degree.grantor, MARC 502 $c and 710): ETS_INSTITUTION. Unset, each record's
   * department stands in, as no better name is known (ADR 026).
   */
  universityName: string | null;
  publicUrl: string;
  /** true when PUBLIC_URL is https: cookies get Secure and responses HSTS. */
  secure: boolean;
  database: DatabaseConfig;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * Whether a mail that carries a secret (a sign-in code, an examiner's link) may be written to
   * the log in full when there is no SMTP_URL: only outside production. In production the log
   * gets its recipient and subject (ETS_MAIL_TO_LOG=on), never the secret.
   */
  mailSecretsToLog: boolean;
  contactEmail: string | null;
  admin: { email: string; password: string } | null;
  sampleData: boolean;
  studentEmailDomains: string[];
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  trustProxy: boolean;
  reportOverdueDays: number;
  /** Where uploaded documents are stored: file:<folder> or s3://bucket?endpoint=...&region=... */
  storageUrl: string;
  /** clamd to scan every upload with (tcp://host:port); null: uploads are not scanned. */
  clamdUrl: string | null;
  /** Largest accepted upload, in bytes: the thesis, and every other checklist item. */
  maxThesisBytes: number;
  maxFormBytes: number;
  /** Whether the mail worker runs inside the server (tests drive it by hand). */
  mailWorker: boolean;
  /** How often the mail worker looks for due mail. */
  mailPollIntervalMs: number;
  /**
   * On SIGTERM, how long the requests in flight may take to finish before their connections are
   * cut; the process exits (1) if closing is still not over 5 s later (ETS_SHUTDOWN_DEADLINE_SECONDS).
   */
  shutdownDeadlineMs: number;
  /**
   * How many server processes run on this machine (ETS_WORKERS; default: one per core). More than
   * one: a primary process starts them and passes on signals (server/workers.ts); they share the
   * database as several servers do (docs/decisions/008-several-servers.md).
   */
  workers: number;
  /**
   * Whether requests start in turns of the event loop under load (server/request-turns.ts;
   * ETS_REQUEST_TURNS, on by default). Off only to measure what the turns do (npm run bench -- load).
   */
  requestTurns: boolean;
  /** Request limits on sign-in, sign-up, code requests and the contact form (docs/decisions/004). */
  rateLimits: RateLimits;
  /** Examiners in the loop (docs/decisions/009-examiners.md). */
  examiners: ExaminersConfig;
  /** Single sign-on and which local sign-ins stay (docs/decisions/010-single-sign-on.md). */
  sso: SsoConfig;
  /**
   * The institutional repository's SWORD v2 service document (REPOSITORY_SWORD_URL), its
   * credentials taken out of the address; null: no deposit (docs/decisions/026-library-exports-and-deposit.md).
   */
  repositorySword: SwordConfig | null;
  /** Whether the deposit queue is worked inside the server (tests drive it by hand). */
  depositWorker: boolean;
  /** How often the deposit queue is looked at (ETS_DEPOSIT_INTERVAL_SECONDS, default 30). */
  depositIntervalMs: number;
  /** The public pages and OAI-PMH (docs/decisions/027-oai-pmh-and-public-pages.md). */
  publicSite: PublicSiteConfig;
  /** Signed webhooks (docs/decisions/023-webhooks.md). */
  webhooks: WebhooksConfig;
}

export interface PublicSiteConfig {
  /** The repository's and the public pages' name (ETS_REPOSITORY_NAME; default "Theses"). */
  repositoryName: string;
  /** The institution shown as the degree grantor (citation_dissertation_institution). */
  institution: string;
  /**
   * OAI-PMH's adminEmail (ETS_OAI_ADMIN_EMAIL; else ETS_CONTACT_EMAIL, else ETS_ADMIN_EMAIL,
   * else webmaster@ the PUBLIC_URL's host).
   */
  oaiAdminEmail: string;
  /** The host part of OAI identifiers, oai:<this>:<id> (ETS_OAI_IDENTIFIER; default PUBLIC_URL's host). */
  oaiIdentifierHost: string;
}

export interface SwordConfig {
  /** The service document's address without the user and password. */
  serviceDocumentUrl: string;
  username: string;
  /** Sent only in the Authorization header to the repository; never logged or answered. */
  password: string;
}

/**
 * REPOSITORY_SWORD_URL, `https://user:password@host/path` (user and password percent-encoded, as
 * in SMTP_URL), split into the address and its credentials; a string names what is wrong.
 * http:// only to this machine (development, tests): the password crosses the network otherwise.
 */
export function parseSwordUrl(value: string): SwordConfig | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an https:// address of the repository's SWORD v2 service document";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "must be an https:// address of the repository's SWORD v2 service document";
  }
  if (insecureRemoteUrl(value)) {
    return "must be an https:// address: it carries the repository password (http:// is accepted for localhost only)";
  }
  if (url.username === "" || url.password === "") {
    return "must carry the repository account as https://user:password@host/...";
  }
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    return "has a user or password that is not properly percent-encoded";
  }
  url.username = "";
  url.password = "";
  return { serviceDocumentUrl: url.toString(), username, password };
}

export interface WebhooksConfig {
  /**
   * Host names (lower case) a webhook may reach although they are, or resolve to, a loopback,
   * private or link-local address (WEBHOOK_ALLOWED_HOSTS, comma-separated; default none).
   */
  allowedHosts: string[];
  /** Whether the delivery worker runs inside the server (tests drive it by hand). */
  worker: boolean;
  /** How often the delivery worker looks for due deliveries. */
  pollIntervalMs: number;
}

export interface ExaminersConfig {
  /** How long an examiner's link works after it is sent (ETS_EXAMINER_LINK_DAYS, default 120). */
  linkDays: number;
  /** The report's due date, this many days after the link is sent (ETS_REPORT_DUE_DAYS, 42). */
  reportDueDays: number;
  /** Reminder days relative to the due date, ascending (ETS_REMINDER_DAYS, default -7,0,7,14). */
  reminderDays: number[];
  /** How often the reminder scheduler looks for due reminders (ETS_REMINDER_INTERVAL_SECONDS, 900). */
  reminderIntervalMs: number;
}

export type LocalSignIn = "on" | "admins-only" | "off";

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
  label: string;
  emailClaim: string;
  /** The claim carrying the student's index number, if the provider sends one. */
  indexNumberClaim: string | null;
  groupsClaim: string;
  /**
   * How we authenticate at the token endpoint (OIDC_TOKEN_AUTH_METHOD); null: chosen from the
   * provider's advertised methods (server/auth/sso/oidc.ts, tokenAuthMethodFor).
   */
  tokenAuthMethod: OidcTokenAuthMethod | null;
  /** Our private key (PEM) for private_key_jwt (OIDC_PRIVATE_KEY_FILE). */
  privateKeyFile: string | null;
  /** The `kid` the provider knows that key by (OIDC_PRIVATE_KEY_ID); default its JWK thumbprint. */
  privateKeyId: string | null;
}

/** The token endpoint authentication methods we speak (OpenID Connect Core, section 9). */
export const OIDC_TOKEN_AUTH_METHODS = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
  "none",
] as const;
export type OidcTokenAuthMethod = (typeof OIDC_TOKEN_AUTH_METHODS)[number];

export interface SamlConfig {
  /**
   * The identity provider's metadata: a file path or an https URL (SAML_IDP_METADATA); http only
   * to the machine itself.
   */
  idpMetadata: string;
  label: string;
  /** Our entity id (SAML_SP_ENTITY_ID); default `${PUBLIC_URL}/api/auth/saml/metadata`. */
  spEntityId: string;
  emailAttribute: string;
  indexNumberAttribute: string | null;
  groupsAttribute: string;
  /** Our own key and certificate (PEM files) for signing requests and decrypting; optional. */
  spPrivateKeyFile: string | null;
  spCertificateFile: string | null;
  /** Largest clock difference accepted with the provider, in seconds (SAML_CLOCK_SKEW_SECONDS, 60). */
  clockSkewSeconds: number;
}

export interface SsoConfig {
  oidc: OidcConfig | null;
  saml: SamlConfig | null;
  /** Groups (claim or attribute values) whose members become administrators (SSO_ADMIN_GROUPS). */
  adminGroups: string[];
  /** Email addresses that become administrators (SSO_ADMIN_EMAILS), lower case. */
  adminEmails: string[];
  /**
   * ETS_LOCAL_SIGN_IN: "on" (default) keeps the code sign-up and password sign-in for everyone;
   * "admins-only" keeps password sign-in for administrators only (break-glass); "off" turns both
   * off (only with single sign-on configured).
   */
  localSignIn: LocalSignIn;
}

export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface RateLimits {
  /** Sign-in attempts per client address (RATE_LIMIT_SIGN_IN per minute). */
  signIn: RateLimit;
  /** Sign-ups per client address (RATE_LIMIT_SIGN_UP per 15 minutes). */
  signUp: RateLimit;
  /** Code requests per client address (RATE_LIMIT_CODE_REQUEST per 15 minutes). */
  codeRequest: RateLimit;
  /** Codes mailed per email address, by sign-up or request (RATE_LIMIT_ACCOUNT_CODES per 15 minutes). */
  accountCodes: RateLimit;
  /** Contact-form messages per client address (RATE_LIMIT_CONTACT per hour). */
  contact: RateLimit;
  /** Document uploads per account (RATE_LIMIT_UPLOADS per hour). */
  uploads: RateLimit;
  /** Refused examiner-link tokens per client address (RATE_LIMIT_EXAMINER_LINKS per 15 minutes). */
  examinerLinks: RateLimit;
  /** Single sign-on starts and returns per client address (RATE_LIMIT_SSO per minute). */
  sso: RateLimit;
  /** Requests per API token, on every server together (RATE_LIMIT_API_TOKEN per minute). */
  apiTokens: RateLimit;
  /** Consecutive failed sign-ins before an account starts to slow down (RATE_LIMIT_ACCOUNT_FAILURES). */
  accountFailuresBeforeBackoff: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const positiveCount = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9]\d{0,6}$/, "must be a whole number from 1 to 9999999")
      .transform(Number)
      .default(fallback),
  );

/**
 * Checks a variable with the parser its module uses at start, so a value that passes here is one
 * the app can use. The parsers' messages begin with the variable's name, which the issue's path
 * already gives.
 */
function parsedBy(parse: (value: string) => unknown) {
  return (value: string, ctx: z.RefinementCtx) => {
    try {
      parse(value);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.addIssue({ code: "custom", message: message.replace(/^[A-Z_]+ /, "") });
    }
  };
}

const MINUTE_MS = 60 * 1000;
const MEGABYTE = 1024 * 1024;
/** Upload limits in megabytes; 2000 keeps sizes within a 32-bit integer column. */
const megabytes = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9]\d{0,3}$/, "must be a whole number of megabytes from 1 to 2000")
      .transform(Number)
      .refine((n) => n <= 2000, "must be a whole number of megabytes from 1 to 2000")
      .default(fallback),
  );

/** More server processes than this on one machine is a typo, not a plan. */
const MAX_WORKERS = 256;

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(["development", "production", "test"]).default("development"),
  ),
  PORT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number between 1 and 65535")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 65535, "must be a whole number between 1 and 65535")
      .default(3000),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^https?:\/\/[^/\s]+/.test(v), "must be an http:// or https:// address")
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) => /^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(v),
        "must be sqlite:<path> or postgres://user@host:port/database",
      )
      .default("sqlite:./data/ets.sqlite"),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\/.+/.test(v), "must look like smtp://user:pass@host:port")
      .optional(),
  ),
  REPOSITORY_SWORD_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .superRefine((value, ctx) => {
        const parsed = parseSwordUrl(value);
        if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
      })
      .optional(),
  ),
  ETS_DEPOSIT_INTERVAL_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number of seconds from 1 to 3600")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 3600, "must be a whole number of seconds from 1 to 3600")
      .default(30),
  ),
  ETS_MAIL_TO_LOG: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("off")),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().default("ETS Tracking <no-reply@ets.local>"),
  ),
  ETS_CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.email("must be an email address").optional()),
  ETS_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email("must be an email address").optional()),
  ETS_REPOSITORY_NAME: z.preprocess(emptyToUndefined, z.string().max(200).default("Theses")),
  ETS_INSTITUTION: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  ETS_OAI_ADMIN_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email("must be an email address").optional(),
  ),
  ETS_OAI_IDENTIFIER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*)*$/,
        "must be a host name such as theses.example.edu",
      )
      .optional(),
  ),
  ETS_ADMIN_PASSWORD: optionalString,
  ETS_SAMPLE_DATA: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).optional()),
  ETS_STUDENT_EMAIL_DOMAINS: optionalString,
  ETS_REPORT_OVERDUE_DAYS: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^\d+$/, "must be a whole number of days").transform(Number).default(30),
  ),
  STORAGE_URL: z.preprocess(
    emptyToUndefined,
    z.string().superRefine(parsedBy(parseStorageUrl)).default("file:./data/files"),
  ),
  CLAMD_URL: z.preprocess(
    emptyToUndefined,
    z.string().superRefine(parsedBy(parseClamdUrl)).optional(),
  ),
  ETS_MAX_THESIS_MB: megabytes(100),
  ETS_MAX_FORM_MB: megabytes(10),
  ETS_SHUTDOWN_DEADLINE_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number of seconds from 1 to 600")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 600, "must be a whole number of seconds from 1 to 600")
      .default(10),
  ),
  ETS_WORKERS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9]\d{0,2}$/, `must be a whole number of processes from 1 to ${MAX_WORKERS}`)
      .transform(Number)
      .refine(
        (n) => n <= MAX_WORKERS,
        `must be a whole number of processes from 1 to ${MAX_WORKERS}`,
      )
      .optional(),
  ),
  ETS_REQUEST_TURNS: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false")),
  // Strict defaults (docs/decisions/004-accounts-and-mail.md); tests and the end-to-end suite raise them.
  RATE_LIMIT_SIGN_IN: positiveCount(10),
  RATE_LIMIT_SIGN_UP: positiveCount(5),
  RATE_LIMIT_CODE_REQUEST: positiveCount(5),
  RATE_LIMIT_ACCOUNT_CODES: positiveCount(3),
  RATE_LIMIT_CONTACT: positiveCount(5),
  RATE_LIMIT_ACCOUNT_FAILURES: positiveCount(5),
  RATE_LIMIT_UPLOADS: positiveCount(30),
  RATE_LIMIT_EXAMINER_LINKS: positiveCount(20),
  RATE_LIMIT_SSO: positiveCount(30),
  RATE_LIMIT_API_TOKEN: positiveCount(600),
  ETS_EXAMINER_LINK_DAYS: positiveCount(120),
  ETS_REPORT_DUE_DAYS: positiveCount(42),
  ETS_REMINDER_DAYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^\s*-?\d{1,3}(\s*,\s*-?\d{1,3}){0,19}\s*$/,
        "must be a comma-separated list of whole days relative to the due date, such as -7,0,7,14",
      )
      .default("-7,0,7,14"),
  ),
  ETS_REMINDER_INTERVAL_SECONDS: positiveCount(900),
  OIDC_ISSUER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^https?:\/\/[^/\s]+/.test(v), "must be an http:// or https:// address")
      .optional(),
  ),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_SCOPES: z.preprocess(emptyToUndefined, z.string().default("openid email profile")),
  OIDC_LABEL: z.preprocess(emptyToUndefined, z.string().max(60).default("your university account")),
  OIDC_EMAIL_CLAIM: z.preprocess(emptyToUndefined, z.string().default("email")),
  OIDC_INDEX_NUMBER_CLAIM: optionalString,
  OIDC_GROUPS_CLAIM: z.preprocess(emptyToUndefined, z.string().default("groups")),
  OIDC_TOKEN_AUTH_METHOD: z.preprocess(
    emptyToUndefined,
    z.enum(OIDC_TOKEN_AUTH_METHODS).optional(),
  ),
  OIDC_PRIVATE_KEY_FILE: optionalString,
  OIDC_PRIVATE_KEY_ID: optionalString,
  SAML_IDP_METADATA: optionalString,
  SAML_LABEL: z.preprocess(emptyToUndefined, z.string().max(60).default("your university account")),
  SAML_SP_ENTITY_ID: optionalString,
  SAML_EMAIL_ATTRIBUTE: z.preprocess(emptyToUndefined, z.string().default("email")),
  SAML_INDEX_NUMBER_ATTRIBUTE: optionalString,
  SAML_GROUPS_ATTRIBUTE: z.preprocess(emptyToUndefined, z.string().default("groups")),
  SAML_SP_PRIVATE_KEY_FILE: optionalString,
  SAML_SP_CERTIFICATE_FILE: optionalString,
  SAML_CLOCK_SKEW_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{1,3}$/, "must be a whole number of seconds from 0 to 300")
      .transform(Number)
      .refine((n) => n <= 300, "must be a whole number of seconds from 0 to 300")
      .default(60),
  ),
  SSO_ADMIN_GROUPS: optionalString,
  SSO_ADMIN_EMAILS: optionalString,
  WEBHOOK_ALLOWED_HOSTS: optionalString,
  ETS_LOCAL_SIGN_IN: z.preprocess(
    emptyToUndefined,
    z.enum(["on", "admins-only", "off"]).default("on"),
  ),
});

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];

  if ((e.ETS_ADMIN_EMAIL === undefined) !== (e.ETS_ADMIN_PASSWORD === undefined)) {
    problems.push("ETS_ADMIN_EMAIL and ETS_ADMIN_PASSWORD must be set together");
  }
  if (
    e.ETS_ADMIN_PASSWORD !== undefined &&
    e.ETS_ADMIN_PASSWORD.length < MIN_ADMIN_PASSWORD_LENGTH
  ) {
    problems.push(`ETS_ADMIN_PASSWORD must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`);
  }
  const domains = (e.ETS_STUDENT_EMAIL_DOMAINS ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter((d) => d.length > 0);
  for (const d of domains) {
    if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(d)) {
      problems.push(`ETS_STUDENT_EMAIL_DOMAINS has an invalid domain "${d}"`);
    }
  }
  const reminderDays = [
    ...new Set(
      e.ETS_REMINDER_DAYS.split(",")
        .map((d) => Number(d.trim()))
        .filter((d) => Number.isInteger(d)),
    ),
  ].sort((a, b) => a - b);
  if (e.OIDC_ISSUER !== undefined && e.OIDC_CLIENT_ID === undefined) {
    problems.push("OIDC_CLIENT_ID must be set with OIDC_ISSUER");
  }
  if (e.OIDC_ISSUER === undefined && e.OIDC_CLIENT_ID !== undefined) {
    problems.push("OIDC_ISSUER must be set with OIDC_CLIENT_ID");
  }
  if (
    e.ETS_LOCAL_SIGN_IN !== "on" &&
    e.OIDC_ISSUER === undefined &&
    e.SAML_IDP_METADATA === undefined
  ) {
    problems.push(
      `ETS_LOCAL_SIGN_IN=${e.ETS_LOCAL_SIGN_IN} needs single sign-on (OIDC_ISSUER or SAML_IDP_METADATA), or nobody could sign in`,
    );
  }
  const authMethod = e.OIDC_TOKEN_AUTH_METHOD;
  if (
    (authMethod === "client_secret_basic" || authMethod === "client_secret_post") &&
    e.OIDC_CLIENT_SECRET === undefined
  ) {
    problems.push(`OIDC_TOKEN_AUTH_METHOD=${authMethod} needs OIDC_CLIENT_SECRET`);
  }
  if (authMethod === "private_key_jwt" && e.OIDC_PRIVATE_KEY_FILE === undefined) {
    problems.push(
      "OIDC_TOKEN_AUTH_METHOD=private_key_jwt needs OIDC_PRIVATE_KEY_FILE (our private key, PEM)",
    );
  }
  if (e.OIDC_PRIVATE_KEY_ID !== undefined && e.OIDC_PRIVATE_KEY_FILE === undefined) {
    problems.push("OIDC_PRIVATE_KEY_ID must be set with OIDC_PRIVATE_KEY_FILE");
  }
  if (e.SAML_IDP_METADATA !== undefined && insecureRemoteUrl(e.SAML_IDP_METADATA)) {
    problems.push(
      "SAML_IDP_METADATA must be a file or an https:// URL: the metadata carries the identity provider's signing certificate and is read again every hour, so over http:// anyone on the network path could replace it (http:// is accepted for localhost only)",
    );
  }
  if ((e.SAML_SP_PRIVATE_KEY_FILE === undefined) !== (e.SAML_SP_CERTIFICATE_FILE === undefined)) {
    problems.push("SAML_SP_PRIVATE_KEY_FILE and SAML_SP_CERTIFICATE_FILE must be set together");
  }
  // Mail to the log is for trying the product out: a school in production that forgot SMTP_URL
  // would otherwise mail nobody, silently.
  if (e.NODE_ENV === "production" && e.SMTP_URL === undefined && e.ETS_MAIL_TO_LOG !== "on") {
    problems.push(
      "SMTP_URL must be set when NODE_ENV=production: without it no mail leaves the server (set ETS_MAIL_TO_LOG=on to write mail to the log instead, without its codes and links)",
    );
  }
  const database = parseDatabaseUrl(e.DATABASE_URL);
  // An in-memory SQLite database lives in one process: a second one would see another database.
  const inMemory = database.kind === "sqlite" && database.path === ":memory:";
  if (inMemory && e.ETS_WORKERS !== undefined && e.ETS_WORKERS > 1) {
    problems.push(
      "ETS_WORKERS must be 1 with an in-memory database (DATABASE_URL=sqlite::memory:)",
    );
  }
  const webhookHosts = splitList(e.WEBHOOK_ALLOWED_HOSTS).map((host) =>
    host.toLowerCase().replace(/^\[|\]$/g, ""),
  );
  for (const host of webhookHosts) {
    if (!/^[a-z0-9.:-]+$/.test(host)) {
      problems.push(
        `WEBHOOK_ALLOWED_HOSTS has "${host}", which is not a host name or address (a comma-separated list of hosts, no scheme or port)`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const publicHost = new URL(publicUrl).hostname;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secure: publicUrl.startsWith("https://"),
    database,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    mailSecretsToLog: e.NODE_ENV !== "production",
    contactEmail: e.ETS_CONTACT_EMAIL ?? null,
    universityName: e.ETS_INSTITUTION ?? null,
    publicSite: {
      repositoryName: e.ETS_REPOSITORY_NAME,
      institution: e.ETS_INSTITUTION ?? e.ETS_REPOSITORY_NAME,
      oaiAdminEmail:
        e.ETS_OAI_ADMIN_EMAIL ??
        e.ETS_CONTACT_EMAIL ??
        e.ETS_ADMIN_EMAIL ??
        `webmaster@${publicHost.includes(".") ? publicHost : `${publicHost}.localdomain`}`,
      oaiIdentifierHost: e.ETS_OAI_IDENTIFIER ?? publicHost,
    },
    admin:
      e.ETS_ADMIN_EMAIL && e.ETS_ADMIN_PASSWORD
        ? { email: e.ETS_ADMIN_EMAIL.toLowerCase(), password: e.ETS_ADMIN_PASSWORD }
        : null,
    sampleData: e.ETS_SAMPLE_DATA ? e.ETS_SAMPLE_DATA === "on" : e.NODE_ENV !== "production",
    studentEmailDomains: domains,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === "true",
    reportOverdueDays: e.ETS_REPORT_OVERDUE_DAYS,
    storageUrl: e.STORAGE_URL,
    clamdUrl: e.CLAMD_URL ?? null,
    maxThesisBytes: e.ETS_MAX_THESIS_MB * MEGABYTE,
    maxFormBytes: e.ETS_MAX_FORM_MB * MEGABYTE,
    mailWorker: true,
    mailPollIntervalMs: 2000,
    shutdownDeadlineMs: e.ETS_SHUTDOWN_DEADLINE_SECONDS * 1000,
    requestTurns: e.ETS_REQUEST_TURNS === "on",
    workers: e.ETS_WORKERS ?? (inMemory ? 1 : Math.min(os.availableParallelism(), MAX_WORKERS)),
    rateLimits: {
      signIn: { max: e.RATE_LIMIT_SIGN_IN, windowMs: MINUTE_MS },
      signUp: { max: e.RATE_LIMIT_SIGN_UP, windowMs: 15 * MINUTE_MS },
      codeRequest: { max: e.RATE_LIMIT_CODE_REQUEST, windowMs: 15 * MINUTE_MS },
      accountCodes: { max: e.RATE_LIMIT_ACCOUNT_CODES, windowMs: 15 * MINUTE_MS },
      contact: { max: e.RATE_LIMIT_CONTACT, windowMs: 60 * MINUTE_MS },
      uploads: { max: e.RATE_LIMIT_UPLOADS, windowMs: 60 * MINUTE_MS },
      examinerLinks: { max: e.RATE_LIMIT_EXAMINER_LINKS, windowMs: 15 * MINUTE_MS },
      sso: { max: e.RATE_LIMIT_SSO, windowMs: MINUTE_MS },
      apiTokens: { max: e.RATE_LIMIT_API_TOKEN, windowMs: MINUTE_MS },
      accountFailuresBeforeBackoff: e.RATE_LIMIT_ACCOUNT_FAILURES,
    },
    examiners: {
      linkDays: e.ETS_EXAMINER_LINK_DAYS,
      reportDueDays: e.ETS_REPORT_DUE_DAYS,
      reminderDays,
      reminderIntervalMs: e.ETS_REMINDER_INTERVAL_SECONDS * 1000,
    },
    sso: {
      oidc:
        e.OIDC_ISSUER && e.OIDC_CLIENT_ID
          ? {
              issuer: e.OIDC_ISSUER,
              clientId: e.OIDC_CLIENT_ID,
              clientSecret: e.OIDC_CLIENT_SECRET ?? null,
              scopes: e.OIDC_SCOPES,
              label: e.OIDC_LABEL,
              emailClaim: e.OIDC_EMAIL_CLAIM,
              indexNumberClaim: e.OIDC_INDEX_NUMBER_CLAIM ?? null,
              groupsClaim: e.OIDC_GROUPS_CLAIM,
              tokenAuthMethod: e.OIDC_TOKEN_AUTH_METHOD ?? null,
              privateKeyFile: e.OIDC_PRIVATE_KEY_FILE ?? null,
              privateKeyId: e.OIDC_PRIVATE_KEY_ID ?? null,
            }
          : null,
      saml: e.SAML_IDP_METADATA
        ? {
            idpMetadata: e.SAML_IDP_METADATA,
            label: e.SAML_LABEL,
            spEntityId: e.SAML_SP_ENTITY_ID ?? `${publicUrl}/api/auth/saml/metadata`,
            emailAttribute: e.SAML_EMAIL_ATTRIBUTE,
            indexNumberAttribute: e.SAML_INDEX_NUMBER_ATTRIBUTE ?? null,
            groupsAttribute: e.SAML_GROUPS_ATTRIBUTE,
            spPrivateKeyFile: e.SAML_SP_PRIVATE_KEY_FILE ?? null,
            spCertificateFile: e.SAML_SP_CERTIFICATE_FILE ?? null,
            clockSkewSeconds: e.SAML_CLOCK_SKEW_SECONDS,
          }
        : null,
      adminGroups: splitList(e.SSO_ADMIN_GROUPS),
      adminEmails: splitList(e.SSO_ADMIN_EMAILS).map((email) => email.toLowerCase()),
      localSignIn: e.ETS_LOCAL_SIGN_IN,
    },
    repositorySword: e.REPOSITORY_SWORD_URL ? swordConfigOf(e.REPOSITORY_SWORD_URL) : null,
    depositWorker: true,
    depositIntervalMs: e.ETS_DEPOSIT_INTERVAL_SECONDS * 1000,
    webhooks: { allowedHosts: webhookHosts, worker: true, pollIntervalMs: 1000 },
  };
}

/** The parsed REPOSITORY_SWORD_URL (checked valid by the schema already). */
function swordConfigOf(value: string): SwordConfig {
  const parsed = parseSwordUrl(value);
  if (typeof parsed === "string") throw new ConfigError([`REPOSITORY_SWORD_URL ${parsed}`]);
  return parsed;
}

/**
 * An http:// address of another machine. Plain http is for a provider run on this machine only
 * (development, the tests); anything crossing a network is reached over https.
 */
function insecureRemoteUrl(value: string): boolean {
  if (!/^http:\/\//i.test(value)) return false;
  try {
    return !["localhost", "127.0.0.1", "[::1]"].includes(new URL(value).hostname);
  } catch {
    return true;
  }
}

function splitList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length);
    return { kind: "sqlite", path: file === ":memory:" ? file : path.resolve(file) };
  }
  return { kind: "postgres", url };
}

/** Test-only settings, read here so no other module touches process.env. */
export function readTestEnv(env: Record<string, string | undefined> = process.env) {
  return {
    databaseUrl: env.TEST_DATABASE_URL?.trim() || null,
    browserPath: env.ETS_CHROMIUM_PATH?.trim() || env.CHROMIUM_PATH?.trim() || null,
  };
}

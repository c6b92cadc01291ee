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
  publicUrl: string;
  /** true when PUBLIC_URL is https: cookies get Secure and responses HSTS. */
  secure: boolean;
  database: DatabaseConfig;
  smtpUrl: string | null;
  mailFrom: string;
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
  /** Request limits on sign-in, sign-up, code requests and the contact form (docs/decisions/004). */
  rateLimits: RateLimits;
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
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().default("ETS Tracking <no-reply@ets.local>"),
  ),
  ETS_CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.email("must be an email address").optional()),
  ETS_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email("must be an email address").optional()),
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
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secure: publicUrl.startsWith("https://"),
    database: parseDatabaseUrl(e.DATABASE_URL),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.ETS_CONTACT_EMAIL ?? null,
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
    rateLimits: {
      signIn: { max: e.RATE_LIMIT_SIGN_IN, windowMs: MINUTE_MS },
      signUp: { max: e.RATE_LIMIT_SIGN_UP, windowMs: 15 * MINUTE_MS },
      codeRequest: { max: e.RATE_LIMIT_CODE_REQUEST, windowMs: 15 * MINUTE_MS },
      accountCodes: { max: e.RATE_LIMIT_ACCOUNT_CODES, windowMs: 15 * MINUTE_MS },
      contact: { max: e.RATE_LIMIT_CONTACT, windowMs: 60 * MINUTE_MS },
      uploads: { max: e.RATE_LIMIT_UPLOADS, windowMs: 60 * MINUTE_MS },
      accountFailuresBeforeBackoff: e.RATE_LIMIT_ACCOUNT_FAILURES,
    },
  };
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

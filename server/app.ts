import fs from "node:fs";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { answerFrameworkError, answerWhileClosing } from "./framework-errors.js";
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import { createDatabase, type Db } from "./db/database.js";
import { isDatabaseBusy } from "./db/dialect.js";
import {
  AppError,
  DATABASE_BUSY_MESSAGE,
  DATABASE_BUSY_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  type ErrorBody,
  type FieldError,
} from "./errors.js";
import { authPlugin, requireAdmin, requireStudent, requireUser } from "./auth/plugin.js";
import { SESSION_COOKIE } from "./auth/session.js";
import { contractDocument, contractTransform, contractTransformObject } from "./http/openapi.js";
import { healthRoutes } from "./health/routes.js";
import { accountRoutes } from "./accounts/routes.js";
import { submissionRoutes } from "./submissions/routes.js";
import { messageRoutes } from "./messages/routes.js";
import { contactRoutes } from "./contact/routes.js";
import { adminRoutes } from "./admin/routes.js";
import { apiTokenRoutes } from "./admin/tokens-routes.js";
import { apiTokenAudit } from "./admin/api-token-audit.js";
import { webhookRoutes } from "./admin/webhook-routes.js";
import { dashboardRoutes } from "./dashboard/routes.js";
import { reportRoutes } from "./reports/routes.js";
import { reportDocumentRoutes } from "./reports/document-routes.js";
import { documentRoutes } from "./documents/routes.js";
import { documentReviewRoutes } from "./documents/review-routes.js";
import { examinerRoutes } from "./examiners/routes.js";
import { examinerLinkRoutes } from "./examiners/link-routes.js";
import { reminderRoutes } from "./examiners/reminder-routes.js";
import { examinerReminders } from "./examiners/reminders.js";
import { embargoLifting } from "./publication/embargo.js";
import { publicationRoutes } from "./publication/routes.js";
import { ssoRoutes } from "./accounts/sso/routes.js";
import { samlRoutes } from "./accounts/sso/saml-routes.js";
import { oaiRoutes } from "./publication/oai-routes.js";
import { publicRoutes } from "./publication/public-routes.js";
import { createClamdScanner, type VirusScanner } from "./files/clamd.js";
import { createStorage } from "./files/create-storage.js";
import { parseStorageUrl, redactStorageUrl, type FileStorage } from "./files/storage.js";
import { mailWorker } from "./mail/worker.js";
import { exportRoutes } from "./publication/exports-routes.js";
import { depositRoutes } from "./publication/deposit-routes.js";
import { depositWorker } from "./publication/deposit-service.js";
import { webhookWorker } from "./webhooks/delivery.js";
import { housekeeping } from "./housekeeping.js";
import { describeWait } from "./auth/rate-limits.js";
import { databaseRateLimitStore } from "./auth/rate-limit-store.js";
import { resolveFromRoot } from "./paths.js";
import { takeRequestsInTurns } from "./request-turns.js";
import { validatorCompiler } from "./validation.js";
import { API_COMPRESSION } from "./http/compression.js";
import { systemResolver, type Resolver } from "./http/address-check.js";
import { useSecurityHeaders } from "./http/security-headers.js";
import type { FastifyHelmetOptions } from "@fastify/helmet";
import { AccessLogController, lazyChildLogger } from "./http/request-logging.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Where uploaded documents are stored (STORAGE_URL). */
    storage: FileStorage;
    /** The virus scanner every upload goes through; null when CLAMD_URL is unset. */
    scanner: VirusScanner | null;
  }
}

export interface AppOptions {
  /** A database opened by the caller (tests, the server entry point); otherwise opened from config. */
  db?: Db;
  /** Where the built SPA lives; defaults to dist/web. Tests point it elsewhere or leave it missing. */
  webRoot?: string;
  /** Where log lines go (default stdout). Tests capture them to prove what never reaches the log. */
  logStream?: { write(line: string): void };
  /** A file store opened by the caller (tests choose its staging folder); otherwise from config. */
  storage?: FileStorage;
  /**
   * How outgoing requests' host names are looked up (webhooks); otherwise the system's resolver.
   * Tests give one that answers from a table, so no test ever asks a DNS server off this machine.
   */
  resolveHost?: Resolver;
}

/**
 * @fastify/helmet's options: the page's policy (what the built app loads: its own scripts,
 * styles, images and fonts, nothing framed), and HSTS behind HTTPS. The API's answers get a
 * shorter strict set derived from these (server/http/security-headers.ts, decisions/014).
 */
export function securityHeaderOptions(secure: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: secure ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The Content Security Policy of the API's reference page (/api/docs and its files): the page
 * policy above, and in style-src the hash of the one <style> element Swagger UI (pinned with
 * @fastify/swagger-ui) inserts. A new Swagger UI that inserts another is seen by
 * e2e/api-docs.spec.ts, which fails on any policy violation.
 */
export const API_DOCS_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const API_DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${API_DOCS_STYLE_HASH}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Builds the app without listening: server.ts listens, tests use app.inject. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const ownsDb = options.db === undefined;
  const db = options.db ?? createDatabase(config.database);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secrets never reach the log: tokens, cookies and every password-like field.
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          'res.headers["set-cookie"]',
          "*.password",
          "*.passcode",
          "*.token",
        ],
        censor: "[redacted]",
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Request ids in logs; never echo the client's own.
    genReqId: () => crypto.randomUUID(),
    // One access line per request, and a request's child logger only when something writes
    // through it (server/http/request-logging.ts, docs/decisions/012-request-logging.md).
    logController: new AccessLogController(),
    childLoggerFactory: lazyChildLogger,
    // A path the router cannot decode, or a parameter past maxParamLength, gets the API's error
    // body too, instead of Fastify's, which echoes the whole path back.
    frameworkErrors: answerFrameworkError,
    // Requests arriving while the server closes get the API's error body too (answerWhileClosing,
    // below), not Fastify's own 503.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before every other hook: a closing server answers at once, in the API's own words.
  answerWhileClosing(app);
  // First of the hooks that serve a request: under load, requests start one per turn of the event loop, in arrival
  // order, so connections opened late are accepted and served too (server/request-turns.ts).
  if (config.requestTurns) takeRequestsInTurns(app);
  app.decorate("db", db);
  app.decorate("config", config);
  app.decorate("resolveHost", options.resolveHost ?? systemResolver);
  if (ownsDb) app.addHook("onClose", async () => db.destroy());

  const storage = options.storage ?? createStorage(parseStorageUrl(config.storageUrl));
  app.decorate("storage", storage);
  if (options.storage === undefined) app.addHook("onClose", async () => storage.close());
  app.decorate("scanner", config.clamdUrl ? createClamdScanner(config.clamdUrl) : null);
  // The address without its secret: an S3 URL may carry the access key's secret.
  app.log.info(
    { storage: storage.kind, storageUrl: redactStorageUrl(config.storageUrl) },
    "uploaded documents are stored here",
  );
  if (!config.clamdUrl) {
    app.log.warn("CLAMD_URL is not set: uploaded documents are not scanned for viruses");
  }

  // @fastify/helmet's headers, worked out once at start instead of on every request
  // (server/http/security-headers.ts).
  await useSecurityHeaders(app, securityHeaderOptions(config.secure));
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    // Counted in the database, so every server on it shares each limit.
    store: databaseRateLimitStore(db, { log: app.log }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      success: false,
      code: "rate_limited",
      message: `Too many requests. Please wait ${describeWait(context.ttl)} and try again.`,
    }),
  });
  // The API contract: operation security and common error answers from what each route is
  // (server/http/openapi.ts, docs/decisions/021-api-contract.md).
  const contract = {
    sessionGuards: [requireUser, requireAdmin, requireStudent],
    sessionCookie: SESSION_COOKIE,
    publicUrl: config.publicUrl,
  };
  await app.register(swagger, {
    openapi: contractDocument(contract),
    transform: contractTransform(contract),
    transformObject: contractTransformObject,
  });
  await app.register(authPlugin, { db, config });
  await app.register(apiTokenAudit);
  // Delivers the mail outbox while the app runs, when config.mailWorker is on (not in tests).
  await app.register(mailWorker);
  await app.register(housekeeping);
  await app.register(examinerReminders);
  await app.register(embargoLifting);
  await app.register(depositWorker);
  // Delivers webhooks while the app runs, when config.webhooks.worker is on (not in tests).
  await app.register(webhookWorker);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body, retryAfterSeconds } = toErrorResponse(error);
    if (retryAfterSeconds !== undefined) void reply.header("retry-after", retryAfterSeconds);
    // "unavailable" is a service we depend on being down, not a fault here: said, not hidden.
    if (body.code === "unavailable") request.log.warn({ code: body.code, status }, body.message);
    else if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: body.code, status }, body.message);
    return reply.code(status).send(body);
  });

  await app.register(
    async (api) => {
      // Registered in the API's scope only: the web app's files carry their own build-time copies
      // (below), so nothing is compressed twice. JSON and CSV over 1 KB go out as brotli or gzip;
      // PDFs, XLSX and octet-streams are already packed (mime-db says not compressible) and keep
      // their Content-Length. Request bodies are never inflated: an upload's size limit stays a
      // limit on what arrives, with no decompression bomb behind it.
      await api.register(compress, API_COMPRESSION);
      api.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
      // The interactive reference for people (Swagger UI) over the same document. Its page loads
      // only its own scripts and styles from /api/docs/static, so the product's page policy holds
      // (docs/api.md); its routes are hidden from the document.
      await api.register(swaggerUi, {
        routePrefix: "/docs",
        // Registered inside /api: the page names its files with the whole prefix.
        indexPrefix: "/api",
        uiConfig: { deepLinking: true, displayOperationId: true, tryItOutEnabled: false },
        theme: { title: "ETS Tracking API reference" },
        // The page's policy for this page only: the product's, with one more style, the one
        // <style> element Swagger UI adds as it starts, allowed by its hash (never
        // 'unsafe-inline'). Checked in a browser by e2e/api-docs.spec.ts.
        staticCSP: API_DOCS_POLICY,
      });
      await api.register(healthRoutes);
      await api.register(accountRoutes);
      await api.register(submissionRoutes);
      await api.register(messageRoutes);
      await api.register(contactRoutes);
      await api.register(adminRoutes);
      await api.register(webhookRoutes);
      await api.register(dashboardRoutes);
      await api.register(reportRoutes);
      await api.register(reportDocumentRoutes);
      await api.register(documentRoutes);
      await api.register(documentReviewRoutes);
      await api.register(examinerRoutes);
      await api.register(examinerLinkRoutes);
      await api.register(reminderRoutes);
      await api.register(ssoRoutes);
      await api.register(samlRoutes);
      await api.register(publicationRoutes);
      await api.register(exportRoutes);
      await api.register(depositRoutes);
      await api.register(apiTokenRoutes);
    },
    { prefix: "/api" },
  );
  // The public side of publication, outside /api and before the SPA's history fallback:
  // OAI-PMH, the public thesis pages, downloads, sitemap.xml and robots.txt (decisions/027).
  await app.register(oaiRoutes);
  await app.register(publicRoutes);

  const webRoot = options.webRoot ?? resolveFromRoot("dist", "web");
  const hasWeb = fs.existsSync(path.join(webRoot, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // scripts/compress-assets.mjs writes a .br and a .gz beside each compressible file at build
      // time; the best one the client accepts is sent, with Vary: Accept-Encoding.
      preCompressed: true,
      // The copies are alternate encodings of their file, not pages of their own.
      globIgnore: ["**/*.br", "**/*.gz"],
      // Hashed assets are never revalidated and index.html revalidates by its ETag, so
      // Last-Modified says nothing new; byte ranges of a script are never asked for, and of a
      // pre-compressed copy they would be ranges of the compressed bytes. Each header left out is
      // about 25 to 45 bytes on every script a page loads (issue 11: JavaScript transferred).
      lastModified: false,
      acceptRanges: false,
      setHeaders: (reply, filePath) => {
        reply.header("cache-control", cacheControlFor(path.relative(webRoot, filePath)));
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith("/api/") || url === "/api" || !["GET", "HEAD"].includes(request.method)) {
      return reply
        .code(404)
        .send({ success: false, code: "not_found", message: "Not found." } satisfies ErrorBody);
    }
    if (!hasWeb) {
      return reply
        .code(404)
        .type("text/plain")
        .send("The web app is not built. Run `npm run build` (npm start does it for you).");
    }
    // History fallback: every other page is the SPA's; its router renders 'Page not Found!'.
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });

  return app;
}

const YEAR_IN_SECONDS = 365 * 24 * 60 * 60;

/**
 * Vite names every file under assets/ by its content's hash, so a changed file is a new URL:
 * those are cached for a year and never revalidated. index.html names the current hashes, so it
 * is revalidated on every load (its ETag makes that a 304). Other files (logo, favicon) keep their
 * names across releases: an hour.
 */
function cacheControlFor(relativePath: string): string {
  const file = relativePath.split(path.sep).join("/");
  if (file.startsWith("assets/")) return `public, max-age=${YEAR_IN_SECONDS}, immutable`;
  if (/^index\.html(?:\.br|\.gz)?$/.test(file)) return "no-cache";
  return "public, max-age=3600";
}

function toErrorResponse(error: FastifyError | AppError): {
  status: number;
  body: ErrorBody;
  /** Sent as Retry-After: when the same request is expected to succeed. */
  retryAfterSeconds?: number;
} {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: {
        success: false,
        code: error.code,
        message: error.message,
        ...(error.fields.length > 0 ? { fields: error.fields } : {}),
        ...error.details,
      },
    };
  }
  // PostgreSQL restarting or out of reach: the request may succeed in a moment, so a 503, not a 500.
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { success: false, code: "unavailable", message: DATABASE_UNAVAILABLE_MESSAGE },
    };
  }
  // SQLite's write lock held by another connection past busy_timeout: the same request succeeds
  // in a moment.
  if (isDatabaseBusy(error)) {
    return {
      status: 503,
      body: { success: false, code: "unavailable", message: DATABASE_BUSY_MESSAGE },
      retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS,
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: FieldError[] = error.validation.map((issue) => ({
      field: fieldName(issue.instancePath, issue.params),
      message: issue.message ?? "is invalid",
    }));
    const where = error.validationContext === "body" ? "" : `${error.validationContext} `;
    return {
      status: 400,
      body: {
        success: false,
        code: "validation",
        message: fields.map((f) => `${where}${f.field}: ${f.message}`).join("; "),
        fields,
      },
    };
  }
  if (isResponseSerializationError(error)) {
    return {
      status: 500,
      body: {
        success: false,
        code: "internal",
        message: "Something went wrong on our side. Please try again.",
      },
    };
  }
  const status = typeof error.statusCode === "number" ? error.statusCode : 500;
  if (status === 429) {
    return {
      status,
      body: {
        success: false,
        code: "rate_limited",
        message: error.message || "Too many requests.",
      },
    };
  }
  if (status >= 400 && status < 500) {
    const message =
      error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError
        ? "The request body is not valid JSON."
        : error.code === "FST_ERR_CTP_BODY_TOO_LARGE"
          ? "The request is too large."
          : error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
            ? "Unsupported content type."
            : error.message;
    const code = status === 413 ? "payload_too_large" : status === 404 ? "not_found" : "validation";
    return { status, body: { success: false, code, message } };
  }
  return {
    status: 500,
    body: {
      success: false,
      code: "internal",
      message: "Something went wrong on our side. Please try again.",
    },
  };
}

function fieldName(instancePath: string, params: unknown): string {
  const fromPath = instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (fromPath) return fromPath;
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  return missing ?? "body";
}

import type { FastifyDynamicSwaggerOptions, SwaggerTransformObject } from "@fastify/swagger";
import type { RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";

/**
 * The API contract's one place (docs/decisions/021-api-contract.md): what every operation of
 * /api/openapi.json says about who may call it and the errors it can give, worked out from what
 * the route is, so a route added later is described without its author doing anything:
 *
 * - a session guard (requireUser, requireAdmin, requireStudent), a path under /api/admin/ or a
 *   route that reads its session itself: the session cookie; 401 and 403;
 * - a path under /api/examiner/: the examiner's link (`Authorization: Examiner <token>`);
 * - `config: { tokenScope: "submissions:read" }`: a bearer API token with that scope;
 * - anything else is declared public (`security: []`), never left unsaid;
 * - parameters, a query or a body: 400 (validation); a path parameter: 404; a write: 400 (a body
 *   that is not JSON), 403 (the same-origin check on every cookie write) and 413 (body limits);
 *   `config.rateLimit`: 429;
 * - a download (`produces` in its schema, no JSON answer): its 200, the file in those types.
 *
 * What a route declares itself (a 409 with its own body, a 400 with the rows of a rejected import)
 * is kept as it is; only the answers it does not name are added. Documentation only: responses
 * are added to the document, never to the route, so nothing here changes how an error is sent.
 */

/** The token scopes of issue 21 (the API tokens' branch declares them on its routes). */
export const TOKEN_SCOPES = [
  "submissions:read",
  "submissions:write",
  "documents:read",
  "examinations:read",
  "stats:read",
  "clearance:write",
] as const;

export const SECURITY_SCHEMES = {
  sessionCookie: "sessionCookie",
  examinerLink: "examinerLink",
  apiToken: "apiToken",
} as const;

/** The error answers added to operations, each a shared response in components.responses. */
export const COMMON_ERRORS = {
  400: {
    name: "ValidationFailed",
    description:
      "The request is not valid (code `validation`): `message` says why and `fields` names each field and what is wrong with it.",
  },
  401: {
    name: "Unauthenticated",
    description: "Nobody is signed in, or the credentials are not valid (code `unauthorized`).",
  },
  403: {
    name: "Forbidden",
    description:
      "Signed in without access to this, or a cross-site write refused (code `forbidden`).",
  },
  404: {
    name: "NotFound",
    description: "Nothing with that identifier is on file, or it is not yours (code `not_found`).",
  },
  413: {
    name: "PayloadTooLarge",
    description:
      "The request body is larger than this operation accepts (code `payload_too_large`).",
  },
  429: {
    name: "RateLimited",
    description:
      "Too many requests (code `rate_limited`): `message` says how long to wait; `Retry-After` gives seconds where known.",
  },
} as const;

type CommonStatus = keyof typeof COMMON_ERRORS;

/** Marks an answer this module added, so transformObject can swap it for the shared response. */
const ADDED = "x-ets-common-error";

export interface ContractOptions {
  /** The preHandlers that mean "a signed-in session" (requireUser, requireAdmin, requireStudent). */
  sessionGuards: readonly unknown[];
  /** The session cookie's name. */
  sessionCookie: string;
  /** Where this installation answers (config.publicUrl). */
  publicUrl: string;
}

type OpenApiOption = NonNullable<FastifyDynamicSwaggerOptions["openapi"]>;
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type TransformOutput = ReturnType<typeof jsonSchemaTransform>;
type Route = RouteOptions & { config?: Record<string, unknown> };

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Who may call a route, as its operation's `security` says. */
export function routeSecurity(
  route: Pick<Route, "url" | "onRequest" | "preHandler" | "config">,
  options: Pick<ContractOptions, "sessionGuards">,
): Array<Record<string, string[]>> {
  const security: Array<Record<string, string[]>> = [];
  const url = route.url;
  // A guard may run as onRequest (before the body is read) or as preHandler.
  const preHandlers = [route.onRequest ?? [], route.preHandler ?? []].flat();
  const config = route.config ?? {};
  const session =
    url.startsWith("/api/admin/") ||
    preHandlers.some((handler) => options.sessionGuards.includes(handler)) ||
    config.readsSessionItself === true;
  if (session) security.push({ [SECURITY_SCHEMES.sessionCookie]: [] });
  if (url.startsWith("/api/examiner/")) security.push({ [SECURITY_SCHEMES.examinerLink]: [] });
  const scope = config.tokenScope;
  // OpenAPI 3.0 lets only OAuth2 schemes list scopes: the scope is named in x-token-scope.
  if (typeof scope === "string") security.push({ [SECURITY_SCHEMES.apiToken]: [] });
  return security;
}

/** The common error answers a route can give, from what it is. */
export function routeErrors(
  route: Pick<Route, "url" | "method" | "config" | "schema">,
  security: Array<Record<string, string[]>>,
): CommonStatus[] {
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const config = route.config ?? {};
  const writes = methods.some((method) => WRITE_METHODS.has(method));
  const hasParams = route.url.includes(":") || schema.params !== undefined;
  const statuses = new Set<CommonStatus>();
  if (writes || hasParams || schema.querystring !== undefined || schema.body !== undefined) {
    statuses.add(400);
  }
  const guarded = security.length > 0;
  if (guarded) statuses.add(401);
  const session = security.some((s) => SECURITY_SCHEMES.sessionCookie in s);
  const token = security.some((s) => SECURITY_SCHEMES.apiToken in s);
  if (session || token || writes) statuses.add(403);
  if (hasParams) statuses.add(404);
  if (methods.some((method) => BODY_METHODS.has(method))) statuses.add(413);
  if (config.rateLimit !== undefined || token || route.url.startsWith("/api/examiner/")) {
    statuses.add(429);
  }
  return [...statuses].sort();
}

const ERROR_JSON_SCHEMA = z.toJSONSchema(errorBodySchema, {
  target: "openapi-3.0",
  io: "output",
}) as Record<string, unknown>;
delete ERROR_JSON_SCHEMA.$schema;

/** @fastify/swagger's per-route transform: the zod schemas to JSON Schema, then the contract. */
export function contractTransform(options: ContractOptions) {
  return (input: TransformInput): TransformOutput => {
    const output = jsonSchemaTransform(input);
    const schema = output.schema as Record<string, unknown>;
    if (schema.hide === true) return output;
    const route = input.route as Route;
    const security = routeSecurity(route, options);
    if (schema.security === undefined) schema.security = security;
    const scope = route.config?.tokenScope;
    if (typeof scope === "string") schema["x-token-scope"] = scope;
    const response = { ...((schema.response ?? {}) as Record<string, unknown>) };
    for (const status of routeErrors(route, security)) {
      if (response[status] !== undefined) continue;
      response[status] = {
        ...ERROR_JSON_SCHEMA,
        description: COMMON_ERRORS[status].description,
        [ADDED]: status,
      };
    }
    // A download (a route naming the types it `produces` and no JSON answer): its 200 is the file.
    const produces = schema.produces;
    const succeeds = Object.keys(response).some((status) => status.startsWith("2"));
    if (!succeeds && Array.isArray(produces) && produces.length > 0) {
      response[200] = {
        description: "The file, as the answer's body",
        type: "string",
        format: "binary",
      };
    }
    schema.response = response;
    return output;
  };
}

type OpenApiDocument = Record<string, unknown> & {
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

/**
 * The whole document's part, once every route is in: each added error answer becomes a reference
 * to its shared response, and shared responses no operation uses are left out.
 */
export const contractTransformObject: SwaggerTransformObject = (input) => {
  if (!("openapiObject" in input)) return input.swaggerObject;
  const document = input.openapiObject as OpenApiDocument;
  const used = new Set<string>();
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const responses = operation.responses ?? {};
      for (const [status, answer] of Object.entries(responses)) {
        const added = addedStatus(answer);
        if (added === null) continue;
        const name = COMMON_ERRORS[added].name;
        used.add(name);
        responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  const shared = document.components?.responses ?? {};
  for (const name of Object.keys(shared)) {
    const common = Object.values(COMMON_ERRORS).some((error) => error.name === name);
    if (common && !used.has(name)) delete shared[name];
  }
  return document as ReturnType<SwaggerTransformObject>;
};

function addedStatus(answer: unknown): CommonStatus | null {
  if (typeof answer !== "object" || answer === null) return null;
  const content = (answer as { content?: Record<string, { schema?: Record<string, unknown> }> })
    .content;
  for (const media of Object.values(content ?? {})) {
    const status = media.schema?.[ADDED];
    if (typeof status === "number" && status in COMMON_ERRORS) return status as CommonStatus;
  }
  return null;
}

/**
 * @fastify/swagger's `openapi` option: info, servers, tags, the security schemes (which must be
 * there before any route's `security` names them), the error shape and its shared responses.
 */
export function contractDocument(options: ContractOptions): OpenApiOption {
  const { publicUrl } = options;
  const responses = Object.fromEntries(
    Object.entries(COMMON_ERRORS).map(([status, { name, description }]) => [
      name,
      {
        description,
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        ...(status === "429"
          ? {
              headers: {
                "Retry-After": {
                  description: "Seconds to wait before trying again, where known.",
                  schema: { type: "integer" as const },
                },
              },
            }
          : {}),
      },
    ]),
  );
  return {
    openapi: "3.0.3",
    info: {
      title: "ETS Tracking API",
      version: "1.0.0",
      description:
        "Thesis submission tracking for a School of Graduate Studies. Every failing answer carries the shared error body (`success: false`, `code`, `message`, and `fields` for validation). The interactive reference is at /api/docs.",
      contact: { name: "School of Graduate Studies", url: `${publicUrl}/contact` },
      license: { name: "Proprietary", url: `${publicUrl}/about` },
    },
    servers: [{ url: publicUrl, description: "This installation" }],
    tags: [
      { name: "health", description: "Whether the server and its database answer" },
      { name: "accounts", description: "Sign-up, sign-in, sessions and passwords" },
      { name: "submissions", description: "Submissions, their status and their history" },
      { name: "import", description: "Spreadsheet import and export of submissions" },
      { name: "messages", description: "Students' messages and administrators' notices" },
      { name: "contact", description: "The public contact form" },
      {
        name: "admin",
        description: "Accounts, contact messages and failed mail, for administrators",
      },
      { name: "dashboard", description: "Figures for the administrator's dashboard" },
      { name: "documents", description: "Checklist documents: uploads, review and downloads" },
      { name: "examiners", description: "Examiners, nominations, links, reports and outcomes" },
      { name: "examiner", description: "The examiner's own pages, through their personal link" },
      {
        name: "publication",
        description:
          "Publication in the library: licences, embargoes, degrees, deposits (SWORD) and exports",
      },
      {
        name: "reports",
        description: "Report figures, their tables as CSV or XLSX, and the dean's PDF",
      },
      {
        name: "integrations",
        description:
          "Other systems of the university, through API tokens: Financial Clearance and the registrar's upsert",
      },
    ],
    components: {
      schemas: { Error: ERROR_JSON_SCHEMA },
      responses,
      securitySchemes: {
        [SECURITY_SCHEMES.sessionCookie]: {
          type: "apiKey" as const,
          in: "cookie",
          name: options.sessionCookie,
          description:
            "The HttpOnly session cookie set by signing in (POST /api/user_sign_in or single sign-on). Writes with it must come from this site (Origin or Referer).",
        },
        [SECURITY_SCHEMES.examinerLink]: {
          type: "apiKey" as const,
          in: "header",
          name: "Authorization",
          description:
            "An examiner's personal link: `Authorization: Examiner <token>`, the token from the link mailed to the examiner. Never a cookie.",
        },
        [SECURITY_SCHEMES.apiToken]: {
          type: "http" as const,
          scheme: "bearer",
          description: `An API token an administrator created, as \`Authorization: Bearer <token>\`. Each token holds scopes (${TOKEN_SCOPES.join(", ")}); the scope an operation needs is its \`x-token-scope\`.`,
        },
      },
    },
  };
}

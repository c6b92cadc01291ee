import { createConfig, lintFromString } from "@redocly/openapi-core";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createTestApp,
  createTestDatabase,
  testConfig,
  type TestApp,
  type TestDatabase,
} from "../../testing/test-app.js";
import { API_DOCS_POLICY, buildApp } from "../app.js";
import { requireAdmin } from "../auth/plugin.js";
import { TOKEN_SCOPES } from "./openapi.js";
import { NOT_A_DOCUMENT_POLICY } from "./security-headers.js";

/**
 * The API contract (docs/decisions/021-api-contract.md): the served /api/openapi.json passes
 * Redocly's recommended rules with no error, and every operation is named, summarised, says who
 * may call it and documents its client errors. A failure says which operation lacks what, so a
 * route added without an operationId is a one-line fix.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { $ref?: string }>;
  "x-token-scope"?: string;
}
interface OpenApiDocument {
  openapi: string;
  info: { contact?: unknown; license?: unknown };
  servers?: unknown[];
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string }>;
    responses: Record<string, unknown>;
  };
}

/**
 * Operations that can give no client error at all: public reads without parameters, query or
 * body, and no rate limit. Redocly warns about each (operation-4xx-response), by design.
 */
const NO_CLIENT_ERROR = new Set(["getHealth", "getReadiness", "getSession", "getSsoOptions"]);

/** Past this many, a failure lists the first ones and says how many more there are. */
const SHOWN = 40;

function listed(problems: string[]): string {
  const shown = problems.slice(0, SHOWN).join("\n");
  return problems.length > SHOWN ? `${shown}\n…and ${problems.length - SHOWN} more` : shown;
}

function operations(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}${operation.operationId ? ` (${operation.operationId})` : ""}`,
      operation,
    })),
  );
}

/** What the issue's own checks find wrong with one operation, in words. */
function contractProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  const schemes = new Set(Object.keys(document.components.securitySchemes));
  for (const { name, operation } of operations(document)) {
    if (!operation.operationId)
      problems.push(`${name}: no operationId (add one beside its summary)`);
    else if (!/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId)) {
      problems.push(`${name}: operationId is not camelCase`);
    }
    if (!operation.summary) problems.push(`${name}: no summary`);
    if (!Array.isArray(operation.security)) {
      problems.push(`${name}: no security (a scheme, or [] for a public operation)`);
    } else {
      for (const requirement of operation.security) {
        for (const scheme of Object.keys(requirement)) {
          if (!schemes.has(scheme)) problems.push(`${name}: security names unknown ${scheme}`);
        }
      }
    }
    const statuses = Object.keys(operation.responses ?? {});
    const clientError = statuses.some((status) => /^4\d\d$/.test(status));
    if (!clientError && !NO_CLIENT_ERROR.has(operation.operationId ?? "")) {
      problems.push(`${name}: documents no 4xx answer`);
    }
  }
  return problems;
}

async function served(app: FastifyInstance): Promise<{ text: string; document: OpenApiDocument }> {
  const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  return { text: res.body, document: res.json<OpenApiDocument>() };
}

describe("the API contract (/api/openapi.json)", () => {
  let t: TestApp;
  let text: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    ({ text, document } = await served(t.app));
  });
  afterAll(async () => t.close());

  it("passes Redocly's recommended rules with no error", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: text,
      absoluteRef: "/api/openapi.json",
      config,
    });
    const errors = problems
      .filter((problem) => problem.severity === "error")
      .map(
        (problem) =>
          `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? "?"}`,
      );
    expect(errors, listed(errors)).toEqual([]);
    // The linter ran on the document: it reads operations (so a broken one would be seen).
    expect(operations(document).length).toBeGreaterThan(50);
  });

  it("names, summarises and secures every operation and documents its client errors", () => {
    const problems = contractProblems(document);
    expect(problems, listed(problems)).toEqual([]);
    const ids = operations(document).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("finds what an operation lacks and says which one", () => {
    const broken = structuredClone(document);
    const status = broken.paths["/api/submissions"]!.get!;
    delete status.operationId;
    delete status.security;
    status.responses = { 200: {} };
    expect(contractProblems(broken)).toEqual([
      "GET /api/submissions: no operationId (add one beside its summary)",
      "GET /api/submissions: no security (a scheme, or [] for a public operation)",
      "GET /api/submissions: documents no 4xx answer",
    ]);
  });

  it("declares the servers, contact, licence, and a description for every tag used", () => {
    expect(document.servers).toEqual([
      { url: t.config.publicUrl, description: "This installation" },
    ]);
    expect(document.info.contact).toBeDefined();
    expect(document.info.license).toBeDefined();
    const described = new Set(
      (document.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name),
    );
    const used = new Set(
      operations(document).flatMap(
        ({ operation }) => (operation as { tags?: string[] }).tags ?? [],
      ),
    );
    const undescribed = [...used].filter((tag) => !described.has(tag));
    expect(undescribed, `tags with no description in server/http/openapi.ts`).toEqual([]);
  });

  it("says who may call each operation from what the route is", () => {
    const op = (path: string, method: string) => document.paths[path]![method]!;
    // requireAdmin (and everything under /api/admin/): the session cookie, 401 and 403; a route
    // naming no tokenScope (the API tokens' own) takes the session only.
    expect(op("/api/admin/api-tokens", "get").security).toEqual([{ sessionCookie: [] }]);
    expect(op("/api/admin/api-tokens", "get")).not.toHaveProperty("x-token-scope");
    expect(Object.keys(op("/api/admin/api-tokens", "get").responses!)).toEqual(
      expect.arrayContaining(["401", "403"]),
    );
    // A route naming a tokenScope (the submissions list, the dashboard's figures) also takes an
    // API token with that scope.
    expect(op("/api/submissions", "get").security).toEqual([
      { sessionCookie: [] },
      { apiToken: [] },
    ]);
    expect(op("/api/submissions", "get")["x-token-scope"]).toBe("submissions:read");
    expect(op("/api/admin/stats", "get")["x-token-scope"]).toBe("stats:read");
    expect(Object.keys(op("/api/admin/stats", "get").responses!)).toEqual(
      expect.arrayContaining(["401", "403"]),
    );
    // The examiner's link.
    expect(op("/api/examiner/assignment", "get").security).toEqual([{ examinerLink: [] }]);
    // Public, and said so.
    expect(op("/api/contact", "post").security).toEqual([]);
    expect(op("/api/health", "get").security).toEqual([]);
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { type: "apiKey", in: "cookie", name: "ets_session" },
      examinerLink: { type: "apiKey", in: "header", name: "Authorization" },
      apiToken: { type: "http", scheme: "bearer" },
    });
  });

  it("adds the common error answers a route can give, and keeps the route's own", () => {
    const op = (path: string, method: string) => document.paths[path]![method]!;
    const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
    // A path parameter: 400 and 404; a write: 413; a rate limit: 429.
    const deactivate = op("/api/admin/users/{id}/deactivate", "post").responses!;
    expect(deactivate["404"]).toEqual(ref("NotFound"));
    expect(deactivate["400"]).toEqual(ref("ValidationFailed"));
    expect(deactivate["413"]).toEqual(ref("PayloadTooLarge"));
    expect(op("/api/contact", "post").responses!["429"]).toEqual(ref("RateLimited"));
    // The edit's own 409 (a stale version or moves to confirm) stays as the route wrote it.
    const edit = op("/api/admin/submissions/{id}", "patch").responses!;
    expect(edit["409"]).not.toHaveProperty("$ref");
    expect(edit["409"]).toHaveProperty("content");
    // A download's 200 is the file, in the types its route produces.
    const file = op("/api/documents/{id}/file", "get").responses!["200"] as {
      content?: Record<string, { schema?: { format?: string } }>;
    };
    expect(file.content?.["application/pdf"]?.schema?.format).toBe("binary");
    // A read without parameters gets no 404.
    expect(op("/api/admin/stats", "get").responses).not.toHaveProperty("404");
  });
});

describe("the reference page (/api/docs)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it("serves Swagger UI under its own policy, and the same document", async () => {
    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["content-security-policy"]).toBe(API_DOCS_POLICY);
    expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
    // Its files are named under /api/docs, not beside the page.
    expect(page.body).toContain('src="/api/docs/static/swagger-ui-bundle.js"');
    const script = await t.app.inject({
      method: "GET",
      url: "/api/docs/static/swagger-initializer.js",
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-security-policy"]).toBe(API_DOCS_POLICY);
    const fromUi = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    const served = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(fromUi.json()).toEqual(served.json());
    // The policy is the page's only: the API's answers keep the strict one.
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.headers["content-security-policy"]).toBe(NOT_A_DOCUMENT_POLICY);
    // The page's routes are not operations of the contract.
    expect(Object.keys(served.json<OpenApiDocument>().paths)).not.toContain("/api/docs");
  });
});

describe("an operation a token may call (config.tokenScope)", () => {
  let app: FastifyInstance;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp(testConfig({ DATABASE_URL: database.url }), { db: database.db });
    // A route of this test's own, declared the way the API tokens' routes are.
    const config: Record<string, unknown> = { tokenScope: "stats:read" };
    const tokenRoute: FastifyPluginAsyncZod = async (api) => {
      api.get(
        "/api/contract-test/figures",
        {
          preHandler: requireAdmin,
          config,
          schema: {
            tags: ["dashboard"],
            operationId: "getContractTestFigures",
            summary: "Figures for the contract test",
            response: { 200: z.object({ count: z.number() }) },
          },
        },
        async () => ({ count: 1 }),
      );
    };
    await app.register(tokenRoute);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("declares the bearer token beside the session, names the scope, and adds 429", async () => {
    const { document, text } = await served(app);
    const operation = document.paths["/api/contract-test/figures"]!.get!;
    expect(operation.security).toEqual([{ sessionCookie: [] }, { apiToken: [] }]);
    expect(operation["x-token-scope"]).toBe("stats:read");
    expect(TOKEN_SCOPES).toContain(operation["x-token-scope"]);
    expect(Object.keys(operation.responses!)).toEqual(
      expect.arrayContaining(["401", "403", "429"]),
    );
    expect(contractProblems(document)).toEqual([]);
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: "/x.json", config });
    expect(problems.filter((problem) => problem.severity === "error")).toEqual([]);
  });
});

import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  NOT_A_DOCUMENT_POLICY,
  computeSecurityHeaderSets,
  computeSecurityHeaders,
  useSecurityHeaders,
} from "./security-headers.js";

const OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] },
  },
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  crossOriginEmbedderPolicy: false,
};

/** The headers an answer carries, without the ones that differ from one answer to the next. */
function stable(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, "content-length": _length, ...rest } = headers;
  return rest;
}

describe("security headers worked out once", () => {
  it("are the headers @fastify/helmet sets, for the same options, on a page", async () => {
    const page = "<!doctype html><title>x</title>";
    const withHelmet = Fastify();
    await withHelmet.register(helmet, OPTIONS);
    withHelmet.get("/x", async (_request, reply) => reply.type("text/html").send(page));
    const once = Fastify();
    await useSecurityHeaders(once, OPTIONS);
    once.get("/x", async (_request, reply) => reply.type("text/html").send(page));
    const expected = await withHelmet.inject({ method: "GET", url: "/x" });
    const actual = await once.inject({ method: "GET", url: "/x" });
    expect(stable(actual.headers)).toEqual(stable(expected.headers));
    expect(actual.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    await withHelmet.close();
    await once.close();
  });

  it("give an answer that is not a page the strict policy and leave out the page-only headers", async () => {
    const once = Fastify();
    await useSecurityHeaders(once, OPTIONS);
    once.get("/api/x", async () => ({ ok: true }));
    once.get("/assets/script-abc123.js", async (_request, reply) =>
      reply.type("text/javascript").send("export {};"),
    );
    const { document, other } = await computeSecurityHeaderSets(OPTIONS);
    for (const url of ["/api/x", "/assets/script-abc123.js", "/api/missing"]) {
      const res = await once.inject({ method: "GET", url });
      expect(res.headers["content-security-policy"]).toBe(NOT_A_DOCUMENT_POLICY);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      for (const name of Object.keys(document)) {
        if (name in other) continue;
        expect(res.headers[name], name).toBeUndefined();
      }
    }
    expect(Object.keys(other).length).toBeLessThan(Object.keys(document).length);
    await once.close();
  });

  it("keep a header the route set itself", async () => {
    const once = Fastify();
    await useSecurityHeaders(once, OPTIONS);
    once.get("/api/download", async (_request, reply) =>
      reply
        .header("content-security-policy", "default-src 'none'; sandbox")
        .type("application/pdf")
        .send(Buffer.from("%PDF-1.4")),
    );
    const res = await once.inject({ method: "GET", url: "/api/download" });
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    await once.close();
  });

  it("forbid keeping a copy of an API answer, unless the route set its own caching", async () => {
    const once = Fastify();
    await useSecurityHeaders(once, OPTIONS);
    once.get("/api/x", async () => ({ ok: true }));
    once.get("/api/own", async (_request, reply) =>
      reply.header("cache-control", "private, max-age=60").send({ ok: true }),
    );
    once.get("/assets/script-abc123.js", async (_request, reply) =>
      reply.type("text/javascript").send("export {};"),
    );
    once.get("/", async (_request, reply) => reply.type("text/html").send("<!doctype html>"));
    for (const url of ["/api/x", "/api/missing"]) {
      const res = await once.inject({ method: "GET", url });
      expect(res.headers["cache-control"], url).toBe("no-store");
    }
    const own = await once.inject({ method: "GET", url: "/api/own" });
    expect(own.headers["cache-control"]).toBe("private, max-age=60");
    // Pages and assets keep the caching the static files' route gives them (server/app.ts).
    for (const url of ["/assets/script-abc123.js", "/"]) {
      const res = await once.inject({ method: "GET", url });
      expect(res.headers["cache-control"], url).toBeUndefined();
    }
    await once.close();
  });

  it("include the Content Security Policy and leave out what the options turn off", async () => {
    const headers = await computeSecurityHeaders(OPTIONS);
    expect(headers["content-security-policy"]).toBe("default-src 'self';frame-ancestors 'none'");
    expect(headers["cross-origin-embedder-policy"]).toBeUndefined();
    expect(headers["content-type"]).toBeUndefined();
  });
});

describe("the app's answers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("carry the security headers on a 404 and on a refused request too", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-security-policy"]).toBe(NOT_A_DOCUMENT_POLICY);
    expect(missing.headers["x-frame-options"]).toBe("SAMEORIGIN");
    const refused = await t.app.inject({ method: "GET", url: "/api/submissions" });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
  });
});

import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { computeSecurityHeaders, useSecurityHeaders } from "./security-headers.js";

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
  it("are the headers @fastify/helmet sets, for the same options", async () => {
    const withHelmet = Fastify();
    await withHelmet.register(helmet, OPTIONS);
    withHelmet.get("/x", async () => ({ ok: true }));
    const once = Fastify();
    await useSecurityHeaders(once, OPTIONS);
    once.get("/x", async () => ({ ok: true }));
    const expected = await withHelmet.inject({ method: "GET", url: "/x" });
    const actual = await once.inject({ method: "GET", url: "/x" });
    expect(stable(actual.headers)).toEqual(stable(expected.headers));
    expect(actual.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    await withHelmet.close();
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
    expect(missing.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(missing.headers["x-frame-options"]).toBe("SAMEORIGIN");
    const refused = await t.app.inject({ method: "GET", url: "/api/submissions" });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
  });
});

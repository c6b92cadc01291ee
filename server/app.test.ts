import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "./app.js";
import { createTestApp, createTestDatabase, testConfig, type TestApp } from "../testing/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("server skeleton", () => {
  it("answers GET /api/health with 200 when the database is reachable", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 from /api/health when the database is gone", async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), { db: database.db });
    await database.drop();
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    await app.close();
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: "not_found" });
  });

  it("sends security headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("publishes an OpenAPI document built from the route schemas", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths).toHaveProperty("/api/health");
  });

  it("serves the built SPA with a history fallback and never for /api", async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ets-web-"));
    fs.writeFileSync(
      path.join(webRoot, "index.html"),
      "<!doctype html><title>ETS Tracking</title>",
    );
    fs.writeFileSync(path.join(webRoot, "app.js"), "console.log(1)");
    const database = await createTestDatabase();
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
      db: database.db,
      webRoot,
    });
    try {
      const deep = await app.inject({ method: "GET", url: "/admin/all_submissions?q=abena" });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain("<title>ETS Tracking</title>");
      const asset = await app.inject({ method: "GET", url: "/app.js" });
      expect(asset.body).toBe("console.log(1)");
      const api = await app.inject({ method: "GET", url: "/api/unknown" });
      expect(api.statusCode).toBe(404);
      expect(api.headers["content-type"]).toContain("application/json");
    } finally {
      await app.close();
      await database.drop();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

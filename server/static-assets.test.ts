import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";
import { addDocumentVersion, uniquePdf } from "../testing/documents.js";
import { resolveFromRoot } from "./paths.js";
import { NOT_A_DOCUMENT_POLICY } from "./http/security-headers.js";

/**
 * The web app's files leave with the build's brotli or gzip copy and a cache lifetime that suits
 * their name; the API compresses large JSON on the fly and leaves PDFs as they are. The web root
 * is a small built app of this test's own, its copies written by the real build step
 * (scripts/compress-assets.mjs).
 */

const IMMUTABLE = "public, max-age=31536000, immutable";
const BOTH = "gzip, deflate, br";

// Big enough to be worth compressing; repetitive like real bundles.
const script = Array.from(
  { length: 200 },
  (_, i) => `export function step${i}(value) { return value + ${i}; }`,
).join("\n");
const indexHtml = [
  "<!doctype html>",
  '<html lang="en"><head><meta charset="UTF-8"><title>ETS Tracking</title>',
  '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head>',
  `<body><div id="root"></div><!-- ${"padding ".repeat(200)}--></body></html>`,
].join("\n");
const tinyScript = "export const one = 1;\n";
const logo = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1"/></svg>';
const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(4096)]);

let webRoot: string;
let filesDir: string;
let database: TestDatabase;
let app: FastifyInstance;
let admin: TestUser;

beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ets-web-"));
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-test-files-"));
  fs.mkdirSync(path.join(webRoot, "assets"));
  fs.writeFileSync(path.join(webRoot, "index.html"), indexHtml);
  fs.writeFileSync(path.join(webRoot, "logo.svg"), logo);
  fs.writeFileSync(path.join(webRoot, "assets", "index-abc123.js"), script);
  fs.writeFileSync(path.join(webRoot, "assets", "tiny-def456.js"), tinyScript);
  fs.writeFileSync(path.join(webRoot, "assets", "photo-0a1b2c.png"), png);
  execFileSync(process.execPath, [resolveFromRoot("scripts", "compress-assets.mjs"), webRoot], {
    stdio: "pipe",
  });

  database = await createTestDatabase();
  app = await buildApp(
    testConfig({ DATABASE_URL: database.url, STORAGE_URL: `file:${filesDir}` }),
    { db: database.db, webRoot },
  );
  await app.ready();
  admin = await createUser(database.db, "admin");
  for (let i = 0; i < 30; i += 1) {
    await makeSubmission(database.db, { studentName: `Compressed Student ${i}` });
  }
});

afterAll(async () => {
  await app.close();
  await database.drop();
  fs.rmSync(webRoot, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: "GET", url, headers });
}

describe("the build step (scripts/compress-assets.mjs)", () => {
  it("writes a brotli and a gzip copy of each text file of 1 KB or more, and of nothing else", () => {
    const original = fs.readFileSync(path.join(webRoot, "assets", "index-abc123.js"));
    const br = fs.readFileSync(path.join(webRoot, "assets", "index-abc123.js.br"));
    const gz = fs.readFileSync(path.join(webRoot, "assets", "index-abc123.js.gz"));
    expect(zlib.brotliDecompressSync(br).equals(original)).toBe(true);
    expect(zlib.gunzipSync(gz).equals(original)).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
    expect(fs.existsSync(path.join(webRoot, "index.html.br"))).toBe(true);
    expect(fs.existsSync(path.join(webRoot, "index.html.gz"))).toBe(true);
    // Under 1 KB, or a format that is compressed already.
    for (const skipped of ["assets/tiny-def456.js", "logo.svg", "assets/photo-0a1b2c.png"]) {
      expect(fs.existsSync(path.join(webRoot, `${skipped}.br`)), skipped).toBe(false);
      expect(fs.existsSync(path.join(webRoot, `${skipped}.gz`)), skipped).toBe(false);
    }
  });
});

describe("hashed assets", () => {
  it("sends the brotli copy to a browser that accepts brotli", async () => {
    const res = await get("/assets/index-abc123.js", { "accept-encoding": BOTH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toContain("javascript");
    expect(res.headers.vary).toContain("accept-encoding");
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it("sends the gzip copy when the browser accepts gzip only", async () => {
    const res = await get("/assets/index-abc123.js", { "accept-encoding": "gzip, deflate" });
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers.vary).toContain("accept-encoding");
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it("sends the file itself without Accept-Encoding, still saying it varies on it", async () => {
    const res = await get("/assets/index-abc123.js");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.vary).toContain("accept-encoding");
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(res.body).toBe(script);
  });

  it("sends a small asset as it is, cached as long as the others", async () => {
    const res = await get("/assets/tiny-def456.js", { "accept-encoding": BOTH });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(res.body).toBe(tinyScript);
  });

  it("sends an image as it is", async () => {
    const res = await get("/assets/photo-0a1b2c.png", { "accept-encoding": BOTH });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it("does not serve the compressed copies as files of their own", async () => {
    const res = await get("/assets/index-abc123.js.br", { "accept-encoding": BOTH });
    // The SPA's history fallback answers, as for every path that is not a file.
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(indexHtml);
  });
});

describe("index.html and the other files", () => {
  it("revalidates index.html on every load, served by name", async () => {
    const res = await get("/index.html", { "accept-encoding": BOTH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toContain("accept-encoding");
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(indexHtml);
  });

  it("revalidates index.html sent as the history fallback for the root and deep links", async () => {
    for (const url of ["/", "/admin/all_submissions?q=abena"]) {
      const res = await get(url, { "accept-encoding": "gzip" });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(res.headers["content-encoding"], url).toBe("gzip");
      expect(res.headers["content-type"], url).toContain("text/html");
      expect(zlib.gunzipSync(res.rawPayload).toString(), url).toBe(indexHtml);
    }
    const plain = await get("/dashboard/status");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe("no-cache");
    expect(plain.body).toBe(indexHtml);
  });

  it("gives pages the page's security headers and scripts the short set, 304s included", async () => {
    const page = await get("/dashboard/status");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin");
    const notModified = await get("/", { "if-none-match": String(page.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers["content-security-policy"]).toBe(
      page.headers["content-security-policy"],
    );
    const asset = await get("/assets/index-abc123.js", { "accept-encoding": "br" });
    expect(asset.headers["content-security-policy"]).toBe(NOT_A_DOCUMENT_POLICY);
    // Revalidated by ETag only; no byte ranges.
    expect(asset.headers["last-modified"]).toBeUndefined();
    expect(asset.headers["accept-ranges"]).toBeUndefined();
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers["cross-origin-opener-policy"]).toBeUndefined();
    const assetAgain = await get("/assets/index-abc123.js", {
      "accept-encoding": "br",
      "if-none-match": String(asset.headers.etag),
    });
    expect(assetAgain.statusCode).toBe(304);
    expect(assetAgain.headers["content-security-policy"]).toBe(NOT_A_DOCUMENT_POLICY);
  });

  it("answers a revalidation of index.html with 304 while it is unchanged", async () => {
    const first = await get("/", { "accept-encoding": "br" });
    const etag = first.headers.etag;
    expect(typeof etag).toBe("string");
    const again = await get("/", { "accept-encoding": "br", "if-none-match": String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers["cache-control"]).toBe("no-cache");
    expect(again.rawPayload.length).toBe(0);
  });

  it("caches files without a hash in their name (the logo) for a short while only", async () => {
    const res = await get("/logo.svg", { "accept-encoding": BOTH });
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    // Too small for a build-time copy, and the API's compression does not reach the web files.
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toBe(logo);
  });
});

describe("API answers", () => {
  it("compresses a large JSON list for a client that accepts brotli, and only then", async () => {
    const url = "/api/submissions?q=Compressed%20Student&pageSize=30";
    const res = await get(url, { ...admin.headers, "accept-encoding": "br" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toContain("accept-encoding");
    const list = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString()) as {
      items: unknown[];
      total: number;
    };
    expect(list.items).toHaveLength(30);
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(list).length / 2);

    const gzip = await get(url, { ...admin.headers, "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(list);

    const plain = await get(url, admin.headers);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json()).toEqual(list);
  });

  it("leaves a small JSON answer as it is", async () => {
    const res = await get("/api/health", { "accept-encoding": "br" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("sends a PDF download as it is, with its Content-Length", async () => {
    const submission = await makeSubmission(database.db);
    // Larger than the threshold, so only its type keeps it from being compressed.
    const bytes = Buffer.concat([uniquePdf(), Buffer.from(`%${"x".repeat(4096)}\n`)]);
    const { version } = await addDocumentVersion(app, {
      submissionId: submission.id,
      item: "thesis",
      uploadedBy: admin.id,
      bytes,
    });
    const res = await get(`/api/documents/${version.id}/file?download=1`, {
      ...admin.headers,
      "accept-encoding": BOTH,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["content-length"]).toBe(String(bytes.length));
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it("streams a CSV export compressed, whole once decompressed", async () => {
    const res = await get("/api/admin/export?format=csv&q=Compressed%20Student", {
      ...admin.headers,
      "accept-encoding": "br",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-encoding"]).toBe("br");
    const csv = zlib.brotliDecompressSync(res.rawPayload).toString();
    const rows = csv.trim().split(/\r?\n/);
    // The header and the thirty students made at the start.
    expect(rows).toHaveLength(31);
    expect(csv).toContain("Compressed Student 29");
  });
});

import zlib from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";

// The API's answers over 1 KB go out compressed when the client accepts it (API_COMPRESSION), and
// small ones as they are.

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  for (let i = 0; i < 12; i += 1) await makeSubmission(t.db, { programme: "MPhil Compression" });
});
afterAll(async () => {
  await t.close();
});

const list = (acceptEncoding: string | undefined) =>
  t.app.inject({
    method: "GET",
    url: "/api/submissions?q=&programme=MPhil%20Compression",
    headers: { ...admin.bearer, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) },
  });

it("sends a large JSON answer as brotli, else gzip, else as it is, with the same content", async () => {
  const plain = await list(undefined);
  expect(plain.statusCode).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.rawPayload.length).toBeGreaterThan(1024);
  const br = await list("gzip, br");
  expect(br.headers["content-encoding"]).toBe("br");
  expect(br.headers.vary).toContain("accept-encoding");
  expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  const gzip = await list("gzip");
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
});

it("sends a small JSON answer as it is", async () => {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/me",
    headers: { ...admin.bearer, "accept-encoding": "br" },
  });
  expect(res.statusCode).toBe(200);
  expect(res.rawPayload.length).toBeLessThan(1024);
  expect(res.headers["content-encoding"]).toBeUndefined();
});

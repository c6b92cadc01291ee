import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createUser, type TestUser } from "../testing/factories.js";

/** Imports of files and forms built to hurt: the answer is a clear 400 or 413, never a 500. */

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const CSV = "StudentName,IndexNumber,Programme\r\nAma Owusu,10800001,MA English\r\n";

function form(boundary: string, content: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`
  );
}

function post(contentType: string, payload: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/admin/import/preview",
    headers: { ...admin.headers, "content-type": contentType },
    payload,
  });
}

describe("a malformed multipart form", () => {
  it.each([
    ["a boundary the body does not use", "multipart/form-data; boundary=other", form("b", CSV)],
    [
      "a boundary with a non-ASCII letter",
      "multipart/form-data; boundary=----é",
      form("----é", CSV),
    ],
    ["no boundary at all", "multipart/form-data", form("b", CSV)],
    [
      "a boundary of 300 characters",
      `multipart/form-data; boundary=${"b".repeat(300)}`,
      form("b".repeat(300), CSV),
    ],
    [
      "a body cut off inside the file",
      "multipart/form-data; boundary=b",
      form("b", CSV).slice(0, 90),
    ],
  ])("with %s is refused with 400 naming the file", async (_case, contentType, payload) => {
    const res = await post(contentType, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: "validation",
      message: expect.stringMatching(/^file: the upload could not be read/),
      fields: [{ field: "file", message: "the form data is malformed or cut short" }],
    });
  });

  it("does not stop a well-formed one from being read", async () => {
    const res = await post("multipart/form-data; boundary=b", form("b", CSV));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, inserts: 1, errors: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMALL_BODY_LIMIT, TEXT_BODY_LIMIT } from "./body-limits.js";
import { SAME_ORIGIN, createTestApp, type TestApp } from "../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";

let t: TestApp;
let student: TestUser;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SIGN_IN: "1000", RATE_LIMIT_CONTACT: "1000" });
  student = await createUser(t.db, "student", { indexNumber: "10900201" });
  await makeSubmission(t.db, { indexNumber: "10900201" });
});
afterAll(async () => {
  await t.close();
});

/** A JSON body of exactly `bytes` bytes: `fields`, with padding in one more field. */
function bodyOf(bytes: number, fields: Record<string, string>): string {
  const empty = JSON.stringify({ ...fields, padding: "" });
  return JSON.stringify({ ...fields, padding: "x".repeat(bytes - Buffer.byteLength(empty)) });
}

const tooLarge = {
  success: false,
  code: "payload_too_large",
  message: "The request is too large.",
};

describe("a JSON body over its route's limit", () => {
  it("is refused with 413 on sign-in, far below the app's 1 MB default", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user_sign_in",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      payload: bodyOf(SMALL_BODY_LIMIT + 1, { email: "a@school.test", password: "secret" }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(tooLarge);
  });

  it("is refused with 413 on the contact form", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      payload: bodyOf(TEXT_BODY_LIMIT + 1, { email: "a@school.test", message: "Hello" }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(tooLarge);
    expect(await t.db.selectFrom("contact_messages").selectAll().execute()).toEqual([]);
  });

  it("is refused with 413 on the thesis details", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/submissions/10900201/thesis",
      headers: { ...student.headers, "content-type": "application/json" },
      payload: bodyOf(TEXT_BODY_LIMIT + 1, { title: "A title", abstract: "An abstract." }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(tooLarge);
  });

  it("at the limit is read, and answered by the schema", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user_sign_in",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      payload: bodyOf(SMALL_BODY_LIMIT, { email: "a@school.test", password: "x".repeat(300) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "validation", fields: [{ field: "password" }] });
  });
});

describe("the largest valid body", () => {
  it("fits its route's limit even with every character escaped", async () => {
    // 5,000 characters, each written as a \uXXXX escape: about 30 KB for a 64 KB limit.
    const message = "é".repeat(5000);
    const payload = JSON.stringify({ email: "a@school.test", message }).replace(/é/g, "\\u00e9");
    expect(Buffer.byteLength(payload)).toBeGreaterThan(30_000);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      payload,
    });
    expect(res.statusCode).toBe(201);
  });
});

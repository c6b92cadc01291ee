import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";
import { fieldWithNul } from "./validation.js";

let t: TestApp;
let admin: TestUser;
let student: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student", { indexNumber: "10900001" });
  await makeSubmission(t.db, { indexNumber: "10900001" });
});
afterAll(async () => {
  await t.close();
});

describe("text holding a NUL character", () => {
  // PostgreSQL refused these queries whole (a 500); SQLite stored or searched for the NUL.
  it("is refused in a path parameter, naming it", async () => {
    const res = await t.app.inject({ url: "/api/submissions/a%00b", headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: "validation",
      message: "params indexNumber: must not contain a NUL character",
      fields: [{ field: "indexNumber", message: "must not contain a NUL character" }],
    });
  });

  it("is refused in a search, naming the query field", async () => {
    const res = await t.app.inject({ url: "/api/submissions?q=ama%00", headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("querystring q: must not contain a NUL character");
  });

  it("is refused in a body field, and nothing is saved", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/submissions/10900001/thesis",
      headers: student.headers,
      payload: { title: "Soil\u0000 salinity", abstract: "An abstract." },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: "title", message: "must not contain a NUL character" },
    ]);
    const row = await t.db
      .selectFrom("submissions")
      .select("thesis_title")
      .where("index_number", "=", "10900001")
      .executeTakeFirstOrThrow();
    expect(row.thesis_title).toBeNull();
  });

  it("leaves text without one alone", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/submissions/10900001/thesis",
      headers: student.headers,
      payload: { title: "Soil salinity", abstract: "An abstract." },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("fieldWithNul", () => {
  it("names the nested field holding the NUL", () => {
    expect(fieldWithNul({ a: [{ b: "ok" }, { c: "x\u0000" }] })).toBe("a.1.c");
    expect(fieldWithNul("\u0000")).toBe("body");
    expect(fieldWithNul({ a: "ok", b: [1, null, true] })).toBeNull();
  });

  it("walks a value nested 100,000 levels deep without running out of stack", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(fieldWithNul(deep)).toMatch(/^0(\.0)+$/);
  });
});

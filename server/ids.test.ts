import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ROW_ID } from "../common/api.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../testing/factories.js";

/**
 * Ids and versions past PostgreSQL's integer column: that database refused the query (a 500), so
 * each route that takes one now stops it as the field's 400, on both databases.
 */

let t: TestApp;
let admin: TestUser;
let student: TestUser;
let submissionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student", { indexNumber: "10900101" });
  submissionId = (await makeSubmission(t.db, { indexNumber: "10900101" })).id;
});
afterAll(async () => {
  await t.close();
});

const TOO_LARGE = MAX_ROW_ID + 1;

describe("an id past the integer column", () => {
  const asAdmin: [string, string][] = [
    ["GET", `/api/admin/submissions/${TOO_LARGE}`],
    ["PATCH", `/api/admin/submissions/${TOO_LARGE}`],
    ["GET", `/api/admin/submissions/${TOO_LARGE}/events`],
    ["GET", `/api/admin/submissions/${TOO_LARGE}/documents.zip`],
    ["GET", `/api/documents/${TOO_LARGE}/file`],
    ["POST", `/api/admin/users/${TOO_LARGE}/deactivate`],
    ["POST", `/api/admin/users/${TOO_LARGE}/reactivate`],
    ["POST", `/api/admin/users/${TOO_LARGE}/resend_code`],
    ["POST", `/api/admin/documents/${TOO_LARGE}/accept`],
    ["POST", `/api/admin/documents/${TOO_LARGE}/return`],
  ];

  it.each(asAdmin)("%s %s answers 400 naming the id", async (method, url) => {
    const res = await t.app.inject({
      method: method as InjectOptions["method"],
      url,
      headers: admin.headers,
      ...(method === "PATCH" ? { payload: { version: 1, changes: {} } } : {}),
      ...(url.endsWith("/return") ? { payload: { reason: "Unreadable." } } : {}),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: "validation",
      fields: [{ field: "id" }],
    });
  });

  it("answers 400 on a student's message", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${TOO_LARGE}/read`,
      headers: student.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: "id", message: expect.any(String) }]);
  });

  it("answers 400 in a bulk update's ids", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/submissions/bulk",
      headers: admin.headers,
      payload: { ids: [submissionId, TOO_LARGE], set: { sgsStage: "awaiting_review" } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: "ids.1", message: expect.any(String) }]);
  });

  it("answers 400 as an edit's version, and the submission is unchanged", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${submissionId}`,
      headers: admin.headers,
      payload: { version: TOO_LARGE, changes: { programme: "MA History" } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: "version", message: expect.any(String) }]);
    const row = await t.db
      .selectFrom("submissions")
      .select(["programme", "version"])
      .where("id", "=", submissionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ programme: "MPhil Economics", version: 1 });
  });

  it("still lets the largest id through, to find nothing", async () => {
    const res = await t.app.inject({
      url: `/api/admin/submissions/${MAX_ROW_ID}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

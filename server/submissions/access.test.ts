import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";

let t: TestApp;
let student: TestUser;
let submissionId: number;

beforeAll(async () => {
  t = await createTestApp();
  const s = await makeSubmission(t.db, { indexNumber: "80000001", studentName: "Own Record" });
  submissionId = s.id;
  student = await createUser(t.db, "student", { indexNumber: "80000001" });
});
afterAll(async () => {
  await t.close();
});

type Call = { method: "GET" | "POST" | "PATCH"; url: () => string; payload?: () => object };

const ADMIN_CALLS: Call[] = [
  { method: "GET", url: () => "/api/submissions?q=Own" },
  {
    method: "POST",
    url: () => "/api/submissions",
    payload: () => ({ studentName: "Sneaky", indexNumber: "80000002", programme: "MA English" }),
  },
  { method: "GET", url: () => `/api/admin/submissions/${submissionId}` },
  {
    method: "PATCH",
    url: () => `/api/admin/submissions/${submissionId}`,
    payload: () => ({ version: 1, changes: { sgsStage: "awaiting_review" } }),
  },
  { method: "GET", url: () => `/api/admin/submissions/${submissionId}/events` },
  {
    method: "POST",
    url: () => "/api/admin/submissions/bulk",
    payload: () => ({ ids: [submissionId], set: { sgsStage: "awaiting_review" } }),
  },
  { method: "POST", url: () => "/api/admin/import/preview", payload: () => ({}) },
  { method: "POST", url: () => "/api/admin/import/apply", payload: () => ({}) },
  { method: "GET", url: () => "/api/admin/export?format=csv" },
  { method: "GET", url: () => "/api/admin/stats" },
  {
    method: "POST",
    url: () => "/api/admin/messages",
    payload: () => ({ broadcast: true, body: "from a student" }),
  },
];

describe("access to the administrators' calls", () => {
  it.each(ADMIN_CALLS.map((call) => [`${call.method} ${call.url()}`, call] as const))(
    "%s: a student gets 403, nobody 401",
    async (_name, call) => {
      for (const headers of [student.bearer, student.headers]) {
        const res = await t.app.inject({
          method: call.method,
          url: call.url(),
          headers,
          ...(call.payload ? { payload: call.payload() } : {}),
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ success: false, code: "forbidden" });
      }
      const anonymous = await t.app.inject({
        method: call.method,
        url: call.url(),
        ...(call.payload ? { payload: call.payload() } : {}),
      });
      expect(anonymous.statusCode).toBe(401);
    },
  );

  it("changed nothing through any refused call", async () => {
    const row = await t.db
      .selectFrom("submissions")
      .selectAll()
      .where("id", "=", submissionId)
      .executeTakeFirstOrThrow();
    expect([row.sgs_stage, row.version]).toEqual([null, 1]);
    const counts = await Promise.all(
      (["submissions", "submission_events", "messages"] as const).map(async (table) =>
        Number(
          (
            await t.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ),
    );
    expect(counts).toEqual([1, 0, 0]);
  });

  it("lets the student read their own timeline but no one else's", async () => {
    const own = await t.app.inject({
      method: "GET",
      url: "/api/submissions/80000001/timeline",
      headers: student.bearer,
    });
    expect(own.statusCode).toBe(200);
    const other = await t.app.inject({
      method: "GET",
      url: "/api/submissions/80000002/timeline",
      headers: student.bearer,
    });
    expect(other.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: "GET",
      url: "/api/submissions/80000001/timeline",
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("describes every call in the OpenAPI document", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    const paths = Object.keys(res.json().paths);
    for (const path of [
      "/api/submissions",
      "/api/admin/submissions/{id}",
      "/api/admin/submissions/{id}/events",
      "/api/submissions/{indexNumber}/timeline",
      "/api/admin/submissions/bulk",
      "/api/admin/import/preview",
      "/api/admin/import/apply",
      "/api/admin/export",
      "/api/admin/stats",
      "/api/messages",
      "/api/messages/{id}/read",
      "/api/admin/messages",
    ]) {
      expect(paths).toContain(path);
    }
  });
});

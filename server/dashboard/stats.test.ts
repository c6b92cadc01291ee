import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { dashboardStats, lastTwelveMonths } from "./service.js";

let t: TestApp;
let admin: TestUser;
const NOW = new Date("2025-09-15T12:00:00.000Z");
const ids: Record<string, number> = {};

async function event(submissionId: number, field: string, to: string, at: string) {
  await t.db
    .insertInto("submission_events")
    .values({
      submission_id: submissionId,
      actor_user_id: null,
      at,
      field,
      from_value: null,
      to_value: to,
      kind: "next",
      confirmed_out_of_order: 0,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  await createUser(t.db, "student", { indexNumber: "70000001" });
  const stage = { sgsStage: "sent_to_examiners" as const };
  ids.waitingLong = (
    await makeSubmission(
      t.db,
      { ...stage, internalExaminer: "awaiting", studentName: "Waiting Long" },
      "2025-06-10T00:00:00.000Z",
    )
  ).id;
  ids.recent = (
    await makeSubmission(
      t.db,
      { ...stage, internalExaminer: "received" },
      "2025-09-01T00:00:00.000Z",
    )
  ).id;
  await event(ids.recent, "internalExaminer", "received", "2025-09-10T00:00:00.000Z");
  ids.done = (
    await makeSubmission(
      t.db,
      { ...stage, externalExaminer: "report_submitted" },
      "2025-08-01T00:00:00.000Z",
    )
  ).id;
  ids.external = (
    await makeSubmission(
      t.db,
      { ...stage, externalExaminer: "received", studentName: "External Slow" },
      "2025-07-01T00:00:00.000Z",
    )
  ).id;
  await event(ids.external, "externalExaminer", "awaiting", "2025-07-02T00:00:00.000Z");
  await event(ids.external, "externalExaminer", "received", "2025-07-05T00:00:00.000Z");
  await makeSubmission(t.db, {}, "2024-08-01T00:00:00.000Z");
  await makeSubmission(t.db, {}, "2025-09-14T00:00:00.000Z");
});
afterAll(async () => {
  await t.close();
});

describe("dashboard stats", () => {
  it("counts submissions, users and this month's additions", async () => {
    const stats = await dashboardStats(t.db, { reportOverdueDays: 30 }, NOW);
    expect(stats.totalSubmissions).toBe(6);
    expect(stats.totalUsers).toBe(2);
    expect(stats.addedThisMonth).toBe(2);
  });

  it("counts submissions per stage and per examiner state, with none", async () => {
    const stats = await dashboardStats(t.db, { reportOverdueDays: 30 }, NOW);
    expect(stats.perStage).toEqual({
      awaiting_review: 0,
      sent_to_department: 0,
      nominations_ready: 0,
      sent_to_examiners: 4,
      none: 2,
    });
    expect(stats.perExaminerState).toEqual({
      internal: { awaiting: 1, received: 1, report_submitted: 0, none: 4 },
      external: { awaiting: 0, received: 1, report_submitted: 1, none: 4 },
    });
  });

  it("lists reports waiting longer than the limit, from the event that set the state", async () => {
    const stats = await dashboardStats(t.db, { reportOverdueDays: 30 }, NOW);
    expect(stats.overdueReports).toEqual([
      {
        id: ids.waitingLong,
        studentName: "Waiting Long",
        indexNumber: expect.any(String),
        examiner: "internal",
        state: "awaiting",
        since: "2025-06-10T00:00:00.000Z",
        days: 97,
      },
      {
        id: ids.external,
        studentName: "External Slow",
        indexNumber: expect.any(String),
        examiner: "external",
        state: "received",
        since: "2025-07-05T00:00:00.000Z",
        days: 72,
      },
    ]);
    expect(stats.overdueReportsTotal).toBe(2);
    const stricter = await dashboardStats(t.db, { reportOverdueDays: 3 }, NOW);
    expect(stricter.overdueReports.map((r) => r.id)).toEqual([
      ids.waitingLong,
      ids.external,
      ids.recent,
    ]);
  });

  it("counts new submissions per month for the last twelve months", async () => {
    const stats = await dashboardStats(t.db, { reportOverdueDays: 30 }, NOW);
    expect(stats.perMonth).toHaveLength(12);
    expect(stats.perMonth[0]).toEqual({ month: "2024-10", count: 0 });
    expect(stats.perMonth.slice(-4)).toEqual([
      { month: "2025-06", count: 1 },
      { month: "2025-07", count: 1 },
      { month: "2025-08", count: 1 },
      { month: "2025-09", count: 2 },
    ]);
    expect(lastTwelveMonths(new Date("2025-01-31T00:00:00.000Z")).slice(0, 2)).toEqual([
      "2024-02",
      "2024-03",
    ]);
  });

  it("answers GET /api/admin/stats for an administrator", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      totalSubmissions: 6,
      totalUsers: 2,
      reportOverdueDays: t.config.reportOverdueDays,
    });
  });
});

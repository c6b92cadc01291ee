import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExaminationState } from "../../common/examiners.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { rebuildReportRollups } from "../db/report-rollups.js";
import { lateReports } from "../reports/service.js";
import { dashboardStats } from "./service.js";

/**
 * The dashboard's overdue examinations: reports past their due date, with the reminders sent and
 * the last time the examiner opened the link; and the hand-typed overdue list leaving out the
 * records whose examiner got a link.
 */

let t: TestApp;
let admin: TestUser;
const NOW = new Date("2025-09-15T12:00:00.000Z");
const CONFIG = { reportOverdueDays: 30 };
const ids: Record<string, number> = {};
let count = 0;

async function examination(
  submissionId: number,
  role: "internal" | "external",
  state: ExaminationState,
  dueOn: string | null,
  extra: { lastOpenedAt?: string } = {},
): Promise<number> {
  count += 1;
  const at = "2025-07-01T09:00:00.000Z";
  const examiner = await t.db
    .insertInto("examiners")
    .values({
      name: `Dr. Examiner ${count}`,
      email: `examiner${count}@uni.test`,
      institution: "KNUST",
      kind: role,
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const sent = state !== "nominated";
  const row = await t.db
    .insertInto("examinations")
    .values({
      submission_id: submissionId,
      examiner_id: examiner.id,
      role,
      state,
      nominated_by: null,
      nominated_at: at,
      link_created_at: sent ? at : null,
      link_expires_at: sent ? "2025-10-29T09:00:00.000Z" : null,
      sent_at: sent ? at : null,
      due_on: dueOn,
      last_opened_at: extra.lastOpenedAt ?? null,
      replaced_at: state === "replaced" ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function reminder(examinationId: number, offsetDays: number | null, sentAt: string) {
  await t.db
    .insertInto("examiner_reminders")
    .values({
      examination_id: examinationId,
      offset_days: offsetDays,
      sent_by: null,
      sent_at: sentAt,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  const stage = { sgsStage: "sent_to_examiners" as const };
  const old = "2025-06-01T00:00:00.000Z";
  const a = await makeSubmission(
    t.db,
    {
      ...stage,
      studentName: "Abena Owusu",
      internalExaminer: "received",
      externalExaminer: "awaiting",
    },
    old,
  );
  ids.aSubmission = a.id;
  ids.aInternal = await examination(a.id, "internal", "received", "2025-09-01", {
    lastOpenedAt: "2025-09-10T08:00:00.000Z",
  });
  await reminder(ids.aInternal, -7, "2025-08-25T06:00:00.000Z");
  await reminder(ids.aInternal, 0, "2025-09-01T06:00:00.000Z");
  await reminder(ids.aInternal, null, "2025-09-12T14:00:00.000Z");
  await reminder(ids.aInternal, 7, "2025-09-08T06:00:00.000Z");
  ids.aExternal = await examination(a.id, "external", "sent", "2025-08-20");

  const b = await makeSubmission(
    t.db,
    { ...stage, studentName: "Yaw Darko", internalExaminer: "awaiting" },
    old,
  );
  // Due today: not overdue yet. A replaced one long past due: not counted.
  await examination(b.id, "internal", "sent", "2025-09-15");
  await examination(b.id, "internal", "replaced", "2025-07-15");
  // The report is in: not overdue, however late it came.
  await examination(b.id, "external", "report_submitted", "2025-08-01");
  ids.b = b.id;

  // No examination: the examiner state is typed by hand, so the old list follows it.
  ids.c = (
    await makeSubmission(
      t.db,
      { ...stage, studentName: "Esi Quaye", externalExaminer: "awaiting" },
      old,
    )
  ).id;
});
afterAll(async () => {
  await t.close();
});

describe("overdue examinations on the dashboard", () => {
  it("lists reports past their due date, most overdue first, with reminders and the last opening", async () => {
    const stats = await dashboardStats(t.db, CONFIG, NOW);
    expect(stats.overdueExaminations).toEqual([
      {
        examinationId: ids.aExternal,
        submissionId: ids.aSubmission,
        indexNumber: expect.any(String),
        studentName: "Abena Owusu",
        role: "external",
        examinerName: expect.stringMatching(/^Dr\. Examiner \d+$/),
        dueOn: "2025-08-20",
        daysOverdue: 26,
        remindersSent: 0,
        lastReminderAt: null,
        lastOpenedAt: null,
        state: "sent",
      },
      {
        examinationId: ids.aInternal,
        submissionId: ids.aSubmission,
        indexNumber: expect.any(String),
        studentName: "Abena Owusu",
        role: "internal",
        examinerName: expect.stringMatching(/^Dr\. Examiner \d+$/),
        dueOn: "2025-09-01",
        daysOverdue: 14,
        remindersSent: 4,
        lastReminderAt: "2025-09-12T14:00:00.000Z",
        lastOpenedAt: "2025-09-10T08:00:00.000Z",
        state: "received",
      },
    ]);
    expect(stats.overdueExaminationsTotal).toBe(2);
  });

  it("counts a report due today as overdue from tomorrow", async () => {
    const tomorrow = await dashboardStats(t.db, CONFIG, new Date("2025-09-16T00:00:00.000Z"));
    expect(tomorrow.overdueExaminationsTotal).toBe(3);
    expect(tomorrow.overdueExaminations.map((e) => [e.studentName, e.daysOverdue])).toEqual([
      ["Abena Owusu", 27],
      ["Abena Owusu", 15],
      ["Yaw Darko", 1],
    ]);
  });

  it("leaves the records whose examiner got a link out of the hand-typed overdue list", async () => {
    const stats = await dashboardStats(t.db, CONFIG, NOW);
    // Abena's two examiners and Yaw's internal one have links; Esi's external examiner has none.
    expect(stats.overdueReports.map((r) => [r.id, r.examiner])).toEqual([[ids.c, "external"]]);
    expect(stats.overdueReportsTotal).toBe(1);
  });

  it("shows both kinds in one list with one definition of late, saying how each is known", async () => {
    const stats = await dashboardStats(t.db, CONFIG, NOW);
    // Esi's state was typed on 2025-06-01 (the record's last update): due 30 days later, on
    // 2025-07-01, so 76 days late on 2025-09-15; the links' rows keep their due dates.
    expect(
      stats.lateReports.map((r) => [r.studentName, r.role, r.knownBy, r.dueOn, r.daysLate]),
    ).toEqual([
      ["Esi Quaye", "external", "typed_state", "2025-07-01", 76],
      ["Abena Owusu", "external", "link_due_date", "2025-08-20", 26],
      ["Abena Owusu", "internal", "link_due_date", "2025-09-01", 14],
    ]);
    expect(stats.lateReportsTotal).toBe(stats.overdueReportsTotal + stats.overdueExaminationsTotal);
    expect(stats.lateReports[1]?.examination?.examinationId).toBe(ids.aExternal);
    expect(stats.lateReports[0]?.examination).toBeNull();
  });

  it("a typed state is late from the day after its due date, as a link is", async () => {
    // Typed on 2025-06-01 with 106 days allowed: due 2025-09-15, so not late on that day.
    const onTheDay = await dashboardStats(t.db, { reportOverdueDays: 106 }, NOW);
    expect(onTheDay.lateReports.map((r) => r.knownBy)).not.toContain("typed_state");
    const dayAfter = await dashboardStats(t.db, { reportOverdueDays: 105 }, NOW);
    expect(dayAfter.lateReports.find((r) => r.knownBy === "typed_state")?.daysLate).toBe(1);
  });

  it("is the same list the Reports figures give", async () => {
    const stats = await dashboardStats(t.db, CONFIG, NOW);
    // This file writes its examinations directly, not through the repository that keeps the
    // Reports' open-report rollups (migration 022) current: fill them as the migration does.
    await rebuildReportRollups(t.db);
    const reports = await lateReports(t.db, {}, NOW, CONFIG, 50);
    expect(reports.total).toBe(stats.lateReportsTotal);
    expect(
      reports.items.map((r) => [r.submissionId, r.role, r.knownBy, r.dueOn, r.daysLate]),
    ).toEqual(
      stats.lateReports.map((r) => [r.submissionId, r.role, r.knownBy, r.dueOn, r.daysLate]),
    );
  });

  it("answers GET /api/admin/stats with the overdue examinations", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The real clock is past these due dates: all three open examinations are overdue.
    expect(body.overdueExaminationsTotal).toBe(3);
    expect(body.overdueExaminations[0]).toMatchObject({
      examinationId: ids.aExternal,
      dueOn: "2025-08-20",
      remindersSent: 0,
    });
  });
});

import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import { migrationProvider } from "../db/migrations/index.js";
import { csvLine } from "../submissions/csv.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import {
  countWaitingReports,
  readExaminerWaits,
  readWaitingReportTotals,
  recomputeExaminerWaits,
  recountWaitingReportTotals,
} from "./repository.js";

/**
 * examiner_waits (migration 009) must equal the waits computed afresh from the submissions,
 * their events and their examinations after every kind of write to each of the three, on SQLite
 * and on PostgreSQL; and the totals per role kept from it (migration 012) must equal a fresh
 * count, so the overdue totals (kept total less the recent waits) equal a fresh count too.
 */

let t: TestApp;
let admin: TestUser;
let examinerId = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  const at = "2025-07-01T09:00:00.000Z";
  examinerId = (
    await t.db
      .insertInto("examiners")
      .values({
        name: "Dr. Waits",
        email: "waits@uni.test",
        institution: "KNUST",
        kind: "internal",
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t.close();
});

/** Limits before, between and after the times the tests write (2025, and now for route edits). */
const LIMITS = ["2024-12-31T00:00:00.000Z", "2025-03-15T00:00:00.000Z", "2999-01-01T00:00:00.000Z"];

async function expectWaitsExact() {
  const kept = await readExaminerWaits(t.db);
  expect(kept).toEqual(await recomputeExaminerWaits(t.db));
  expect(await readWaitingReportTotals(t.db)).toEqual(await recountWaitingReportTotals(t.db));
  for (const role of ["internal", "external"] as const) {
    for (const before of LIMITS) {
      const overdue = kept.filter(
        (w) => w.role === role && w.linked === 0 && w.since < before,
      ).length;
      expect(await countWaitingReports(t.db, role, before)).toBe(overdue);
    }
  }
  return kept;
}

async function waitOf(submissionId: number, role: "internal" | "external") {
  return (await readExaminerWaits(t.db)).find(
    (w) => w.submissionId === submissionId && w.role === role,
  );
}

async function event(submissionId: number, field: string, to: string, at: string) {
  return (
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
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function examination(submissionId: number, state: "nominated" | "sent") {
  const at = "2025-08-01T09:00:00.000Z";
  return (
    await t.db
      .insertInto("examinations")
      .values({
        submission_id: submissionId,
        examiner_id: examinerId,
        role: "internal",
        state,
        nominated_by: null,
        nominated_at: at,
        due_on: "2025-09-12",
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

describe("examiner waits kept by triggers", () => {
  it("hold a submission created waiting, since its creation", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: {
        studentName: "Waits Created",
        indexNumber: "73000001",
        programme: "MPhil Economics",
        sgsStage: "sent_to_examiners",
        externalExaminer: "awaiting",
      },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as number;
    await expectWaitsExact();
    expect(await waitOf(id, "external")).toMatchObject({ linked: 0 });
    expect(await waitOf(id, "internal")).toBeUndefined();
  });

  it("follow an edit through the route, which writes the event that sets the state", async () => {
    const created = await makeSubmission(t.db, { sgsStage: "sent_to_examiners" });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${created.id}`,
      headers: admin.headers,
      payload: {
        version: created.version,
        changes: { internalExaminer: "awaiting" },
        confirmOutOfOrder: true,
      },
    });
    expect(res.statusCode).toBe(200);
    await expectWaitsExact();
    expect(await waitOf(created.id, "internal")).toBeDefined();
    const done = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${created.id}`,
      headers: admin.headers,
      payload: {
        version: created.version + 1,
        changes: { internalExaminer: "report_submitted" },
        confirmOutOfOrder: true,
      },
    });
    expect(done.statusCode).toBe(200);
    await expectWaitsExact();
    expect(await waitOf(created.id, "internal")).toBeUndefined();
  });

  it("take since from events inserted, changed and deleted", async () => {
    const created = await makeSubmission(
      t.db,
      { internalExaminer: "received" },
      "2025-01-01T00:00:00.000Z",
    );
    const eventId = await event(
      created.id,
      "internalExaminer",
      "received",
      "2025-03-01T00:00:00.000Z",
    );
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.since).toBe("2025-03-01T00:00:00.000Z");
    await t.db
      .updateTable("submission_events")
      .set({ at: "2025-04-01T00:00:00.000Z" })
      .where("id", "=", eventId)
      .execute();
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.since).toBe("2025-04-01T00:00:00.000Z");
    await t.db.deleteFrom("submission_events").where("id", "=", eventId).execute();
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.since).toBe("2025-01-01T00:00:00.000Z");
  });

  it("mark a wait linked while the examiner has a link, and not once it is replaced", async () => {
    const created = await makeSubmission(t.db, { internalExaminer: "awaiting" });
    const examinationId = await examination(created.id, "nominated");
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.linked).toBe(0);
    await t.db
      .updateTable("examinations")
      .set({ state: "sent" })
      .where("id", "=", examinationId)
      .execute();
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.linked).toBe(1);
    await t.db
      .updateTable("examinations")
      .set({ state: "replaced" })
      .where("id", "=", examinationId)
      .execute();
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.linked).toBe(0);
    await examination(created.id, "sent");
    await expectWaitsExact();
    await t.db.deleteFrom("examinations").where("submission_id", "=", created.id).execute();
    await expectWaitsExact();
    expect((await waitOf(created.id, "internal"))?.linked).toBe(0);
  });

  it("follow a bulk update and an import", async () => {
    const a = await makeSubmission(t.db, { sgsStage: "sent_to_examiners" });
    const b = await makeSubmission(t.db, { sgsStage: "sent_to_examiners" });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/submissions/bulk",
      headers: admin.headers,
      payload: {
        ids: [a.id, b.id],
        set: { externalExaminer: "awaiting" },
        confirmOutOfOrder: true,
      },
    });
    expect(res.statusCode).toBe(200);
    await expectWaitsExact();
    expect(await waitOf(b.id, "external")).toBeDefined();

    await makeSubmission(t.db, { indexNumber: "74000001", internalExaminer: "awaiting" });
    const rows = [
      ["StudentName", "IndexNumber", "Programme", "InternalExaminer"],
      ["Imported Waiting", "74000002", "MSc Statistics", "Received"],
      ["Imported Done", "74000001", "MPhil Economics", "Report Submitted"],
    ];
    const boundary = "----etswaits";
    const upload = await t.app.inject({
      method: "POST",
      url: "/api/admin/import/apply",
      headers: { ...admin.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${rows.map((r) => csvLine(r)).join("")}` +
        `\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode).toBe(200);
    const kept = await expectWaitsExact();
    expect(kept.length).toBeGreaterThan(0);
  });

  it("drop the waits of deleted submissions", async () => {
    const created = await makeSubmission(t.db, {
      internalExaminer: "awaiting",
      externalExaminer: "received",
    });
    await event(created.id, "externalExaminer", "received", "2025-05-01T00:00:00.000Z");
    await examination(created.id, "sent");
    expect(await waitOf(created.id, "external")).toBeDefined();
    await t.db.deleteFrom("submissions").where("id", "=", created.id).execute();
    await expectWaitsExact();
    expect(await waitOf(created.id, "external")).toBeUndefined();
    expect(await waitOf(created.id, "internal")).toBeUndefined();
  });

  it("keep the totals through direct writes to the waits (an administrator at a SQL prompt)", async () => {
    const expectTotalsExact = async () =>
      expect(await readWaitingReportTotals(t.db)).toEqual(await recountWaitingReportTotals(t.db));
    const before = await readWaitingReportTotals(t.db);
    const at = "2025-02-01T00:00:00.000Z";
    await t.db
      .insertInto("examiner_waits")
      .values([
        { submission_id: 990001, role: "internal", since: at, linked: 0 },
        { submission_id: 990002, role: "internal", since: at, linked: 1 },
      ])
      .execute();
    await expectTotalsExact();
    expect((await readWaitingReportTotals(t.db)).internal).toBe(before.internal + 1);
    // Linked and unlinked swapped in one statement: the total is unchanged, but both rows moved.
    await t.db
      .updateTable("examiner_waits")
      .set((eb) => ({ linked: eb.case().when("linked", "=", 0).then(1).else(0).end() }))
      .where("submission_id", "in", [990001, 990002])
      .execute();
    await expectTotalsExact();
    await t.db
      .updateTable("examiner_waits")
      .set({ role: "external" })
      .where("submission_id", "in", [990001, 990002])
      .execute();
    await expectTotalsExact();
    expect(await readWaitingReportTotals(t.db)).toEqual({
      internal: before.internal,
      external: before.external + 1,
    });
    await t.db.deleteFrom("examiner_waits").where("submission_id", ">=", 990001).execute();
    await expectTotalsExact();
    expect(await readWaitingReportTotals(t.db)).toEqual(before);
  });

  it("count the totals from the data when migration 012 runs on an existing database", async () => {
    const kept = await readWaitingReportTotals(t.db);
    expect(kept.internal + kept.external).toBeGreaterThan(0);
    const { error } = await new Migrator({
      db: t.db,
      provider: migrationProvider,
    }).migrateTo("011_overdue_examinations");
    expect(error).toBeUndefined();
    expect((await migrateToLatest(t.db))[0]).toBe("012_overdue_report_totals");
    expect(await readWaitingReportTotals(t.db)).toEqual(kept);
    await expectWaitsExact();
  });

  it("empty the totals when the waits are truncated (PostgreSQL only: SQLite has no TRUNCATE)", async () => {
    if (dialectOf(t.db) === "postgres") {
      await sql`truncate examiner_waits`.execute(t.db);
      expect(await readWaitingReportTotals(t.db)).toEqual({ internal: 0, external: 0 });
    }
    expect(await readWaitingReportTotals(t.db)).toEqual(await recountWaitingReportTotals(t.db));
  });
});

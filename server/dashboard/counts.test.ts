import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvLine } from "../submissions/csv.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import {
  countDashboardFigures,
  recountDashboardFigures,
  type DashboardCounts,
} from "./repository.js";
import { dashboardStats } from "./service.js";

/**
 * The counts kept by migration 009's triggers must equal a fresh count of the submissions after
 * every kind of write: the routes' create, edit, bulk update and import, and SQL the app does not
 * send (deletes, a move of the creation time), on SQLite and on PostgreSQL.
 */

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

/** Plain objects without zero entries, so kept and recounted figures compare with toEqual. */
function plain(counts: DashboardCounts): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(counts).map(([figure, values]) => [
      figure,
      Object.fromEntries([...values].filter(([, n]) => n !== 0).sort()),
    ]),
  );
}

async function expectCountsExact(): Promise<Record<string, Record<string, number>>> {
  const kept = plain(await countDashboardFigures(t.db));
  expect(kept).toEqual(plain(await recountDashboardFigures(t.db)));
  return kept;
}

async function stageOf(id: number): Promise<string | null> {
  const row = await t.db
    .selectFrom("submissions")
    .select("sgs_stage")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row.sgs_stage;
}

function upload(content: string) {
  const boundary = `----ets${Math.random().toString(16).slice(2)}`;
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return t.app.inject({
    method: "POST",
    url: "/api/admin/import/apply",
    headers: { ...admin.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

describe("dashboard counts kept by triggers", () => {
  it("count a submission created through the route", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: {
        studentName: "Counted Created",
        indexNumber: "71000001",
        programme: "MPhil Economics",
        sgsStage: "sent_to_examiners",
        internalExaminer: "awaiting",
      },
    });
    expect(res.statusCode).toBe(201);
    const kept = await expectCountsExact();
    expect(kept.stage?.sent_to_examiners).toBe(1);
    expect(kept.internal?.awaiting).toBe(1);
    expect(kept.external?.[""]).toBe(1);
  });

  it("follow an edit of the stage and the examiner states", async () => {
    const created = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    const before = await expectCountsExact();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${created.id}`,
      headers: admin.headers,
      payload: {
        version: created.version,
        changes: { sgsStage: "sent_to_examiners", externalExaminer: "received" },
        confirmOutOfOrder: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await stageOf(created.id)).toBe("sent_to_examiners");
    const after = await expectCountsExact();
    expect(after.stage?.awaiting_review ?? 0).toBe((before.stage?.awaiting_review ?? 0) - 1);
    expect(after.stage?.sent_to_examiners).toBe((before.stage?.sent_to_examiners ?? 0) + 1);
    expect(after.external?.received).toBe((before.external?.received ?? 0) + 1);
  });

  it("leave the counts alone when an edit changes no counted column", async () => {
    const created = await makeSubmission(t.db, { sgsStage: "nominations_ready" });
    const before = await expectCountsExact();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${created.id}`,
      headers: admin.headers,
      payload: { version: created.version, changes: { studentName: "Renamed Only" } },
    });
    expect(res.statusCode).toBe(200);
    expect(await expectCountsExact()).toEqual(before);
  });

  it("follow a bulk update", async () => {
    const a = await makeSubmission(t.db, { sgsStage: "nominations_ready" });
    const b = await makeSubmission(t.db, { sgsStage: "nominations_ready" });
    const before = await expectCountsExact();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/submissions/bulk",
      headers: admin.headers,
      payload: { ids: [a.id, b.id], set: { sgsStage: "sent_to_examiners" } },
    });
    expect(res.statusCode).toBe(200);
    const after = await expectCountsExact();
    expect(after.stage?.sent_to_examiners).toBe((before.stage?.sent_to_examiners ?? 0) + 2);
  });

  it("follow an import that inserts and updates", async () => {
    await makeSubmission(t.db, { indexNumber: "72000001", sgsStage: null });
    const before = await expectCountsExact();
    const header = ["StudentName", "IndexNumber", "Programme", "SGSAdmin"];
    const rows = [
      header,
      ["Imported New", "72000002", "MSc Statistics", "Awaiting Review"],
      ["Imported Moved", "72000001", "MPhil Economics", "Sent to Department"],
    ];
    const res = await upload(rows.map((row) => csvLine(row)).join(""));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ inserted: 1, updated: 1 });
    const after = await expectCountsExact();
    expect(after.stage?.sent_to_department).toBe((before.stage?.sent_to_department ?? 0) + 1);
    expect(after.stage?.awaiting_review).toBe((before.stage?.awaiting_review ?? 0) + 1);
    expect(after.stage?.[""] ?? 0).toBe((before.stage?.[""] ?? 0) - 1);
  });

  it("follow deletes, one row and many in one statement", async () => {
    const one = await makeSubmission(t.db, { sgsStage: "sent_to_examiners" });
    await makeSubmission(t.db, { programme: "To Delete", internalExaminer: "received" });
    await makeSubmission(t.db, { programme: "To Delete", externalExaminer: "awaiting" });
    const before = await expectCountsExact();
    await t.db.deleteFrom("submissions").where("id", "=", one.id).execute();
    await t.db.deleteFrom("submissions").where("programme", "=", "To Delete").execute();
    const after = await expectCountsExact();
    expect(after.stage?.sent_to_examiners).toBe((before.stage?.sent_to_examiners ?? 0) - 1);
  });

  it("move a submission between months when its creation time is rewritten", async () => {
    const created = await makeSubmission(t.db, {}, "2024-01-15T00:00:00.000Z");
    const before = await expectCountsExact();
    await t.db
      .updateTable("submissions")
      .set({ created_at: "2024-03-15T00:00:00.000Z" })
      .where("id", "=", created.id)
      .execute();
    const after = await expectCountsExact();
    expect(after.month?.["2024-01"] ?? 0).toBe((before.month?.["2024-01"] ?? 0) - 1);
    expect(after.month?.["2024-03"]).toBe((before.month?.["2024-03"] ?? 0) + 1);
  });

  it("stay exact through many small writes and the folding of appended changes", async () => {
    const created = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    const stages = ["sent_to_department", "nominations_ready", "awaiting_review"] as const;
    // Each update appends its changes on PostgreSQL: enough of them to pass the folding limit.
    for (let i = 0; i < 300; i += 1) {
      await t.db
        .updateTable("submissions")
        .set({ sgs_stage: stages[i % stages.length] ?? null })
        .where("id", "=", created.id)
        .execute();
    }
    await expectCountsExact();
    const rows = await sql<{ rows: number; keys: number }>`select count(*) as rows,
      count(distinct figure || ':' || value) as keys from dashboard_counts`.execute(t.db);
    const [{ rows: kept, keys } = { rows: 0, keys: 0 }] = rows.rows;
    // Folded (or, on SQLite, never more than one row per value).
    expect(Number(kept)).toBe(Number(keys));
    await expectCountsExact();
  });

  it("give the service the kept counts: totals, this month and per month", async () => {
    const now = new Date("2024-03-20T12:00:00.000Z");
    const stats = await dashboardStats(t.db, { reportOverdueDays: 30 }, now);
    const recount = await recountDashboardFigures(t.db);
    const total = [...recount.stage.values()].reduce((a, b) => a + b, 0);
    expect(stats.totalSubmissions).toBe(total);
    const { n } = await t.db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("created_at", ">=", "2024-03-01T00:00:00.000Z")
      .executeTakeFirstOrThrow();
    expect(stats.addedThisMonth).toBe(Number(n));
    expect(stats.perMonth.find((m) => m.month === "2024-03")?.count).toBe(
      recount.month.get("2024-03"),
    );
    expect(stats.perStage.none).toBe(recount.stage.get("") ?? 0);
  });
});

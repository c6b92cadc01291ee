import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import { enqueueWebhookEvent } from "./events.js";
import { insertEndpoint } from "./endpoints.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
  admin = await createUser(t.db, "admin");
  await insertEndpoint(t.db, {
    url: "http://127.0.0.1:9/hook",
    events: ["submission.stage_changed", "thesis.published"],
    active: true,
    createdBy: admin.id,
  });
});
afterAll(async () => {
  await t.close();
});

const count = async (table: "webhook_events" | "webhook_deliveries" | "submission_events") =>
  (await t.db.selectFrom(table).select("id").execute()).length;

describe("webhook events and their change are stored together or not at all", () => {
  it("leaves no event or delivery when the transaction fails after enqueueing", async () => {
    const s = await makeSubmission(t.db);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueWebhookEvent(trx, {
          type: "thesis.published",
          submissionId: s.id,
          data: { url: "https://repository.example.org/handle/1" },
        });
        throw new Error("the publication failed halfway");
      }),
    ).rejects.toThrow("halfway");
    expect(await count("webhook_events")).toBe(0);
    expect(await count("webhook_deliveries")).toBe(0);
  });

  it("leaves the record, its timeline and the webhooks as they were when writing a delivery fails", async () => {
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    const events = await count("submission_events");
    await installWriteTrap(t.db, "webhook_deliveries", "status", "pending");
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${s.id}`,
      headers: admin.headers,
      payload: { version: 1, changes: { sgsStage: "sent_to_department" } },
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("write trap");
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    const row = await t.db
      .selectFrom("submissions")
      .select(["sgs_stage", "version"])
      .where("id", "=", s.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sgs_stage: "awaiting_review", version: 1 });
    expect(await count("submission_events")).toBe(events);
    expect(await count("webhook_events")).toBe(0);
    expect(await count("webhook_deliveries")).toBe(0);
  });
});

import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../db/database.js";
import { migrationProvider } from "../db/migrations/index.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { SCRUBBED_MAIL_TEXT } from "./outbox.js";

/**
 * Migration 014 on a database that already delivered secrets (issue 24): the sign-in codes and
 * examiner links in mail sent before it are scrubbed; the rest stays as it was.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("migration 014 (mail secrets)", () => {
  it("scrubs the secrets of mail delivered before it and marks the waiting ones", async () => {
    const { db } = database;
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(
      "013_pending_uploads",
    );
    expect(error).toBeUndefined();
    const row = (to: string, template: object, text: string, status: "sent" | "pending") => ({
      to_address: to,
      subject: `Subject for ${to}`,
      text_body: text,
      html_body: null,
      template: JSON.stringify(template),
      status,
      attempts: status === "sent" ? 1 : 0,
      next_attempt_at: "2026-01-01T00:00:00.000Z",
      last_error: null,
      created_at: "2026-01-01T00:00:00.000Z",
      sent_at: status === "sent" ? "2026-01-01T00:00:01.000Z" : null,
    });
    const link = `http://localhost:3000/examiner#${"t".repeat(43)}`;
    await db
      .insertInto("outbox")
      .values([
        row(
          "code@st.test",
          { name: "sign_in_code", params: { trackingCode: "493817" } },
          "Your verification code is 493817",
          "sent",
        ),
        row(
          "examiner@uni.test",
          { name: "examiner_invitation", params: { role: "internal" } },
          `Your page:\n${link}`,
          "sent",
        ),
        row(
          "waiting@uni.test",
          { name: "examiner_invitation", params: { role: "external" } },
          `Your page:\n${link}`,
          "pending",
        ),
        row("office@school.test", { name: "contact_message", params: {} }, "Hello there", "sent"),
      ])
      .execute();

    expect(await migrateToLatest(db)).toContain("014_mail_secrets");

    const rows = await db.selectFrom("outbox").selectAll().orderBy("id").execute();
    const byTo = new Map(rows.map((r) => [r.to_address, r]));
    for (const to of ["code@st.test", "examiner@uni.test"]) {
      expect(byTo.get(to)).toMatchObject({
        text_body: SCRUBBED_MAIL_TEXT,
        subject: `Subject for ${to}`,
        carries_secret: 1,
      });
    }
    expect(JSON.stringify(rows)).not.toContain("493817");
    expect(JSON.parse(byTo.get("code@st.test")?.template ?? "{}")).toEqual({
      name: "sign_in_code",
      params: { scrubbed: true },
    });
    // Still waiting: it goes out with its link, and the worker scrubs it then.
    expect(byTo.get("waiting@uni.test")).toMatchObject({
      text_body: `Your page:\n${link}`,
      carries_secret: 1,
    });
    expect(byTo.get("office@school.test")).toMatchObject({
      text_body: "Hello there",
      carries_secret: 0,
    });
  });
});

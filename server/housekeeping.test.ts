import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { nowIso } from "./db/database.js";
import { enqueueMail } from "./mail/outbox.js";
import { contactMail, signInCodeMail } from "./mail/templates.js";
import { createTestApp, createTestDatabase, type TestDatabase } from "../testing/test-app.js";
import { EXPIRED_CODE_TEXT, HOUSEKEEPING_JOB, sweepExpiredSecrets } from "./housekeeping.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const now = new Date("2026-06-01T12:00:00.000Z");
const ago = (minutes: number) => nowIso(new Date(now.getTime() - minutes * 60_000));
const ahead = (minutes: number) => nowIso(new Date(now.getTime() + minutes * 60_000));

describe("housekeeping", () => {
  it("removes dead sessions and codes and the codes inside old sign-in mails, and nothing else", async () => {
    const { db } = database;
    const user = await db
      .insertInto("users")
      .values({
        email: "kofi@st.school.edu",
        index_number: "10000001",
        name: null,
        role: "student",
        password_hash: null,
        active: 1,
        failed_sign_ins: 0,
        locked_until: null,
        last_sign_in_at: null,
        created_at: ago(100),
        updated_at: ago(100),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const session = (token: string, persistent: 0 | 1, lastSeen: string, expires: string) => ({
      token_hash: token,
      user_id: user.id,
      persistent,
      created_at: ago(600),
      last_seen_at: lastSeen,
      expires_at: expires,
      sign_in_method: "password" as const,
    });
    await db
      .insertInto("sessions")
      .values([
        session("expired", 1, ago(1), ago(1)),
        session("idle-browser", 0, ago(31), ahead(600)),
        session("fresh-browser", 0, ago(5), ahead(600)),
        session("idle-remembered", 1, ago(8 * 24 * 60), ahead(600)),
        session("remembered", 1, ago(3 * 24 * 60), ahead(600)),
      ])
      .execute();
    const code = (hash: string, expires: string, used: string | null) => ({
      user_id: user.id,
      code_hash: hash,
      created_at: ago(20),
      expires_at: expires,
      used_at: used,
    });
    await db
      .insertInto("login_codes")
      .values([
        code("used", ahead(5), ago(1)),
        code("expired", ago(1), null),
        code("active", ahead(5), null),
      ])
      .execute();
    const oldCode = await enqueueMail(
      db,
      signInCodeMail({
        to: "kofi@st.school.edu",
        name: "Kofi",
        code: "123456",
        publicUrl: "http://x",
        firstCode: true,
      }),
      new Date(now.getTime() - 11 * 60_000),
    );
    const newCode = await enqueueMail(
      db,
      signInCodeMail({
        to: "kofi@st.school.edu",
        name: "Kofi",
        code: "654321",
        publicUrl: "http://x",
        firstCode: true,
      }),
      new Date(now.getTime() - 2 * 60_000),
    );
    const contact = await enqueueMail(
      db,
      contactMail({ to: "office@school.edu", from: "a@b.edu", message: "Hello" }),
      new Date(now.getTime() - 60 * 60_000),
    );

    const report = await sweepExpiredSecrets(db, now);

    expect(report).toEqual({ sessions: 3, codes: 2, mails: 1 });
    const sessions = await db
      .selectFrom("sessions")
      .select("token_hash")
      .orderBy("token_hash")
      .execute();
    expect(sessions.map((s) => s.token_hash)).toEqual(["fresh-browser", "remembered"]);
    const codes = await db.selectFrom("login_codes").select("code_hash").execute();
    expect(codes.map((c) => c.code_hash)).toEqual(["active"]);
    const mails = await db
      .selectFrom("outbox")
      .select(["id", "text_body", "template"])
      .orderBy("id")
      .execute();
    const byId = new Map(mails.map((m) => [m.id, m]));
    expect(byId.get(oldCode)?.text_body).toBe(EXPIRED_CODE_TEXT);
    expect(byId.get(oldCode)?.template).not.toContain("123456");
    expect(byId.get(newCode)?.text_body).toContain("654321");
    expect(byId.get(contact)?.text_body).toContain("Hello");

    expect(await sweepExpiredSecrets(db, now)).toEqual({ sessions: 0, codes: 0, mails: 0 });
  });

  it("sweeps when the server starts", async () => {
    const t = await createTestApp({}, { mailWorker: true });
    try {
      const user = await t.db
        .insertInto("users")
        .values({
          email: "ama@st.school.edu",
          index_number: null,
          name: null,
          role: "student",
          password_hash: null,
          active: 1,
          failed_sign_ins: 0,
          locked_until: null,
          last_sign_in_at: null,
          created_at: ago(1),
          updated_at: ago(1),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto("login_codes")
        .values({
          user_id: user.id,
          code_hash: "old",
          created_at: ago(30),
          expires_at: ago(20),
          used_at: null,
        })
        .execute();
      // createTestApp is ready already; a second app over the same database starts the sweep again.
      const app = await buildApp(t.config, { db: t.db });
      await app.ready();
      await app.close();
      expect(await t.db.selectFrom("login_codes").select("id").execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
  it("removes request counters whose window has passed when the server starts", async () => {
    const t = await createTestApp({}, { mailWorker: false });
    try {
      const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
      await t.db
        .insertInto("rate_limit_counters")
        .values([
          { key: "POST /api/user_sign_in:203.0.113.7", count: 4, resets_at: inMinutes(-2) },
          { key: "POST /api/user_sign_in:203.0.113.8", count: 2, resets_at: inMinutes(1) },
        ])
        .execute();
      const app = await buildApp({ ...t.config, mailWorker: true }, { db: t.db });
      await app.ready();
      await app.close();
      const left = await t.db.selectFrom("rate_limit_counters").select("key").execute();
      expect(left).toEqual([{ key: "POST /api/user_sign_in:203.0.113.8" }]);
    } finally {
      await t.close();
    }
  });

  it("sweeps on one server at a time: not while another server holds its lease", async () => {
    const t = await createTestApp({}, { mailWorker: false });
    try {
      const user = await t.db
        .insertInto("users")
        .values({
          email: "yaw@st.school.edu",
          index_number: null,
          name: null,
          role: "student",
          password_hash: null,
          active: 1,
          failed_sign_ins: 0,
          locked_until: null,
          last_sign_in_at: null,
          created_at: ago(1),
          updated_at: ago(1),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto("login_codes")
        .values({
          user_id: user.id,
          code_hash: "old",
          created_at: ago(30),
          expires_at: ago(20),
          used_at: null,
        })
        .execute();
      const sweepsOnStart = async () => {
        const app = await buildApp({ ...t.config, mailWorker: true }, { db: t.db });
        await app.ready();
        await app.close();
        return (await t.db.selectFrom("login_codes").select("id").execute()).length === 0;
      };
      // Another server is sweeping: its lease runs for five more minutes.
      const inFive = new Date(Date.now() + 5 * 60_000).toISOString();
      await t.db
        .insertInto("job_leases")
        .values({ name: HOUSEKEEPING_JOB, holder: "another-server", expires_at: inFive })
        .execute();
      expect(await sweepsOnStart()).toBe(false);

      // That server died: once its lease has run out, this one sweeps, then gives the lease up.
      await t.db
        .updateTable("job_leases")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("name", "=", HOUSEKEEPING_JOB)
        .execute();
      expect(await sweepsOnStart()).toBe(true);
      expect(await t.db.selectFrom("job_leases").selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

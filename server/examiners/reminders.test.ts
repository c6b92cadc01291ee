import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ExaminationState } from "../../common/examiners.js";
import { buildApp } from "../app.js";
import { nowIso } from "../db/database.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { insertExaminerLink } from "../../testing/examiners.js";
import { examinerReminderMail } from "./mail.js";
import { EXAMINER_REMINDERS_JOB } from "./reminders.js";
import {
  MANUAL_REMINDER_GAP_MS,
  latestDueOffset,
  sendDueReminders,
  sendManualReminder,
} from "./reminder-service.js";

/**
 * The examiner reminders with a clock the test moves (ETS_REMINDER_DAYS at its default,
 * -7,0,7,14): the scheduler's run at a given moment, and the administrator's reminder by hand.
 * Examinations are written straight to the database as "Send to examiners" leaves them.
 */

let t: TestApp;
let admin: TestUser;
let student: TestUser;
let count = 0;

const CONTACT = "sgs@school.test";
const DUE = "2026-03-20";
const INVITED_AT = "2026-02-06T09:00:00.000Z";

beforeAll(async () => {
  t = await createTestApp({ ETS_CONTACT_EMAIL: CONTACT });
  admin = await createUser(t.db, "admin", { name: "Efua Registrar" });
  student = await createUser(t.db, "student", { indexNumber: "55000001" });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  // Every run looks at every examination: each test starts from none.
  await t.db.deleteFrom("examiner_reminders").execute();
  await t.db.deleteFrom("examiner_links").execute();
  await t.db.deleteFrom("examinations").execute();
  await t.db.deleteFrom("outbox").execute();
  await t.db.deleteFrom("audit_log").execute();
  await t.db.deleteFrom("submission_events").execute();
});

/** 08:00 UTC on the day `days` after (negative: before) the due date. */
const onDay = (days: number, time = "08:00:00.000Z") => {
  const at = new Date(`${DUE}T${time}`);
  at.setUTCDate(at.getUTCDate() + days);
  return at;
};

interface ExaminationSetup {
  state?: ExaminationState;
  dueOn?: string | null;
  sentAt?: string | null;
  linkExpiresAt?: string;
  linkRevokedAt?: string | null;
  role?: "internal" | "external";
}

/** An examiner and their examination of a new submission, its link mailed at `sentAt`. */
async function examination(setup: ExaminationSetup = {}) {
  count += 1;
  const at = nowIso();
  const submission = await makeSubmission(t.db, {
    studentName: `Kofi Boateng ${count}`,
    sgsStage: "sent_to_examiners",
  });
  await t.db
    .updateTable("submissions")
    .set({ thesis_title: `Rainfall and Cocoa Yields ${count}` })
    .where("id", "=", submission.id)
    .execute();
  const email = `examiner${count}@uni.test`;
  const examiner = await t.db
    .insertInto("examiners")
    .values({
      name: `Prof. Examiner ${count}`,
      email,
      institution: "University of Ghana",
      kind: setup.role ?? "internal",
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const sentAt = setup.sentAt === undefined ? INVITED_AT : setup.sentAt;
  const state = setup.state ?? "sent";
  const row = await t.db
    .insertInto("examinations")
    .values({
      submission_id: submission.id,
      examiner_id: examiner.id,
      role: setup.role ?? "internal",
      state,
      nominated_by: admin.id,
      nominated_at: "2026-02-01T09:00:00.000Z",
      link_created_at: sentAt,
      link_expires_at: sentAt === null ? null : (setup.linkExpiresAt ?? "2026-06-06T09:00:00.000Z"),
      link_revoked_at: setup.linkRevokedAt ?? null,
      sent_at: sentAt,
      due_on: setup.dueOn === undefined ? DUE : setup.dueOn,
      replaced_at: state === "replaced" ? "2026-02-20T09:00:00.000Z" : null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // The invitation's link, as "Send to examiners" stores it.
  const invitationToken =
    sentAt === null
      ? null
      : await insertExaminerLink(t.db, row.id, {
          createdAt: sentAt,
          expiresAt: setup.linkExpiresAt ?? "2026-06-06T09:00:00.000Z",
          revokedAt: setup.linkRevokedAt ?? null,
        });
  return { id: row.id, submissionId: submission.id, email, invitationToken };
}

const run = (now: Date) => sendDueReminders(t.app, now);

const offsetsSent = async (examinationId: number) =>
  (
    await t.db
      .selectFrom("examiner_reminders")
      .select("offset_days")
      .where("examination_id", "=", examinationId)
      .orderBy("id")
      .execute()
  ).map((r) => r.offset_days);

const mailsTo = (to: string) =>
  t.db.selectFrom("outbox").selectAll().where("to_address", "=", to).orderBy("id").execute();

const remindByHand = (id: number, headers: Record<string, string> = admin.bearer) =>
  t.app.inject({ method: "POST", url: `/api/admin/examinations/${id}/remind`, headers });

describe("the scheduled reminders", () => {
  it("sends nothing before the week ahead of the due date", async () => {
    const e = await examination();
    expect(await run(onDay(-8, "23:59:59.000Z"))).toEqual({ sent: 0, skipped: 0, failed: 0 });
    expect(await offsetsSent(e.id)).toEqual([]);
    expect(await mailsTo(e.email)).toHaveLength(0);
  });

  it("sends the reminder a week ahead once, however often the scheduler runs that week", async () => {
    const e = await examination();
    expect(await run(onDay(-7, "00:00:00.000Z"))).toMatchObject({ sent: 1 });
    expect(await run(onDay(-7, "12:00:00.000Z"))).toMatchObject({ sent: 0 });
    expect(await run(onDay(-6))).toMatchObject({ sent: 0 });
    expect(await run(onDay(-1, "23:59:00.000Z"))).toMatchObject({ sent: 0 });
    expect(await offsetsSent(e.id)).toEqual([-7]);
    expect(await mailsTo(e.email)).toHaveLength(1);
  });

  it("sends the reminders on the due date and one and two weeks after, each on its day, then stops", async () => {
    const e = await examination();
    const sentOn: string[] = [];
    for (let day = -10; day <= 40; day++) {
      const report = await run(onDay(day));
      if (report.sent > 0) sentOn.push(`${day}`);
    }
    expect(sentOn).toEqual(["-7", "0", "7", "14"]);
    expect(await offsetsSent(e.id)).toEqual([-7, 0, 7, 14]);
    expect(await mailsTo(e.email)).toHaveLength(4);
  });

  it("sends nothing once the report is in, even when it is overdue", async () => {
    const e = await examination({ state: "report_submitted" });
    for (const day of [-7, 0, 7, 14, 30]) await run(onDay(day));
    expect(await offsetsSent(e.id)).toEqual([]);
    expect(await mailsTo(e.email)).toHaveLength(0);
  });

  it("stops when the report arrives between two reminders", async () => {
    const e = await examination({ state: "received" });
    await run(onDay(-7));
    await t.db
      .updateTable("examinations")
      .set({ state: "report_submitted", report_uploaded_at: onDay(-2).toISOString() })
      .where("id", "=", e.id)
      .execute();
    for (const day of [0, 7, 14]) await run(onDay(day));
    expect(await offsetsSent(e.id)).toEqual([-7]);
  });

  it("sends nothing to a replaced examiner, over a revoked or expired link, or before the link is sent", async () => {
    const replaced = await examination({ state: "replaced" });
    const revoked = await examination({ linkRevokedAt: "2026-03-01T10:00:00.000Z" });
    const expired = await examination({ linkExpiresAt: onDay(-8).toISOString() });
    const expiring = await examination({ linkExpiresAt: onDay(6).toISOString() });
    const notSent = await examination({ state: "nominated", sentAt: null });
    const noDueDate = await examination({ dueOn: null });
    for (const day of [-7, 0, 7, 14]) await run(onDay(day));
    for (const e of [replaced, revoked, expired, notSent, noDueDate]) {
      expect(await offsetsSent(e.id)).toEqual([]);
    }
    // The invitation's link still worked for the first two, and each reminder carried a link of
    // its own that works on after the invitation's expired.
    expect(await offsetsSent(expiring.id)).toEqual([-7, 0, 7, 14]);
  });

  it("after days without a run, sends only the latest reminder due and never the missed ones", async () => {
    const e = await examination();
    await run(onDay(-7));
    // The servers were down from day -6 to day 8: the reminder of the due date was missed.
    expect(await run(onDay(9))).toMatchObject({ sent: 1 });
    expect(await offsetsSent(e.id)).toEqual([-7, 7]);
    expect(await run(onDay(10))).toMatchObject({ sent: 0 });
    await run(onDay(14));
    expect(await offsetsSent(e.id)).toEqual([-7, 7, 14]);

    // A first run long after the due date: only the last reminder goes.
    const late = await examination();
    await run(onDay(20));
    await run(onDay(21));
    expect(await offsetsSent(late.id)).toEqual([14]);
    expect(await mailsTo(late.email)).toHaveLength(1);
  });

  it("sends no reminder whose day came before the link was mailed", async () => {
    // A due date three days after the invitation: the week-ahead reminder would come too late.
    const e = await examination({ sentAt: onDay(-3, "10:00:00.000Z").toISOString() });
    expect(await run(onDay(-3, "11:00:00.000Z"))).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect(await run(onDay(-1))).toMatchObject({ sent: 0 });
    expect(await run(onDay(0))).toMatchObject({ sent: 1 });
    expect(await offsetsSent(e.id)).toEqual([0]);
  });

  it("follows a changed due date from the next run", async () => {
    const e = await examination();
    await run(onDay(-7));
    // The school gave two more weeks: nothing on the old due date, the new one is reminded.
    await t.db
      .updateTable("examinations")
      .set({ due_on: onDay(14).toISOString().slice(0, 10) })
      .where("id", "=", e.id)
      .execute();
    expect(await run(onDay(0))).toMatchObject({ sent: 0 });
    expect(await run(onDay(14))).toMatchObject({ sent: 1 });
    expect(await offsetsSent(e.id)).toEqual([-7, 0]);
  });

  it("sends each reminder once when runs overlap, as after a take-over by another server", async () => {
    const first = await examination();
    const second = await examination({ role: "external" });
    const reports = await Promise.all([run(onDay(0)), run(onDay(0)), run(onDay(0))]);
    expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBe(2);
    expect(reports.every((r) => r.failed === 0)).toBe(true);
    expect(await offsetsSent(first.id)).toEqual([0]);
    expect(await offsetsSent(second.id)).toEqual([0]);
    expect(await mailsTo(first.email)).toHaveLength(1);
    expect(await mailsTo(second.email)).toHaveLength(1);
  });

  it("takes at most a batch per run, the oldest due date first", async () => {
    const oldest = await examination({ dueOn: "2026-03-10" });
    const middle = await examination({ dueOn: "2026-03-15" });
    const newest = await examination({ dueOn: DUE });
    expect(await sendDueReminders(t.app, onDay(0), 2)).toMatchObject({ sent: 2 });
    expect(await offsetsSent(oldest.id)).toEqual([7]);
    expect(await offsetsSent(middle.id)).toEqual([0]);
    expect(await offsetsSent(newest.id)).toEqual([]);
    expect(await sendDueReminders(t.app, onDay(0), 2)).toMatchObject({ sent: 1 });
    expect(await offsetsSent(newest.id)).toEqual([0]);
  });

  it("mails the examiner when the report is due, with a fresh link of its own", async () => {
    const e = await examination({ role: "external" });
    await run(onDay(-7, "06:30:00.000Z"));
    const [mail] = await mailsTo(e.email);
    expect(mail).toMatchObject({
      status: "pending",
      subject: expect.stringMatching(
        /^Reminder: examination report for Rainfall and Cocoa Yields \d+$/,
      ),
      created_at: "2026-03-13T06:30:00.000Z",
      carries_secret: 1,
    });
    const title = mail!.subject.slice("Reminder: examination report for ".length);
    expect(mail!.text_body).toContain(`Dear Prof. Examiner ${count},`);
    expect(mail!.text_body).toContain(
      `your report as external examiner of "${title}" (MPhil Economics) is due on 2026-03-20, in 7 days.`,
    );
    const token = new RegExp(`^http://localhost:\\d+/examiner#([A-Za-z0-9_-]{43})$`, "m").exec(
      mail!.text_body,
    )?.[1];
    expect(token).toHaveLength(43);
    expect(token).not.toBe(e.invitationToken);
    // ETS_EXAMINER_LINK_DAYS (120) from the reminder's day; the invitation's link works too.
    expect(mail!.text_body).toContain(
      "This link works until 2026-07-11; the link in our invitation of 2026-02-06 works too.",
    );
    expect(mail!.text_body).toContain(`Questions about this examination: ${CONTACT}.`);
    // The template's parameters (readable by administrators) never hold the link.
    expect(JSON.parse(mail!.template)).toEqual({
      name: "examiner_reminder",
      params: { role: "external", dueOn: DUE, offsetDays: -7, invitedOn: "2026-02-06" },
    });
    const links = await t.db
      .selectFrom("examiner_links")
      .select(["purpose", "created_at", "expires_at", "revoked_at"])
      .where("examination_id", "=", e.id)
      .orderBy("id")
      .execute();
    expect(links).toEqual([
      {
        purpose: "invitation",
        created_at: INVITED_AT,
        expires_at: "2026-06-06T09:00:00.000Z",
        revoked_at: null,
      },
      {
        purpose: "reminder",
        created_at: "2026-03-13T06:30:00.000Z",
        expires_at: "2026-07-11T06:30:00.000Z",
        revoked_at: null,
      },
    ]);
    // The examination's links now work until the reminder's expires.
    const row = await t.db
      .selectFrom("examinations")
      .select(["link_expires_at", "link_created_at"])
      .where("id", "=", e.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      link_expires_at: "2026-07-11T06:30:00.000Z",
      link_created_at: INVITED_AT,
    });
  });

  it("gives a late examiner a link that opens the page beside the invitation's, until the school revokes both", async () => {
    // The route's clock is the real one: links that work for years yet.
    const e = await examination({ linkExpiresAt: "2099-01-01T00:00:00.000Z" });
    expect((await remindByHand(e.id)).statusCode).toBe(201);
    const [mail] = await mailsTo(e.email);
    const token = /\/examiner#([A-Za-z0-9_-]{43})/.exec(mail?.text_body ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    const open = (with_: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/examiner/assignment",
        headers: { authorization: `Examiner ${with_}` },
      });
    for (const working of [token, e.invitationToken ?? ""]) {
      const res = await open(working);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { examinerName: `Prof. Examiner ${count}` } });
    }
    const revoke = await t.app.inject({
      method: "POST",
      url: `/api/admin/examinations/${e.id}/revoke`,
      headers: admin.headers,
    });
    expect(revoke.statusCode).toBe(200);
    for (const revoked of [token, e.invitationToken ?? ""]) {
      const res = await open(revoked);
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ reason: "revoked" });
    }
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.link_revoked")
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(admin.id);
  });

  it("says when the report is or was due in words from the day it is sent", () => {
    const text = (today: string, dueOn: string | null) =>
      examinerReminderMail({
        to: "x@uni.test",
        examinerName: "Prof. X",
        role: "internal",
        thesisTitle: null,
        programme: "MSc Physics",
        dueOn,
        link: "http://localhost:3000/examiner#token",
        linkExpiresAt: "2026-07-11T06:30:00.000Z",
        invitedOn: "2026-02-06",
        today,
        schoolContact: null,
        offsetDays: null,
      }).text;
    expect(text("2026-03-20", DUE)).toContain(
      "of a thesis in MSc Physics is due today, 2026-03-20.",
    );
    expect(text("2026-03-19", DUE)).toContain("is due tomorrow, 2026-03-20.");
    expect(text("2026-03-21", DUE)).toContain("was due yesterday, 2026-03-20.");
    expect(text("2026-04-03", DUE)).toContain("was due on 2026-03-20, 14 days ago.");
    expect(text("2026-04-03", null)).toContain("of a thesis in MSc Physics is awaited.");
    expect(text("2026-04-03", DUE)).toContain(
      "Questions about this examination: reply to the School of Graduate Studies.",
    );
  });

  it("records the reminder in the record's history and the audit log, by the system", async () => {
    const e = await examination();
    await run(onDay(7, "09:15:00.000Z"));
    const events = await t.db
      .selectFrom("submission_events")
      .selectAll()
      .where("submission_id", "=", e.submissionId)
      .execute();
    expect(events).toEqual([
      expect.objectContaining({
        field: "examination.internal",
        kind: "remind",
        from_value: null,
        to_value: "reminder 7 days after the due date",
        actor_user_id: null,
        at: "2026-03-27T09:15:00.000Z",
      }),
    ]);
    const audit = await t.db.selectFrom("audit_log").selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      event: "examiner.reminder_sent",
      actor_user_id: null,
      subject: e.email,
    });
    expect(JSON.parse(audit[0]!.details ?? "{}")).toEqual({
      examinationId: e.id,
      submissionId: e.submissionId,
      indexNumber: expect.any(String),
      role: "internal",
      offsetDays: 7,
      manual: false,
    });
  });

  it("keeps the student's timeline free of reminders", async () => {
    const e = await examination();
    await run(onDay(0));
    const index = await t.db
      .selectFrom("submissions")
      .select("index_number")
      .where("id", "=", e.submissionId)
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${index.index_number}/timeline`,
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/remind/i);
  });
});

describe("latestDueOffset", () => {
  it("is the largest offset whose day has come", () => {
    const offsets = [-7, 0, 7, 14];
    expect(latestDueOffset(DUE, "2026-03-12", offsets)).toBeNull();
    expect(latestDueOffset(DUE, "2026-03-13", offsets)).toBe(-7);
    expect(latestDueOffset(DUE, "2026-03-26", offsets)).toBe(0);
    expect(latestDueOffset(DUE, "2026-03-27", offsets)).toBe(7);
    expect(latestDueOffset(DUE, "2027-01-01", offsets)).toBe(14);
  });
});

describe("a reminder sent by hand", () => {
  it("mails the examiner at once and answers 201 with the reminder", async () => {
    // The route's clock is the real one: a link that works for years yet.
    const e = await examination({ linkExpiresAt: "2099-01-01T00:00:00.000Z" });
    const res = await remindByHand(e.id);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      data: { sentAt: expect.any(String), offsetDays: null, manual: true },
    });
    const rows = await t.db
      .selectFrom("examiner_reminders")
      .selectAll()
      .where("examination_id", "=", e.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({
        offset_days: null,
        sent_by: admin.id,
        sent_at: res.json().data.sentAt,
      }),
    ]);
    const [mail] = await mailsTo(e.email);
    expect(mail?.subject).toMatch(/^Reminder: examination report for /);
    const event = await t.db
      .selectFrom("submission_events")
      .selectAll()
      .where("submission_id", "=", e.submissionId)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      kind: "remind",
      to_value: "reminder sent by hand",
      actor_user_id: admin.id,
    });
    const audit = await t.db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ event: "examiner.reminder_sent", actor_user_id: admin.id });
    expect(JSON.parse(audit.details ?? "{}")).toMatchObject({ manual: true, offsetDays: null });
  });

  it("refuses a second reminder within the hour, saying when the next one can go", async () => {
    const e = await examination();
    const adminUser = { ...(await sessionUserOf(admin.id)) };
    const first = onDay(3, "10:00:00.000Z");
    await sendManualReminder(t.app, adminUser, e.id, first);
    const tooSoon = sendManualReminder(
      t.app,
      adminUser,
      e.id,
      new Date(first.getTime() + MANUAL_REMINDER_GAP_MS - 1000),
    );
    await expect(tooSoon).rejects.toMatchObject({
      code: "conflict",
      message:
        "A reminder went to this examiner by hand at 2026-03-23 10:00 UTC; another can be sent from 2026-03-23 11:00 UTC.",
    });
    await sendManualReminder(
      t.app,
      adminUser,
      e.id,
      new Date(first.getTime() + MANUAL_REMINDER_GAP_MS),
    );
    expect(await offsetsSent(e.id)).toEqual([null, null]);
    expect(await mailsTo(e.email)).toHaveLength(2);
  });

  it("counts a scheduled reminder of the last hour too, and does not stop the schedule", async () => {
    const e = await examination();
    await run(onDay(0, "08:00:00.000Z"));
    const adminUser = await sessionUserOf(admin.id);
    await expect(
      sendManualReminder(t.app, adminUser, e.id, onDay(0, "08:30:00.000Z")),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(
        /^A reminder went to this examiner by the schedule \(on the due date\) at 2026-03-20 08:00 UTC/,
      ),
    });
    await sendManualReminder(t.app, adminUser, e.id, onDay(2));
    await run(onDay(7));
    expect(await offsetsSent(e.id)).toEqual([0, null, 7]);
  });

  it("answers 409 with the reason when no reminder makes sense, and sends nothing", async () => {
    const cases: [ExaminationSetup, string][] = [
      [{ state: "report_submitted" }, "The examiner's report is in: no reminder is needed."],
      [
        { state: "nominated", sentAt: null },
        "The link was never sent to this examiner: send it first.",
      ],
      [
        { linkRevokedAt: "2026-03-01T10:00:00.000Z" },
        "The examiner's link was revoked: send a new link instead of a reminder.",
      ],
      [
        { linkExpiresAt: "2026-01-01T00:00:00.000Z" },
        "The examiner's link has expired: send a new link instead of a reminder.",
      ],
      [
        { state: "replaced" },
        "This examiner was replaced and their link no longer works: remind the current examiner instead.",
      ],
    ];
    for (const [setup, message] of cases) {
      const e = await examination(setup);
      const res = await remindByHand(e.id);
      expect(res.statusCode, message).toBe(409);
      expect(res.json()).toEqual({ success: false, code: "conflict", message });
      expect(await offsetsSent(e.id)).toEqual([]);
      expect(await mailsTo(e.email)).toHaveLength(0);
    }
    const audit = await t.db.selectFrom("audit_log").selectAll().execute();
    expect(audit).toEqual([]);
  });

  it("answers 404 for an unknown examination and 400 for an id that is not one", async () => {
    const missing = await remindByHand(987654);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "not_found" });
    const bad = await remindByHand(0);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "validation" });
  });

  it("is for administrators only", async () => {
    const e = await examination();
    expect((await remindByHand(e.id, student.bearer)).statusCode).toBe(403);
    expect((await remindByHand(e.id, {})).statusCode).toBe(401);
    expect(await offsetsSent(e.id)).toEqual([]);
  });
});

/** The administrator as a signed-in request would carry them, for calling the service directly. */
async function sessionUserOf(id: number) {
  const user = await t.db
    .selectFrom("users")
    .select(["id", "email", "name", "role", "index_number"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    indexNumber: user.index_number,
    sessionId: 0,
    signInMethod: "password" as const,
    signedInAt: nowIso(),
  };
}

describe("the scheduler in the server", () => {
  const dueToday = () => ({
    dueOn: nowIso().slice(0, 10),
    sentAt: nowIso(new Date(Date.now() - 30 * 86_400_000)),
    linkExpiresAt: "2099-01-01T00:00:00.000Z",
  });
  /** A second server over the same database, started and closed: closing waits for its run. */
  const startAndStop = async (mailWorker: boolean) => {
    const app = await buildApp({ ...t.config, mailWorker }, { db: t.db });
    await app.ready();
    await app.close();
  };

  it("runs when the server starts with the background work, and not without it", async () => {
    const e = await examination(dueToday());
    await startAndStop(false);
    expect(await offsetsSent(e.id)).toEqual([]);
    await startAndStop(true);
    expect(await offsetsSent(e.id)).toEqual([0]);
    expect(await mailsTo(e.email)).toHaveLength(1);
    // It gave its lease up on close.
    expect(await t.db.selectFrom("job_leases").selectAll().execute()).toEqual([]);
  });

  it("leaves the run to the server holding the job's lease", async () => {
    const e = await examination(dueToday());
    await t.db
      .insertInto("job_leases")
      .values({
        name: EXAMINER_REMINDERS_JOB,
        holder: "another-server",
        expires_at: nowIso(new Date(Date.now() + 5 * 60_000)),
      })
      .execute();
    try {
      await startAndStop(true);
      expect(await offsetsSent(e.id)).toEqual([]);
    } finally {
      await t.db.deleteFrom("job_leases").execute();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";

let t: TestApp;
let admin: TestUser;
let studentA: TestUser;
let studentB: TestUser;
let noSubmission: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  await makeSubmission(t.db, { indexNumber: "60000001", studentName: "Student A" });
  await makeSubmission(t.db, { indexNumber: "60000002", studentName: "Student B" });
  studentA = await createUser(t.db, "student", {
    indexNumber: "60000001",
    email: "a@st.school.test",
  });
  studentB = await createUser(t.db, "student", {
    indexNumber: "60000002",
    email: "b@st.school.test",
  });
  noSubmission = await createUser(t.db, "student", { indexNumber: "60000009" });
});
afterAll(async () => {
  await t.close();
});

function send(payload: object) {
  return t.app.inject({
    method: "POST",
    url: "/api/admin/messages",
    headers: admin.headers,
    payload,
  });
}

async function inbox(user: TestUser) {
  const res = await t.app.inject({ method: "GET", url: "/api/messages", headers: user.bearer });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    items: { id: number; title: string | null; body: string; read: boolean; broadcast: boolean }[];
    unreadCount: number;
  };
}

describe("messages", () => {
  it("sends a notice to one student, by index number, and mails their account", async () => {
    const res = await send({
      indexNumber: "60000001",
      title: "Corrections",
      body: "Please bring two bound copies.",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true });
    const mail = await t.db
      .selectFrom("outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", "a@st.school.test")
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("ETS Tracking: Corrections");
    expect(mail[0]?.text_body).toContain("Please bring two bound copies.");
  });

  it("broadcasts to every student without mailing anyone", async () => {
    const before = await t.db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const res = await send({
      broadcast: true,
      title: "Closing dates",
      body: "The office closes at 4.",
    });
    expect(res.statusCode).toBe(201);
    const after = await t.db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("shows a student their own notices and broadcasts, newest first, never another's", async () => {
    await send({ indexNumber: "60000002", body: "For B only." });
    const a = await inbox(studentA);
    expect(a.items.map((m) => [m.body, m.broadcast])).toEqual([
      ["The office closes at 4.", true],
      ["Please bring two bound copies.", false],
    ]);
    expect(a.unreadCount).toBe(2);
    const b = await inbox(studentB);
    expect(b.items.map((m) => m.body)).toEqual(["For B only.", "The office closes at 4."]);
    const none = await inbox(noSubmission);
    expect(none.items.map((m) => m.body)).toEqual(["The office closes at 4."]);
  });

  it("marks a message read for that student only", async () => {
    const a = await inbox(studentA);
    const broadcast = a.items.find((m) => m.broadcast);
    expect(broadcast).toBeDefined();
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${broadcast?.id}/read`,
      headers: studentA.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    // Reading twice is harmless.
    const again = await t.app.inject({
      method: "POST",
      url: `/api/messages/${broadcast?.id}/read`,
      headers: studentA.headers,
    });
    expect(again.statusCode).toBe(200);

    const after = await inbox(studentA);
    expect(after.unreadCount).toBe(1);
    expect(after.items.find((m) => m.id === broadcast?.id)?.read).toBe(true);
    const b = await inbox(studentB);
    expect(b.items.find((m) => m.id === broadcast?.id)?.read).toBe(false);
    expect(b.unreadCount).toBe(2);
  });

  it("refuses to mark another student's message, as if it did not exist", async () => {
    const bMessage = (await inbox(studentB)).items.find((m) => !m.broadcast);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${bMessage?.id}/read`,
      headers: studentA.headers,
    });
    expect(res.statusCode).toBe(404);
    const stored = await t.db
      .selectFrom("message_reads")
      .selectAll()
      .where("message_id", "=", bMessage?.id ?? 0)
      .execute();
    expect(stored).toEqual([]);
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/messages/999999/read",
      headers: studentA.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("validates the notice: one recipient kind, a known index number, a body", async () => {
    expect((await send({ indexNumber: "60000001", broadcast: true, body: "x" })).statusCode).toBe(
      400,
    );
    expect((await send({ body: "to nobody" })).statusCode).toBe(400);
    expect((await send({ indexNumber: "60000001", body: "  " })).statusCode).toBe(400);
    const unknown = await send({ indexNumber: "69999999", body: "x" });
    expect(unknown.statusCode).toBe(404);
  });

  it("keeps the Messages tab to students: administrators 403, nobody 401", async () => {
    const asAdmin = await t.app.inject({
      method: "GET",
      url: "/api/messages",
      headers: admin.bearer,
    });
    expect(asAdmin.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/messages" });
    expect(anonymous.statusCode).toBe(401);
  });
});

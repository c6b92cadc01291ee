import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "../../common/accounts.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { postJson, signedInAdmin, signedInStudent } from "../../testing/accounts.js";

let withInbox: TestApp;
let withoutInbox: TestApp;
beforeAll(async () => {
  withInbox = await createTestApp({
    ETS_CONTACT_EMAIL: "sgs@school.edu",
    RATE_LIMIT_CONTACT: "100",
  });
  withoutInbox = await createTestApp({ RATE_LIMIT_CONTACT: "100" });
});
afterAll(async () => {
  await withInbox.close();
  await withoutInbox.close();
});

describe("POST /api/contact", () => {
  it("keeps the message and queues a mail to ETS_CONTACT_EMAIL that answers the writer", async () => {
    const res = await postJson(withInbox.app, "/api/contact", {
      email: "Writer@St.School.edu",
      message: "  Where do I hand in the supervisor form?  ",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.contactReceived });
    const stored = await withInbox.db.selectFrom("contact_messages").selectAll().execute();
    expect(stored).toMatchObject([
      {
        email: "writer@st.school.edu",
        message: "Where do I hand in the supervisor form?",
        handled_at: null,
      },
    ]);
    const mail = await withInbox.db.selectFrom("outbox").selectAll().executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ to_address: "sgs@school.edu", reply_to: "writer@st.school.edu" });
    expect(mail.text_body).toContain("Where do I hand in the supervisor form?");
  });

  it("only keeps the message when no contact address is configured", async () => {
    const res = await postJson(withoutInbox.app, "/api/contact", {
      email: "quiet@st.school.edu",
      message: "Hello",
    });
    expect(res.statusCode).toBe(201);
    expect(
      await withoutInbox.db.selectFrom("contact_messages").select("id").execute(),
    ).toHaveLength(1);
    expect(await withoutInbox.db.selectFrom("outbox").select("id").execute()).toEqual([]);
  });

  it("requires an email and a message of at most 5000 characters", async () => {
    const empty = await postJson(withoutInbox.app, "/api/contact", {
      email: "a@b.edu",
      message: "   ",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual([{ field: "message", message: "Enter your message." }]);
    const long = await postJson(withoutInbox.app, "/api/contact", {
      email: "a@b.edu",
      message: "x".repeat(5001),
    });
    expect(long.json().fields[0].field).toBe("message");
    const noEmail = await postJson(withoutInbox.app, "/api/contact", { message: "hi" });
    expect(noEmail.json().fields[0]).toEqual({
      field: "email",
      message: "Enter your email address.",
    });
  });
});

describe("GET /api/admin/contact_messages", () => {
  it("shows administrators the messages, newest first, and nobody else", async () => {
    await postJson(withoutInbox.app, "/api/contact", {
      email: "later@st.school.edu",
      message: "Second",
    });
    const admin = await signedInAdmin(withoutInbox.app, "reader@school.edu");
    const res = await withoutInbox.app.inject({
      method: "GET",
      url: "/api/admin/contact_messages",
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Array<{ email: string; message: string; createdAt: string }>;
    expect(items.map((m) => m.message)).toEqual(["Second", "Hello"]);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      email: "later@st.school.edu",
      message: "Second",
      createdAt: expect.any(String),
    });

    const student = await signedInStudent(withoutInbox.app, "nosy@st.school.edu", "CT-0001");
    const asStudent = await withoutInbox.app.inject({
      method: "GET",
      url: "/api/admin/contact_messages",
      headers: { cookie: student },
    });
    expect(asStudent.statusCode).toBe(403);
    const anonymous = await withoutInbox.app.inject({
      method: "GET",
      url: "/api/admin/contact_messages",
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  ADMIN_PASSCODE,
  addSubmission,
  latestCodeFor,
  postJson,
  signInAs,
  signUpStudent,
  signedInAdmin,
  signedInStudent,
} from "../../testing/accounts.js";
import { enqueueMail } from "../mail/outbox.js";

let t: TestApp;
let admin: string;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_SIGN_IN: "10000",
    RATE_LIMIT_SIGN_UP: "10000",
    RATE_LIMIT_ACCOUNT_CODES: "10000",
  });
  admin = await signedInAdmin(t.app, "head@school.edu");
  adminId = await userId("head@school.edu");
});
afterAll(async () => {
  await t.close();
});

async function userId(email: string): Promise<number> {
  const row = await t.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function get(url: string, cookie = admin) {
  return t.app.inject({ method: "GET", url, headers: { cookie } });
}

async function auditEvents(
  subject: string,
): Promise<Array<{ event: string; actor: number | null }>> {
  const rows = await t.db
    .selectFrom("audit_log")
    .select(["event", "actor_user_id"])
    .where("subject", "=", subject)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ event: r.event, actor: r.actor_user_id }));
}

describe("GET /api/admin/users", () => {
  it("lists administrators and students, each student with the submission their index number links to", async () => {
    const submissionId = await addSubmission(t.db, "AD-0001", { studentName: "Yaw Boateng" });
    await signUpStudent(t.app, "yaw@st.school.edu", "AD-0001");
    await signUpStudent(t.app, "nosub@st.school.edu", "AD-0002");

    const res = await get("/api/admin/users");
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Array<Record<string, unknown>>;
    expect(items.find((u) => u.email === "yaw@st.school.edu")).toEqual({
      id: expect.any(Number),
      email: "yaw@st.school.edu",
      name: "Yaw Boateng",
      role: "student",
      indexNumber: "AD-0001",
      active: true,
      createdAt: expect.any(String),
      lastSignInAt: null,
      submission: { id: submissionId, studentName: "Yaw Boateng" },
    });
    expect(items.find((u) => u.email === "nosub@st.school.edu")?.submission).toBeNull();
    expect(items.find((u) => u.email === "head@school.edu")).toMatchObject({
      role: "admin",
      name: "Test Admin",
      lastSignInAt: expect.any(String),
    });
  });

  it("filters by role and searches email, name and index number, taking % and _ literally", async () => {
    const admins = (await get("/api/admin/users?role=admin")).json().items as Array<{
      role: string;
    }>;
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.every((u) => u.role === "admin")).toBe(true);

    const byName = (await get("/api/admin/users?q=BOATENG")).json().items as Array<{
      email: string;
    }>;
    expect(byName.map((u) => u.email)).toEqual(["yaw@st.school.edu"]);
    const byIndex = (await get("/api/admin/users?role=student&q=ad-0002")).json().items as Array<{
      email: string;
    }>;
    expect(byIndex.map((u) => u.email)).toEqual(["nosub@st.school.edu"]);
    expect((await get("/api/admin/users?q=%25")).json().items).toEqual([]);
    expect((await get("/api/admin/users?role=teacher")).statusCode).toBe(400);
  });
});

describe("POST /api/admin/users (new_user_entry)", () => {
  it("creates an administrator who can then sign in with the passcode", async () => {
    const res = await postJson(
      t.app,
      "/api/admin/users",
      { name: "Efua Asante", email: "Efua@School.edu", passcode: "a long enough passcode" },
      { cookie: admin },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      message: "Administrator efua@school.edu created.",
      user: expect.objectContaining({
        email: "efua@school.edu",
        name: "Efua Asante",
        role: "admin",
        active: true,
        submission: null,
      }),
    });
    const signIn = await postJson(t.app, "/api/user_sign_in", {
      email: "efua@school.edu",
      password: "a long enough passcode",
    });
    expect(signIn.json().user).toEqual({ role: "admin", indexNumber: null });
    expect(await auditEvents("efua@school.edu")).toContainEqual({
      event: "admin.created",
      actor: adminId,
    });
  });

  it("requires a name and a passcode of at least 12 characters, and a new email", async () => {
    const short = await postJson(
      t.app,
      "/api/admin/users",
      { name: "Short", email: "short@school.edu", passcode: "elevenchars" },
      { cookie: admin },
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual([
      { field: "passcode", message: "Passcode must be at least 12 characters." },
    ]);
    const noName = await postJson(
      t.app,
      "/api/admin/users",
      { name: " ", email: "noname@school.edu", passcode: "a long enough passcode" },
      { cookie: admin },
    );
    expect(noName.json().fields[0].field).toBe("name");
    const duplicate = await postJson(
      t.app,
      "/api/admin/users",
      { name: "Again", email: "head@school.edu", passcode: "a long enough passcode" },
      { cookie: admin },
    );
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ success: false, code: "conflict" });
  });
});

describe("deactivating and reactivating", () => {
  it("signs a deactivated administrator out at once and keeps them out until reactivated", async () => {
    const other = await signedInAdmin(t.app, "leaving@school.edu");
    const id = await userId("leaving@school.edu");
    expect((await get("/api/me", other)).statusCode).toBe(200);

    const off = await postJson(t.app, `/api/admin/users/${id}/deactivate`, {}, { cookie: admin });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ success: true });
    expect((await get("/api/me", other)).statusCode).toBe(401);
    const sessions = await t.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(sessions).toEqual([]);
    const refused = await postJson(t.app, "/api/user_sign_in", {
      email: "leaving@school.edu",
      password: ADMIN_PASSCODE,
    });
    expect(refused.statusCode).toBe(403);
    const listed = (await get("/api/admin/users?q=leaving")).json().items[0];
    expect(listed.active).toBe(false);

    const on = await postJson(t.app, `/api/admin/users/${id}/reactivate`, {}, { cookie: admin });
    expect(on.statusCode).toBe(200);
    await signInAs(t.app, "leaving@school.edu", ADMIN_PASSCODE);
    expect((await auditEvents("leaving@school.edu")).filter((e) => e.actor === adminId)).toEqual([
      { event: "user.deactivated", actor: adminId },
      { event: "user.reactivated", actor: adminId },
    ]);
  });

  it("does not let an administrator deactivate themselves", async () => {
    const res = await postJson(
      t.app,
      `/api/admin/users/${adminId}/deactivate`,
      {},
      { cookie: admin },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("You cannot deactivate your own account.");
    expect((await get("/api/me")).statusCode).toBe(200);
  });

  it("answers 404 for an unknown account and 400 for an id that is not a number", async () => {
    expect(
      (await postJson(t.app, "/api/admin/users/999999/deactivate", {}, { cookie: admin }))
        .statusCode,
    ).toBe(404);
    const bad = await postJson(t.app, "/api/admin/users/abc/reactivate", {}, { cookie: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe("id");
  });
});

describe("POST /api/admin/users/:id/resend_code", () => {
  it("mails the student a new code; the old one stops working", async () => {
    const oldCode = await signUpStudent(t.app, "lost@st.school.edu", "AD-0003");
    const id = await userId("lost@st.school.edu");
    const res = await postJson(t.app, `/api/admin/users/${id}/resend_code`, {}, { cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: "A new code has been sent to lost@st.school.edu.",
    });
    const newCode = await latestCodeFor(t.db, "lost@st.school.edu");
    if (newCode !== oldCode) {
      const old = await postJson(t.app, "/api/user_sign_in", {
        email: "lost@st.school.edu",
        password: oldCode,
      });
      expect(old.statusCode).toBe(401);
    }
    await signInAs(t.app, "lost@st.school.edu", newCode);
    expect(await auditEvents("lost@st.school.edu")).toContainEqual({
      event: "code.resent",
      actor: adminId,
    });
  });

  it("refuses administrators, who have passcodes instead", async () => {
    const res = await postJson(
      t.app,
      `/api/admin/users/${adminId}/resend_code`,
      {},
      { cookie: admin },
    );
    expect(res.statusCode).toBe(409);
  });
});

describe("GET /api/admin/mail/failed", () => {
  it("lists only mail that failed for good, without its text", async () => {
    const failedId = await enqueueMail(t.db, {
      to: "bounced@st.school.edu",
      subject: "Bounced",
      text: "secret body",
      template: { name: "test" },
    });
    await t.db
      .updateTable("outbox")
      .set({ status: "failed", attempts: 8, last_error: "550 mailbox unavailable" })
      .where("id", "=", failedId)
      .execute();
    await enqueueMail(t.db, {
      to: "waiting@st.school.edu",
      subject: "Waiting",
      text: "x",
      template: { name: "test" },
    });

    const items = (await get("/api/admin/mail/failed")).json().items as Array<{ to: string }>;
    expect(items).toEqual([
      {
        id: failedId,
        to: "bounced@st.school.edu",
        subject: "Bounced",
        attempts: 8,
        lastError: "550 mailbox unavailable",
        createdAt: expect.any(String),
      },
    ]);
  });
});

describe("who may manage accounts", () => {
  it("gives a signed-in student 403 on the account management routes", async () => {
    const student = await signedInStudent(t.app, "curious@st.school.edu", "AD-0004");
    expect((await get("/api/admin/users", student)).statusCode).toBe(403);
    const create = await postJson(
      t.app,
      "/api/admin/users",
      { name: "Me", email: "me-too@school.edu", passcode: "a long enough passcode" },
      { cookie: student },
    );
    expect(create.statusCode).toBe(403);
    expect(
      await t.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", "me-too@school.edu")
        .execute(),
    ).toEqual([]);
  });
});

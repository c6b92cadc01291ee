import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { ADMIN_PASSCODE, addSubmission, postJson, signInAs } from "../../testing/accounts.js";
import { createAdmin } from "./admins.js";
import { insertStudent, setPasswordHash } from "./repository.js";
import { hashSecret } from "./passwords.js";

/**
 * ETS_LOCAL_SIGN_IN (issue 10): with single sign-on in place, "admins-only" keeps password sign-in
 * for administrators only (break-glass) and "off" turns every local sign-in and sign-up off.
 * "on" is what accounts.test.ts proves, unchanged.
 */

const RAISED_LIMITS = {
  RATE_LIMIT_SIGN_IN: "10000",
  RATE_LIMIT_SIGN_UP: "10000",
  RATE_LIMIT_CODE_REQUEST: "10000",
  RATE_LIMIT_ACCOUNT_CODES: "10000",
};
// Discovery happens at the first single sign-on, so these tests need no provider running.
const SSO = {
  OIDC_ISSUER: "http://127.0.0.1:9/",
  OIDC_CLIENT_ID: "ets",
  OIDC_LABEL: "UG Account",
};
const STUDENT_PASSWORD = "a student password";

describe.each([["admins-only"], ["off"]] as const)("ETS_LOCAL_SIGN_IN=%s", (mode) => {
  let t: TestApp;
  const studentEmail = `student-${mode}@students.sgs.test`;
  const adminEmail = "breakglass@staff.sgs.test";

  beforeAll(async () => {
    t = await createTestApp({ ...RAISED_LIMITS, ...SSO, ETS_LOCAL_SIGN_IN: mode });
    // Accounts made while local sign-in was still on: a student with a password, an administrator.
    await addSubmission(t.db, `LS-${mode}`, { studentEmail });
    const studentId = await insertStudent(t.db, {
      email: studentEmail,
      indexNumber: `LS-${mode}`,
      name: "Student",
    });
    await setPasswordHash(t.db, studentId, await hashSecret(STUDENT_PASSWORD));
    await createAdmin(t.db, { name: "Break Glass", email: adminEmail, password: ADMIN_PASSCODE });
  });
  afterAll(async () => {
    await t.close();
  });

  it("tells the login page which local sign-ins remain", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/sso" });
    expect(res.json<{ data: { localSignIn: string } }>().data.localSignIn).toBe(mode);
  });

  it("refuses a student's password sign-in with a message pointing to the university sign-in", async () => {
    const res = await postJson(t.app, "/api/user_sign_in", {
      email: studentEmail,
      password: STUDENT_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('"Sign in with UG Account"');
    expect(res.cookies.find((c) => c.name === "ets_session")).toBeUndefined();
    const audit = await t.db
      .selectFrom("audit_log")
      .select("details")
      .where("event", "=", "sign_in.refused")
      .where("subject", "=", studentEmail)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toEqual({ reason: "local_sign_in_off" });
  });

  it("refuses the code sign-up and code requests", async () => {
    await addSubmission(t.db, `LS-new-${mode}`);
    const signUp = await postJson(t.app, "/api/create_user", {
      email: `new-${mode}@students.sgs.test`,
      indexNumber: `LS-new-${mode}`,
    });
    expect(signUp.statusCode).toBe(403);
    expect(signUp.json<{ message: string }>().message).toContain("UG Account");
    const code = await postJson(t.app, "/api/request_code", { email: studentEmail });
    expect(code.statusCode).toBe(403);
    const users = await t.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", `new-${mode}@students.sgs.test`)
      .execute();
    expect(users).toHaveLength(0);
  });

  it("still answers a wrong password as a wrong password, telling nothing about the account", async () => {
    const res = await postJson(t.app, "/api/user_sign_in", {
      email: studentEmail,
      password: "not the password",
    });
    // "admins-only" checks the password first; "off" refuses everyone before looking.
    expect(res.statusCode).toBe(mode === "off" ? 403 : 401);
  });

  if (mode === "admins-only") {
    it("keeps the administrators' password sign-in (break-glass)", async () => {
      await expect(signInAs(t.app, adminEmail, ADMIN_PASSCODE)).resolves.toMatch(/^ets_session=/);
    });
  } else {
    it("refuses the administrators' password sign-in too", async () => {
      const res = await postJson(t.app, "/api/user_sign_in", {
        email: adminEmail,
        password: ADMIN_PASSCODE,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ message: string }>().message).toMatch(/turned off/);
    });
  }
});

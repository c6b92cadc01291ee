import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { postJson, signedInAdmin, signedInStudent } from "../../testing/accounts.js";

// GET /api/session: the web app's first probe. Signed out is a 200 with `user: null` (no 401 for
// the browser to log); signed in, the same user /api/me gives.
const RAISED_LIMITS = {
  RATE_LIMIT_SIGN_IN: "10000",
  RATE_LIMIT_SIGN_UP: "10000",
  RATE_LIMIT_CODE_REQUEST: "10000",
  RATE_LIMIT_ACCOUNT_CODES: "10000",
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(RAISED_LIMITS);
});
afterAll(async () => {
  await t.close();
});

function session(headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url: "/api/session", headers });
}

describe("GET /api/session", () => {
  it("answers 200 with a null user when nobody is signed in, and is never cached", async () => {
    const res = await session();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("answers a null user for an unknown session cookie, where /api/me answers 401", async () => {
    const cookie = "ets_session=not-a-session-token";
    const res = await session({ cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it("gives a signed-in student the same user as /api/me, by cookie or Bearer token", async () => {
    const cookie = await signedInStudent(t.app, "probe@st.school.edu", "PR-0001");
    const res = await session({ cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: expect.any(Number),
        email: "probe@st.school.edu",
        name: null,
        role: "student",
        indexNumber: "PR-0001",
        hasPassword: false,
      },
    });
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(res.json()).toEqual(me.json());
    const token = cookie.split("=")[1] ?? "";
    const bearer = await session({ authorization: `Bearer ${token}` });
    expect(bearer.json().user.email).toBe("probe@st.school.edu");
  });

  it("gives an administrator their role", async () => {
    const cookie = await signedInAdmin(t.app, "probe-admin@school.edu");
    const res = await session({ cookie });
    expect(res.json().user).toMatchObject({ email: "probe-admin@school.edu", role: "admin" });
  });

  it("answers a null user after sign-out", async () => {
    const cookie = await signedInStudent(t.app, "probe-out@st.school.edu", "PR-0002");
    expect((await session({ cookie })).json().user).not.toBeNull();
    expect((await postJson(t.app, "/api/logout", {}, { cookie })).statusCode).toBe(200);
    const after = await session({ cookie });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ user: null });
  });
});

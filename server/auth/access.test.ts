import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  addSubmission,
  sessionCookie,
  signedInAdmin,
  signedInStudent,
} from "../../testing/accounts.js";

let t: TestApp;
let studentA: string;
let studentB: string;
let studentC: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SIGN_IN: "10000", RATE_LIMIT_SIGN_UP: "10000" });
  await addSubmission(t.db, "AC-0001", { studentName: "Abena A" });
  await addSubmission(t.db, "AC-0002", { studentName: "Bright B" });
  studentA = await signedInStudent(t.app, "a@st.school.edu", "AC-0001");
  studentB = await signedInStudent(t.app, "b@st.school.edu", "AC-0002");
  studentC = await signedInStudent(t.app, "c@st.school.edu", "AC-0003");
  admin = await signedInAdmin(t.app, "boss@school.edu");
});
afterAll(async () => {
  await t.close();
});

function get(url: string, cookie?: string) {
  return t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
}

describe("GET /api/submissions/:indexNumber", () => {
  it("lets a student read their own submission", async () => {
    const res = await get("/api/submissions/AC-0001", studentA);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ studentName: "Abena A", indexNumber: "AC-0001" });
  });

  it("gives a student 403 for another index number, the same whether or not it exists", async () => {
    const other = await get("/api/submissions/AC-0002", studentA);
    const missing = await get("/api/submissions/AC-9999", studentA);
    expect(other.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toBe(other.body);
    expect(other.body).not.toContain("Bright");
  });

  it("lets an administrator read any submission", async () => {
    const res = await get("/api/submissions/AC-0002", admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.studentName).toBe("Bright B");
  });

  it("answers 401 without a session, and for an unknown or oversized token", async () => {
    expect((await get("/api/submissions/AC-0001")).statusCode).toBe(401);
    expect((await get("/api/submissions/AC-0001", "ets_session=forged")).statusCode).toBe(401);
    const huge = await t.app.inject({
      method: "GET",
      url: "/api/submissions/AC-0001",
      headers: { authorization: `Bearer ${"x".repeat(5000)}` },
    });
    expect(huge.statusCode).toBe(401);
  });

  it("answers 404 with a message the status screen can show when no submission is on file yet", async () => {
    const res = await get("/api/submissions/AC-0003", studentC);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      success: false,
      code: "not_found",
      message: expect.stringMatching(/No submission is on file/),
    });
  });
});

describe("administrator routes", () => {
  /** Every /api/admin route the OpenAPI document lists, with placeholder path parameters. */
  async function adminRoutes(): Promise<Array<{ method: string; url: string }>> {
    const doc = (await get("/api/openapi.json")).json() as { paths: Record<string, object> };
    return Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/admin"))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase(),
          url: path.replace(/\{[^}]+\}/g, "1"),
        })),
      );
  }

  it("gives a signed-in student 403 on every administrator route, and nobody 401", async () => {
    const routes = await adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const { method, url } of routes) {
      const asStudent = await t.app.inject({
        method: method as "GET",
        url,
        headers: { cookie: studentB, origin: "http://localhost:3000" },
      });
      expect(asStudent.statusCode, `${method} ${url} as a student`).toBe(403);
      const anonymous = await t.app.inject({
        method: method as "GET",
        url,
        headers: { origin: "http://localhost:3000" },
      });
      expect(anonymous.statusCode, `${method} ${url} without a session`).toBe(401);
    }
  });

  it("cannot be reached by a student through a percent-encoded path", async () => {
    const res = await get("/api/%61dmin/users", studentB);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain("boss@school.edu");
  });
});

describe("cross-site request protection (Origin check)", () => {
  it("refuses a cookie-authenticated write without Origin or Referer, and from another site", async () => {
    const cookie = await signedInStudent(t.app, "csrf@st.school.edu", "CS-0001");
    const noOrigin = await t.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { cookie },
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json()).toEqual({
      success: false,
      code: "forbidden",
      message: "Cross-site request refused.",
    });
    const evil = await t.app.inject({
      method: "POST",
      url: "/api/change_password",
      headers: { cookie, origin: "https://evil.example" },
      payload: { newPassword: "chosen by the attacker" },
    });
    expect(evil.statusCode).toBe(403);
    // Nothing happened: still signed in, still no password.
    expect((await get("/api/me", cookie)).json().user.hasPassword).toBe(false);

    const sameSiteReferer = await t.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { cookie, referer: "http://localhost:3000/dashboard" },
    });
    expect(sameSiteReferer.statusCode).toBe(200);
  });

  it("accepts a Bearer-authenticated write without Origin (API clients)", async () => {
    const code = await signedInStudent(t.app, "api@st.school.edu", "CS-0002");
    const token = code.split("=")[1];
    const res = await t.app.inject({
      method: "POST",
      url: "/api/change_password",
      headers: { authorization: `Bearer ${token}` },
      payload: { newPassword: "an api client password" },
    });
    expect(res.statusCode).toBe(200);
  });

  it("refuses a sign-in posted from another site", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user_sign_in",
      headers: { origin: "https://evil.example" },
      payload: { email: "boss@school.edu", password: "whatever it is" },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("security headers", () => {
  it("sends CSP with frame-ancestors 'none', nosniff and a Referrer-Policy, and no HSTS over http", async () => {
    const res = await get("/api/me", admin);
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    // An API answer is not a page: it may load nothing (server/http/security-headers.ts).
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS and Secure cookies when PUBLIC_URL is https", async () => {
    const https = await createTestApp({ PUBLIC_URL: "https://ets.school.edu" });
    try {
      await signedInAdmin(https.app, "secure@school.edu").catch(() => undefined);
      const res = await https.app.inject({
        method: "POST",
        url: "/api/user_sign_in",
        headers: { origin: "https://ets.school.edu" },
        payload: { email: "secure@school.edu", password: "correct horse battery" },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      const cookie = res.cookies.find((c) => c.name === "ets_session");
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
      expect(sessionCookie(res)).toMatch(/^ets_session=/);
    } finally {
      await https.close();
    }
  });
});

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { API_TOKEN_SCOPES, type ApiTokenScope } from "../../common/api-tokens.js";
import { addSubmission, SITE, signedInAdmin, signedInStudent } from "../../testing/accounts.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { API_TOKEN_CACHE_MS, apiTokenChecker } from "./api-tokens.js";
import { TOKEN_AND_COOKIE_MESSAGE } from "./plugin.js";

/**
 * API tokens (issue 21, docs/decisions/022-api-tokens.md): scopes against every registered route,
 * expiry, revocation, hashing, audit, and the mix of token and cookie.
 */

let t: TestApp;
let admin: string;
const tokens = new Map<ApiTokenScope, string>();

async function createToken(
  name: string,
  scopes: readonly ApiTokenScope[],
  expiresInDays = 30,
): Promise<{ id: number; token: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/api-tokens",
    headers: { ...SITE, cookie: admin },
    payload: { name, scopes, expiresInDays },
  });
  expect(res.statusCode).toBe(201);
  const body = res.json<{ data: { id: number }; token: string }>();
  return { id: body.data.id, token: body.token };
}

function withToken(token: string, method: string, url: string, payload?: object) {
  return t.app.inject({
    method: method as "GET",
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_SIGN_IN: "10000",
    RATE_LIMIT_SIGN_UP: "10000",
    RATE_LIMIT_API_TOKEN: "100000",
  });
  await addSubmission(t.db, "AC-0001", { studentName: "Ama Mensah" });
  admin = await signedInAdmin(t.app, "boss@school.edu");
  for (const scope of API_TOKEN_SCOPES) {
    tokens.set(scope, (await createToken(`only ${scope}`, [scope])).token);
  }
});
afterAll(async () => {
  await t.close();
});

/** A concrete URL for a route pattern: every parameter gets a value of the right shape. */
function concrete(url: string): string {
  return url
    .replace(":indexNumber", "AC-0001")
    .replace(":item", "thesis")
    .replace(":role", "internal")
    .replace(/:[A-Za-z]+/g, "1")
    .replace("*", "x");
}

describe("scopes against every registered route", () => {
  it("knows the app's routes, with the scopes the convention names", () => {
    const routes = t.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(40);
    const scopeOf = (method: string, url: string) =>
      routes.find((r) => r.method === method && r.url === url)?.tokenScope;
    expect(scopeOf("GET", "/api/submissions")).toBe("submissions:read");
    expect(scopeOf("PATCH", "/api/admin/submissions/:id")).toBe("submissions:write");
    expect(scopeOf("GET", "/api/documents/:id/file")).toBe("documents:read");
    expect(scopeOf("GET", "/api/admin/examiners")).toBe("examinations:read");
    expect(scopeOf("GET", "/api/admin/stats")).toBe("stats:read");
    expect(scopeOf("PUT", "/api/admin/submissions/:indexNumber/financial-clearance")).toBe(
      "clearance:write",
    );
    expect(scopeOf("GET", "/api/admin/api-tokens")).toBeNull();
    expect(scopeOf("POST", "/api/admin/users")).toBeNull();
    for (const scope of API_TOKEN_SCOPES) {
      expect(routes.some((r) => r.tokenScope === scope)).toBe(true);
    }
  });

  it("lets each scope call exactly its routes and refuses the rest with 403 naming the scope", async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const url = concrete(route.url);
      const payload = ["POST", "PUT", "PATCH", "DELETE"].includes(route.method) ? {} : undefined;
      for (const scope of API_TOKEN_SCOPES) {
        const res = await withToken(tokens.get(scope) ?? "", route.method, url, payload);
        const where = `${route.method} ${route.url} with ${scope}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (route.tokenScope === scope) {
          if (res.statusCode === 401 || res.statusCode === 403) failures.push(`refused ${where}`);
        } else if (res.statusCode !== 403) {
          failures.push(`not refused ${where}`);
        } else if (route.method !== "HEAD") {
          const message = res.json<{ message: string }>().message;
          const expected =
            route.tokenScope === null
              ? "API tokens cannot call this route"
              : `lacks the scope "${route.tokenScope}"`;
          if (!message.includes(expected)) failures.push(`wrong message ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses a token with every scope on the routes that name none (token management among them)", async () => {
    const all = (await createToken("everything", API_TOKEN_SCOPES)).token;
    const res = await withToken(all, "GET", "/api/admin/api-tokens");
    expect(res.statusCode).toBe(403);
    const create = await withToken(all, "POST", "/api/admin/api-tokens", {
      name: "sneaky",
      scopes: ["stats:read"],
      expiresInDays: 1,
    });
    expect(create.statusCode).toBe(403);
    const read = await withToken(all, "GET", "/api/submissions/AC-0001");
    expect(read.statusCode).toBe(200);
    expect(read.json().data.studentName).toBe("Ama Mensah");
  });
});

describe("a token's life", () => {
  it("is refused with 401 once expired, at once", async () => {
    const { token } = await createToken("expiring", ["stats:read"], 1);
    expect((await withToken(token, "GET", "/api/admin/stats")).statusCode).toBe(200);
    // Only the clock moves on (a day and a minute): the token just read is not read again.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
      const res = await withToken(token, "GET", "/api/admin/stats");
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("is refused by another server within two seconds of being revoked, by this one at once", async () => {
    const { id, token } = await createToken("two servers", ["stats:read"]);
    const here = apiTokenChecker(t.db);
    const there = apiTokenChecker(t.db);
    const now = new Date();
    expect((await here.check(token, "127.0.0.1", now)).ok).toBe(true);
    expect((await there.check(token, "127.0.0.1", now)).ok).toBe(true);
    await t.db
      .updateTable("api_tokens")
      .set({ revoked_at: now.toISOString() })
      .where("id", "=", id)
      .execute();
    here.forget(id);
    expect((await here.check(token, "127.0.0.1", now)).ok).toBe(false);
    const soon = new Date(now.getTime() + 1000);
    expect((await there.check(token, "127.0.0.1", soon)).ok).toBe(true);
    const later = new Date(now.getTime() + API_TOKEN_CACHE_MS);
    expect(await there.check(token, "127.0.0.1", later)).toEqual({
      ok: false,
      message: "This API token has been revoked.",
    });
  });

  it("is refused with 401 once revoked, and the list says so", async () => {
    const { id, token } = await createToken("revoked soon", ["stats:read"]);
    expect((await withToken(token, "GET", "/api/admin/stats")).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: "POST",
      url: `/api/admin/api-tokens/${id}/revoke`,
      headers: { ...SITE, cookie: admin },
    });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().data.state).toBe("revoked");
    const res = await withToken(token, "GET", "/api/admin/stats");
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/revoked/);
  });

  it("answers 401 for a token the server never issued", async () => {
    const res = await withToken(`ets_${"A".repeat(43)}`, "GET", "/api/admin/stats");
    expect(res.statusCode).toBe(401);
  });

  it("is kept only as its SHA-256: no column of the table holds the token", async () => {
    const { id, token } = await createToken("hashed", ["stats:read"]);
    const row = await t.db
      .selectFrom("api_tokens")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Object.values(row).map(String)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice(12));
    expect(row.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(token).toMatch(/^ets_[A-Za-z0-9_-]{43}$/);
    const audit = await t.db.selectFrom("audit_log").select("details").execute();
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("lists when and from where each token was last used, never the token", async () => {
    const { id, token } = await createToken("listed", ["stats:read"]);
    await t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: "127.0.0.9",
    });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/api-tokens?pageSize=100",
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(token);
    const listed = res.json<{ items: { id: number; lastUsedFrom: string; lastUsedAt: string }[] }>()
      .items;
    const entry = listed.find((item) => item.id === id);
    expect(entry?.lastUsedFrom).toBe("127.0.0.9");
    expect(entry?.lastUsedAt).toMatch(/^\d{4}-/);
  });

  it("refuses a name that is blank and an expiry past a year, naming the field", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/api-tokens",
      headers: { ...SITE, cookie: admin },
      payload: { name: " ", scopes: [], expiresInDays: 1000 },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json<{ fields: { field: string }[] }>().fields.map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["name", "scopes", "expiresInDays"]));
  });
});

describe("tokens and cookies", () => {
  it("refuses a request carrying both a token and a session cookie, even on a route both may call", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: { authorization: `Bearer ${tokens.get("stats:read")}`, cookie: admin },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(TOKEN_AND_COOKIE_MESSAGE);
  });

  it("never serves a page to a token", async () => {
    const res = await withToken(tokens.get("submissions:read") ?? "", "GET", "/admin/submissions");
    expect(res.statusCode).toBe(403);
  });

  it("needs no Origin for a write made with a token, while a cookie write still does", async () => {
    const token = tokens.get("clearance:write") ?? "";
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/admin/submissions/AC-0001/financial-clearance",
      headers: { authorization: `Bearer ${token}`, origin: "https://elsewhere.example" },
      payload: { cleared: false },
    });
    expect(res.statusCode).toBe(200);
    const cookieWrite = await t.app.inject({
      method: "POST",
      url: "/api/admin/api-tokens",
      headers: { cookie: admin },
      payload: { name: "no origin", scopes: ["stats:read"], expiresInDays: 1 },
    });
    expect(cookieWrite.statusCode).toBe(403);
  });

  it("audits a write made with a token under the token's name, and a scope refusal", async () => {
    const token = tokens.get("clearance:write") ?? "";
    await withToken(token, "PUT", "/api/admin/submissions/AC-0001/financial-clearance", {
      cleared: true,
      clearedOn: "2026-11-02",
    });
    await withToken(token, "GET", "/api/admin/stats");
    // Written once the answer is sent (onResponse): read until both rows are there, a second at most.
    let rows: { event: string; details: string | null }[] = [];
    for (let attempt = 0; attempt < 40; attempt += 1) {
      rows = await t.db
        .selectFrom("audit_log")
        .select(["event", "details"])
        .where("event", "in", ["api_token.used", "api_token.refused"])
        .where("details", "like", "%only clearance:write%")
        .execute();
      if (rows.some((r) => r.details?.includes("/api/admin/stats"))) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const used = rows.find(
      (r) =>
        r.event === "api_token.used" &&
        r.details?.includes("financial-clearance") &&
        r.details.includes('"status":200') &&
        r.details.includes("only clearance:write"),
    );
    expect(JSON.parse(used?.details ?? "{}")).toMatchObject({
      tokenName: "only clearance:write",
      method: "PUT",
      status: 200,
    });
    const refused = rows.find(
      (r) =>
        r.event === "api_token.refused" &&
        r.details?.includes("/api/admin/stats") &&
        r.details.includes("only clearance:write"),
    );
    expect(JSON.parse(refused?.details ?? "{}")).toMatchObject({
      tokenName: "only clearance:write",
      status: 403,
    });
  });
});

describe("per-token request limit", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_SIGN_IN: "10000", RATE_LIMIT_API_TOKEN: "3" });
  });
  afterAll(async () => {
    await limited.close();
  });

  it("refuses the fourth request in a minute with 429, counted per token in the shared store", async () => {
    const boss = await signedInAdmin(limited.app, "limits@school.edu");
    const make = async (name: string) => {
      const res = await limited.app.inject({
        method: "POST",
        url: "/api/admin/api-tokens",
        headers: { ...SITE, cookie: boss },
        payload: { name, scopes: ["stats:read"], expiresInDays: 1 },
      });
      return res.json<{ data: { id: number }; token: string }>();
    };
    const first = await make("first");
    const second = await make("second");
    const call = (token: string) =>
      limited.app.inject({
        method: "GET",
        url: "/api/admin/stats",
        headers: { authorization: `Bearer ${token}` },
      });
    for (let i = 0; i < 3; i += 1) expect((await call(first.token)).statusCode).toBe(200);
    const over = await call(first.token);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/API token/);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect((await call(second.token)).statusCode).toBe(200);
    const counter = await limited.db
      .selectFrom("rate_limit_counters")
      .select("count")
      .where("key", "=", `api-token:${first.data.id}`)
      .executeTakeFirstOrThrow();
    expect(counter.count).toBe(4);
  });
});

describe("students and tokens", () => {
  it("keeps a student's own cookie read working beside tokens", async () => {
    await addSubmission(t.db, "AC-0002", { studentName: "Kofi Mensah" });
    const student = await signedInStudent(t.app, "kofi@st.school.edu", "AC-0002");
    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions/AC-0002",
      headers: { cookie: student },
    });
    expect(res.statusCode).toBe(200);
  });
});

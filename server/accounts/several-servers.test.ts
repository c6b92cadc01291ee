import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { nowIso } from "../db/database.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import { LIMITS_UNAVAILABLE_MESSAGE } from "../auth/rate-limit-store.js";
import { findAccountByEmail, setActive } from "./repository.js";
import {
  ADMIN_PASSCODE,
  postJson,
  signedInAdmin,
  signedInStudent,
  signUpStudent,
  SITE,
} from "../../testing/accounts.js";

/**
 * Two app servers on one database, each with its own connection, as behind a reverse proxy: the
 * request limits and the account back-off hold for both together as they do for one server
 * (docs/decisions/008-several-servers.md). The limits are written out: the tests count to them.
 */
let first: TestApp;
let second: FastifyInstance;
beforeAll(async () => {
  first = await createTestApp({
    RATE_LIMIT_SIGN_IN: "10",
    RATE_LIMIT_ACCOUNT_CODES: "3",
    RATE_LIMIT_ACCOUNT_FAILURES: "5",
    RATE_LIMIT_UPLOADS: "2",
  });
  // No db passed: the second server opens its own connection from the same DATABASE_URL.
  second = await buildApp(first.config, { webRoot: path.join(os.tmpdir(), "ets-no-web") });
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await first.close();
});

/** The two servers in turn, as a round-robin proxy hands requests out. */
const server = (i: number) => (i % 2 === 0 ? first.app : second);

let nextAddress = 1;
const freshIp = () => `10.20.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

async function signIn(app: FastifyInstance, email: string, password: string, ip = freshIp()) {
  return postJson(app, "/api/user_sign_in", { email, password }, { ip });
}

async function counters(like: string) {
  return first.db
    .selectFrom("rate_limit_counters")
    .select(["key", "count"])
    .where("key", "like", like)
    .orderBy("key")
    .execute();
}

describe("request limits shared by two servers", () => {
  it("answers the 11th sign-in from one address with 429, whichever server gets it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await signIn(server(i), `nobody${i}@st.school.edu`, "guess", "10.1.0.1")).statusCode,
      );
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expect(await counters("%:10.1.0.1")).toEqual([
      { key: "POST /api/user_sign_in:10.1.0.1", count: 12 },
    ]);
  });

  it("mails at most 3 codes per email address over both servers, by sign-up and request together", async () => {
    const email = "shared-budget@st.school.edu";
    const signUp = await postJson(
      first.app,
      "/api/create_user",
      { email, indexNumber: "SS-0001" },
      { ip: freshIp() },
    );
    expect(signUp.statusCode).toBe(200);
    expect(
      (await postJson(second, "/api/request_code", { email }, { ip: freshIp() })).statusCode,
    ).toBe(200);
    expect(
      (await postJson(first.app, "/api/request_code", { email }, { ip: freshIp() })).statusCode,
    ).toBe(200);
    const refused = await postJson(second, "/api/request_code", { email }, { ip: freshIp() });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      success: false,
      code: "rate_limited",
      message: expect.stringMatching(
        /^Too many requests for this email address\. Please wait \d+ minutes? and try again\.$/,
      ),
    });
    const mails = await first.db
      .selectFrom("outbox")
      .select("id")
      .where("to_address", "=", email)
      .execute();
    expect(mails).toHaveLength(3);
    expect(await counters("codes:%")).toEqual([{ key: `codes:${email}`, count: 4 }]);
  });

  it("lets the address in again once its window has passed, counting from one", async () => {
    const ip = "10.1.0.2";
    for (let i = 0; i < 10; i++) await signIn(server(i), "nobody@st.school.edu", "guess", ip);
    expect((await signIn(first.app, "nobody@st.school.edu", "guess", ip)).statusCode).toBe(429);
    // The window ends: as if the minute had passed.
    await first.db
      .updateTable("rate_limit_counters")
      .set({ resets_at: nowIso(new Date(Date.now() - 1)) })
      .where("key", "=", `POST /api/user_sign_in:${ip}`)
      .execute();
    expect((await signIn(second, "nobody@st.school.edu", "guess", ip)).statusCode).toBe(401);
    expect(await counters(`%:${ip}`)).toEqual([{ key: `POST /api/user_sign_in:${ip}`, count: 1 }]);
  });

  it("counts 30 simultaneous sign-ins from one address exactly: 10 answered, 20 refused", async () => {
    const ip = "10.1.0.3";
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signIn(server(i), `crowd${i}@st.school.edu`, "guess", ip),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(await counters(`%:${ip}`)).toEqual([{ key: `POST /api/user_sign_in:${ip}`, count: 30 }]);
  });

  it("counts uploads per account over both servers", async () => {
    const cookie = await signedInStudent(first.app, "uploader@st.school.edu", "SS-0002");
    const upload = (app: FastifyInstance) =>
      app.inject({
        method: "POST",
        url: "/api/submissions/SS-0002/documents/thesis",
        headers: { ...SITE, cookie },
        remoteAddress: freshIp(),
      });
    // No file attached: refused after being counted, which is all this test needs.
    expect((await upload(first.app)).statusCode).not.toBe(429);
    expect((await upload(second)).statusCode).not.toBe(429);
    const refused = await upload(first.app);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^Too many requests\. Please wait \d+ minutes? and try again\.$/,
    );
    const [counter] = await counters("POST /api/submissions/%");
    expect(counter?.key).toMatch(
      /^POST \/api\/submissions\/:indexNumber\/documents\/:item:upload:user:\d+$/,
    );
    expect(counter?.count).toBe(3);
  });
});

describe("account back-off shared by two servers", () => {
  it("holds an account back after its 5th wrong password, though the guesses alternate between servers", async () => {
    await signedInAdmin(first.app, "target@school.edu");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await signIn(server(i), "target@school.edu", `wrong guess ${i}`)).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(5).fill(401), ...Array<number>(6).fill(429)]);
    const held = await signIn(second, "target@school.edu", ADMIN_PASSCODE);
    expect(held.json()).toEqual({
      success: false,
      code: "rate_limited",
      message: "Too many failed sign-ins for this account. Please wait 30 seconds and try again.",
    });
    const row = await first.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", "target@school.edu")
      .executeTakeFirstOrThrow();
    expect(row.failed_sign_ins).toBe(5);
    const waitMs = Date.parse(row.locked_until ?? "") - Date.now();
    expect(waitMs).toBeGreaterThan(15_000);
    expect(waitMs).toBeLessThanOrEqual(30_000);
  });

  it("verifies no more than 5 of 11 simultaneous wrong passwords for one account", async () => {
    await signedInAdmin(first.app, "besieged@school.edu");
    const answers = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        signIn(server(i), "besieged@school.edu", `wrong guess ${i}`),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    const row = await first.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", "besieged@school.edu")
      .executeTakeFirstOrThrow();
    expect(row.failed_sign_ins).toBe(5);
    expect(row.locked_until).not.toBeNull();
  });

  it("checks no more than 5 of 11 simultaneous wrong current passwords on a password change", async () => {
    const cookie = await signedInAdmin(first.app, "stolen-session@school.edu");
    const answers = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        postJson(
          server(i),
          "/api/change_password",
          { currentPassword: `wrong guess ${i}`, newPassword: "a new long passphrase" },
          { cookie, ip: freshIp() },
        ),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    // About 30 seconds: a refused request's clock started before it waited for the row.
    expect(answers.find((res) => res.statusCode === 429)?.json().message).toMatch(
      /^Too many wrong passwords for this account\. Please wait 3\d seconds and try again\.$/,
    );
  });

  it("does not count the right password of a deactivated account as a guess", async () => {
    await signedInAdmin(first.app, "retired@school.edu");
    const account = await findAccountByEmail(first.db, "retired@school.edu");
    await setActive(first.db, account?.id ?? 0, false);
    expect((await signIn(first.app, "retired@school.edu", "wrong guess")).statusCode).toBe(401);
    expect((await signIn(second, "retired@school.edu", "wrong guess")).statusCode).toBe(401);
    expect((await signIn(first.app, "retired@school.edu", ADMIN_PASSCODE)).statusCode).toBe(403);
    const row = await first.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", "retired@school.edu")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_sign_ins: 0, locked_until: null });
  });
});

describe("when the request counters cannot be written", () => {
  it("refuses a sign-in with 503 and checks no password, rather than letting it through uncounted", async () => {
    await signedInAdmin(first.app, "guarded@school.edu");
    const ip = "10.66.0.1";
    await installWriteTrap(first.db, "rate_limit_counters", "key", `POST /api/user_sign_in:${ip}`);
    const refused = await signIn(second, "guarded@school.edu", ADMIN_PASSCODE, ip);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      success: false,
      code: "unavailable",
      message: LIMITS_UNAVAILABLE_MESSAGE,
    });
    const attempts = await first.db
      .selectFrom("audit_log")
      .select("event")
      .where("subject", "=", "guarded@school.edu")
      .where("event", "like", "sign_in.%")
      .execute();
    expect(attempts).toEqual([{ event: "sign_in.succeeded" }]);
    // Another address is counted, and served, as usual.
    expect((await signIn(second, "guarded@school.edu", ADMIN_PASSCODE)).statusCode).toBe(200);
  });

  it("refuses a code request with 503 and mails nothing when its email's counter cannot be written", async () => {
    // A database of its own: one write trap per table and column.
    const t = await createTestApp();
    try {
      const email = "trapped-codes@st.school.edu";
      await signUpStudent(t.app, email, "SS-0003", freshIp());
      await installWriteTrap(t.db, "rate_limit_counters", "key", `codes:${email}`);
      const refused = await postJson(t.app, "/api/request_code", { email }, { ip: freshIp() });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({
        success: false,
        code: "unavailable",
        message: LIMITS_UNAVAILABLE_MESSAGE,
      });
      const mails = await t.db
        .selectFrom("outbox")
        .select("id")
        .where("to_address", "=", email)
        .execute();
      expect(mails).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

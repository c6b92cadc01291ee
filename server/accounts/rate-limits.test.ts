import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { ADMIN_PASSCODE, postJson, signedInAdmin } from "../../testing/accounts.js";

// The default limits, as in production: nothing here is raised.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A different client address for every call, so only the per-account limits apply. */
let nextAddress = 1;
const freshIp = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

async function signIn(email: string, password: string, ip = freshIp()) {
  return postJson(t.app, "/api/user_sign_in", { email, password }, { ip });
}

describe("per-address limits (defaults)", () => {
  it("lets one address try to sign in 10 times a minute, then answers 429 rate_limited", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await signIn(`nobody${i}@st.school.edu`, "whatever", "10.1.0.1")).statusCode).toBe(
        401,
      );
    }
    const limited = await signIn("nobody@st.school.edu", "whatever", "10.1.0.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      success: false,
      code: "rate_limited",
      message: expect.stringMatching(
        /^Too many requests\. Please wait \d+ (seconds?|minute) and try again\.$/,
      ),
    });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await signIn("nobody@st.school.edu", "whatever", "10.1.0.2")).statusCode).toBe(401);
  });

  it("lets one address sign up 5 times in 15 minutes", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postJson(
        t.app,
        "/api/create_user",
        { email: `signup${i}@st.school.edu`, indexNumber: `RL-000${i}` },
        { ip: "10.2.0.1" },
      );
      expect(res.statusCode).toBe(200);
    }
    const limited = await postJson(
      t.app,
      "/api/create_user",
      { email: "signup5@st.school.edu", indexNumber: "RL-0005" },
      { ip: "10.2.0.1" },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Please wait \d+ minutes?/);
  });

  it("lets one address ask for codes 5 times in 15 minutes", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postJson(
        t.app,
        "/api/request_code",
        { email: `code${i}@st.school.edu` },
        { ip: "10.3.0.1" },
      );
      expect(res.statusCode).toBe(200);
    }
    const limited = await postJson(
      t.app,
      "/api/request_code",
      { email: "code5@st.school.edu" },
      { ip: "10.3.0.1" },
    );
    expect(limited.statusCode).toBe(429);
  });

  it("lets one address send 5 contact messages an hour", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postJson(
        t.app,
        "/api/contact",
        { email: "chatty@st.school.edu", message: `Message ${i}` },
        { ip: "10.4.0.1" },
      );
      expect(res.statusCode).toBe(201);
    }
    const limited = await postJson(
      t.app,
      "/api/contact",
      { email: "chatty@st.school.edu", message: "Again" },
      { ip: "10.4.0.1" },
    );
    expect(limited.statusCode).toBe(429);
    expect(await t.db.selectFrom("contact_messages").select("id").execute()).toHaveLength(5);
  });
});

describe("per-account limits (defaults)", () => {
  it("mails at most 3 codes per email address in 15 minutes, by sign-up and request together, from any address", async () => {
    const email = "mailbomb@st.school.edu";
    const first = await postJson(
      t.app,
      "/api/create_user",
      { email, indexNumber: "RL-0100" },
      { ip: freshIp() },
    );
    expect(first.statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect(
        (await postJson(t.app, "/api/request_code", { email }, { ip: freshIp() })).statusCode,
      ).toBe(200);
    }
    const limited = await postJson(
      t.app,
      "/api/request_code",
      { email: "MailBomb@st.school.edu" },
      { ip: freshIp() },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      success: false,
      code: "rate_limited",
      message: expect.stringMatching(
        /^Too many requests for this email address\. Please wait \d+ minutes? and try again\.$/,
      ),
    });
    const mails = await t.db
      .selectFrom("outbox")
      .select("id")
      .where("to_address", "=", email)
      .execute();
    expect(mails).toHaveLength(3);
    const other = await postJson(
      t.app,
      "/api/request_code",
      { email: "someone-else@st.school.edu" },
      { ip: freshIp() },
    );
    expect(other.statusCode).toBe(200);
  });

  it("slows an account down after 5 wrong passwords, without touching a second account", async () => {
    await signedInAdmin(t.app, "target@school.edu");
    await signedInAdmin(t.app, "bystander@school.edu");
    for (let i = 0; i < 5; i++) {
      expect((await signIn("target@school.edu", `wrong guess ${i}`)).statusCode).toBe(401);
    }
    const held = await signIn("target@school.edu", "wrong guess 6");
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({
      success: false,
      code: "rate_limited",
      message: "Too many failed sign-ins for this account. Please wait 30 seconds and try again.",
    });
    // Held back even with the right passcode, so guessing on during the wait learns nothing.
    expect((await signIn("target@school.edu", ADMIN_PASSCODE)).statusCode).toBe(429);

    // The same kind of requests against another account are not affected.
    expect((await signIn("bystander@school.edu", "wrong guess")).statusCode).toBe(401);
    expect((await signIn("bystander@school.edu", ADMIN_PASSCODE)).statusCode).toBe(200);

    const row = await t.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", "target@school.edu")
      .executeTakeFirstOrThrow();
    expect(row.failed_sign_ins).toBe(5);
    const waitMs = Date.parse(row.locked_until ?? "") - Date.now();
    expect(waitMs).toBeGreaterThan(15_000);
    expect(waitMs).toBeLessThanOrEqual(30_000);
  });

  it("lets the account in once the wait is over, and a success resets the count", async () => {
    await t.db
      .updateTable("users")
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", "target@school.edu")
      .execute();
    expect((await signIn("target@school.edu", ADMIN_PASSCODE)).statusCode).toBe(200);
    const row = await t.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", "target@school.edu")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_sign_ins: 0, locked_until: null });
  });

  it("never holds an account back more than 15 minutes, however many failures", async () => {
    await signedInAdmin(t.app, "hammered@school.edu");
    await t.db
      .updateTable("users")
      .set({ failed_sign_ins: 40 })
      .where("email", "=", "hammered@school.edu")
      .execute();
    const started = Date.now();
    expect((await signIn("hammered@school.edu", "yet another guess")).statusCode).toBe(401);
    const row = await t.db
      .selectFrom("users")
      .select(["locked_until"])
      .where("email", "=", "hammered@school.edu")
      .executeTakeFirstOrThrow();
    const waitMs = Date.parse(row.locked_until ?? "") - started;
    expect(waitMs).toBeGreaterThan(14.9 * 60_000);
    expect(waitMs).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const held = await signIn("hammered@school.edu", ADMIN_PASSCODE);
    expect(held.json().message).toMatch(/Please wait 15 minutes/);
  });
});

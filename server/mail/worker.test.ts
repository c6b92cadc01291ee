import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../../testing/test-app.js";
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from "../../testing/smtp-peer.js";
import { postJson, signInAs, signedInAdmin } from "../../testing/accounts.js";
import { contactMail } from "./templates.js";
import { SCRUBBED_MAIL_TEXT, enqueueMail } from "./outbox.js";
import { MAIL_MAX_ATTEMPTS, deliverDueMail, mailRetryDelayMs } from "./worker.js";
import type { Config } from "../config.js";

const RAISED_LIMITS = {
  RATE_LIMIT_SIGN_IN: "10000",
  RATE_LIMIT_SIGN_UP: "10000",
  RATE_LIMIT_CODE_REQUEST: "10000",
  RATE_LIMIT_ACCOUNT_CODES: "10000",
};
const NO_WEB = path.join(os.tmpdir(), "ets-no-web");
const MINUTE = 60 * 1000;

let peer: SmtpPeer;
let database: TestDatabase;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  peer = await startSmtpPeer();
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await peer.stop();
  await database.drop();
});

/** An app over the shared test database; closing it leaves the database alone, as a restart would. */
async function startApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  logStream?: { write(line: string): void },
): Promise<FastifyInstance> {
  const config = testConfig({ DATABASE_URL: database.url, ...RAISED_LIMITS, ...env }, overrides);
  const app = await buildApp(config, {
    db: database.db,
    webRoot: NO_WEB,
    ...(logStream ? { logStream } : {}),
  });
  await app.ready();
  apps.push(app);
  return app;
}

function codeIn(mail: ReceivedMail): string {
  const code = /verification code is (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No code in the mail: ${mail.text}`);
  return code;
}

async function outboxRow(email: string) {
  return database.db
    .selectFrom("outbox")
    .selectAll()
    .where("to_address", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

describe("mail delivery through a real SMTP peer", () => {
  it("mails a sign-up code that signs in, once", async () => {
    const app = await startApp({
      SMTP_URL: peer.url,
      MAIL_FROM: "ETS Tracking <no-reply@ets.test>",
    });
    const signUp = await postJson(app, "/api/create_user", {
      email: "peer@st.school.edu",
      indexNumber: "ML-0001",
    });
    expect(signUp.statusCode).toBe(200);
    expect(await deliverDueMail(app)).toEqual({ sent: 1, retried: 0, failed: 0 });

    const mail = await peer.waitFor((m) => m.to.includes("peer@st.school.edu"));
    expect(mail.from).toBe("no-reply@ets.test");
    expect(mail.subject).toBe("Your ETS Tracking verification code");
    const code = codeIn(mail);
    await signInAs(app, "peer@st.school.edu", code);
    const again = await postJson(app, "/api/user_sign_in", {
      email: "peer@st.school.edu",
      password: code,
    });
    expect(again.statusCode).toBe(401);
    expect((await outboxRow("peer@st.school.edu")).status).toBe("sent");
  });

  it("scrubs a delivered mail's secret from the outbox, keeping its recipient and subject", async () => {
    const app = await startApp({ SMTP_URL: peer.url });
    const email = "scrubbed@st.school.edu";
    await postJson(app, "/api/create_user", { email, indexNumber: "ML-0009" });
    const link = "http://localhost:3000/examiner#" + "k".repeat(43);
    await enqueueMail(database.db, {
      to: "examiner@uni.test",
      subject: "Thesis for examination: Groundwater",
      text: `Your personal examination page:\n${link}`,
      template: { name: "examiner_invitation", params: { role: "external" } },
      secret: true,
    });
    await enqueueMail(
      database.db,
      contactMail({ to: "office@school.test", from: email, message: "Kept" }),
    );
    const queued = await outboxRow(email);
    const code = /"trackingCode":"(\d{6})"/.exec(queued.template)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    expect((await deliverDueMail(app)).sent).toBeGreaterThanOrEqual(3);
    expect(codeIn(await peer.waitFor((m) => m.to.includes(email)))).toBe(code);
    expect((await peer.waitFor((m) => m.to.includes("examiner@uni.test"))).text).toContain(link);

    for (const [to, secret] of [
      [email, code],
      ["examiner@uni.test", link],
    ] as const) {
      const row = await outboxRow(to);
      expect(row).toMatchObject({ status: "sent", to_address: to, text_body: SCRUBBED_MAIL_TEXT });
      expect(row.subject.length).toBeGreaterThan(10);
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(JSON.parse(row.template)).toMatchObject({ params: { scrubbed: true } });
    }
    expect((await outboxRow("examiner@uni.test")).subject).toBe(
      "Thesis for examination: Groundwater",
    );
    // A mail without a secret keeps its text.
    expect((await outboxRow("office@school.test")).text_body).toContain("Kept");
  });

  it("keeps the mail through an SMTP outage and a server restart, then delivers it once", async () => {
    const email = "outage@st.school.edu";
    await peer.stop();
    const first = await startApp({ SMTP_URL: peer.url });
    const signUp = await postJson(first, "/api/create_user", { email, indexNumber: "ML-0002" });
    expect(signUp.statusCode).toBe(200);

    const startedAt = Date.now();
    expect(await deliverDueMail(first)).toEqual({ sent: 0, retried: 1, failed: 0 });
    const waiting = await outboxRow(email);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, sent_at: null });
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
    const retryIn = Date.parse(waiting.next_attempt_at) - startedAt;
    expect(retryIn).toBeGreaterThan(0.9 * MINUTE);
    expect(retryIn).toBeLessThan(1.5 * MINUTE);

    await first.close();
    await peer.start();
    const second = await startApp({ SMTP_URL: peer.url });
    // Not due yet: the back-off is respected across the restart.
    expect(await deliverDueMail(second)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await deliverDueMail(second, new Date(Date.now() + 2 * MINUTE))).toEqual({
      sent: 1,
      retried: 0,
      failed: 0,
    });
    const mail = await peer.waitFor((m) => m.to.includes(email));
    await signInAs(second, email, codeIn(mail));
    expect(await outboxRow(email)).toMatchObject({ status: "sent", attempts: 2, last_error: null });

    expect(await deliverDueMail(second, new Date(Date.now() + 60 * MINUTE))).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    expect(peer.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("sends each mail once when two delivery passes run at the same time", async () => {
    const app = await startApp({ SMTP_URL: peer.url });
    const addresses = [1, 2, 3, 4, 5].map((n) => `race${n}@st.school.edu`);
    for (const to of addresses) {
      await enqueueMail(database.db, {
        to,
        subject: "Race",
        text: "hello",
        template: { name: "test" },
      });
    }
    const [a, b] = await Promise.all([deliverDueMail(app), deliverDueMail(app)]);
    expect(a.sent + b.sent).toBe(5);
    for (const to of addresses) await peer.waitFor((m) => m.to.includes(to));
    await new Promise((r) => setTimeout(r, 200));
    for (const to of addresses) {
      expect(peer.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    }
  });

  it("backs off exponentially, gives up after 8 attempts and shows the failure to administrators", async () => {
    const email = "never@st.school.edu";
    await peer.stop();
    try {
      const app = await startApp({ SMTP_URL: peer.url });
      await postJson(app, "/api/create_user", { email, indexNumber: "ML-0003" });
      let now = Date.now();
      const waits: number[] = [];
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
        await deliverDueMail(app, new Date(now));
        const row = await outboxRow(email);
        expect(row.attempts).toBe(attempt);
        waits.push((Date.parse(row.next_attempt_at) - now) / MINUTE);
        now = Date.parse(row.next_attempt_at);
      }
      expect(waits.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 32, 64]);
      const failed = await outboxRow(email);
      expect(failed).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS });
      // Nothing will send it any more: its code does not stay at rest either.
      expect(failed.text_body).toBe(SCRUBBED_MAIL_TEXT);
      expect(failed.template).not.toContain("trackingCode");
      // Failed for good: later passes leave it alone.
      expect(await deliverDueMail(app, new Date(now + 24 * 60 * MINUTE))).toEqual({
        sent: 0,
        retried: 0,
        failed: 0,
      });

      const admin = await signedInAdmin(app, "postmaster@school.edu");
      const res = await app.inject({
        method: "GET",
        url: "/api/admin/mail/failed",
        headers: { cookie: admin },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toContainEqual({
        id: failed.id,
        to: email,
        subject: "Your ETS Tracking verification code",
        attempts: MAIL_MAX_ATTEMPTS,
        lastError: expect.stringMatching(/ECONNREFUSED|connect/i),
        createdAt: failed.created_at,
      });
      expect(JSON.stringify(res.json())).not.toContain("verification code is");
    } finally {
      await peer.start();
    }
  });

  it("runs inside the app when config.mailWorker is on, and stops when the app closes", async () => {
    const app = await startApp(
      { SMTP_URL: peer.url },
      { mailWorker: true, mailPollIntervalMs: 50 },
    );
    await postJson(app, "/api/create_user", {
      email: "worker@st.school.edu",
      indexNumber: "ML-0004",
    });
    await peer.waitFor((m) => m.to.includes("worker@st.school.edu"), 5000);

    await app.close();
    await enqueueMail(database.db, {
      to: "after-close@st.school.edu",
      subject: "After close",
      text: "nobody sends this",
      template: { name: "test" },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(peer.messages.some((m) => m.to.includes("after-close@st.school.edu"))).toBe(false);
    expect((await outboxRow("after-close@st.school.edu")).status).toBe("pending");
  });

  it("passes the contact form's writer as Reply-To", async () => {
    const app = await startApp({ SMTP_URL: peer.url, ETS_CONTACT_EMAIL: "sgs@school.edu" });
    const res = await postJson(app, "/api/contact", {
      email: "writer@st.school.edu",
      message: "When is the viva?",
    });
    expect(res.statusCode).toBe(201);
    await deliverDueMail(app);
    const mail = await peer.waitFor((m) => m.to.includes("sgs@school.edu"));
    expect(mail.raw).toMatch(/^Reply-To: writer@st\.school\.edu/im);
    expect(mail.text).toContain("When is the viva?");
  });
});

describe("several servers on one database", () => {
  it("delivers 100 queued mails exactly once with three servers' workers running together", async () => {
    const subjects = Array.from({ length: 100 }, (_, n) => `Several servers ${n + 1}`);
    for (const subject of subjects) {
      await enqueueMail(database.db, {
        to: "shared@st.school.edu",
        subject,
        text: "once",
        template: { name: "test" },
      });
    }
    const files = fs.mkdtempSync(path.join(os.tmpdir(), "ets-mail-servers-"));
    // Three servers: each opens its own connection (pool) to the database, as separate processes do.
    const servers: FastifyInstance[] = [];
    try {
      const config = testConfig(
        {
          DATABASE_URL: database.url,
          SMTP_URL: peer.url,
          STORAGE_URL: `file:${files}`,
          ...RAISED_LIMITS,
        },
        { mailWorker: true, mailPollIntervalMs: 10 },
      );
      for (let n = 0; n < 3; n += 1) servers.push(await buildApp(config, { webRoot: NO_WEB }));
      await Promise.all(servers.map((server) => server.ready()));

      const deadline = Date.now() + 30_000;
      const pending = () =>
        database.db
          .selectFrom("outbox")
          .select("id")
          .where("subject", "in", subjects)
          .where("status", "!=", "sent")
          .execute();
      while ((await pending()).length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      // Closing waits for each worker's pass in flight: nothing more can arrive after this.
      await Promise.all(servers.map((server) => server.close()));
      fs.rmSync(files, { recursive: true, force: true });
    }

    const received = peer.messages.filter((m) => subjects.includes(m.subject));
    expect(received.map((m) => m.subject).sort()).toEqual([...subjects].sort());
    const rows = await database.db
      .selectFrom("outbox")
      .select(["status", "attempts"])
      .where("subject", "in", subjects)
      .execute();
    expect(rows).toHaveLength(100);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });
});

describe("mail without SMTP_URL", () => {
  it("writes the mail, code included, to the log, and the code to no other log line", async () => {
    const lines: string[] = [];
    const app = await startApp(
      {},
      { logLevel: "info" },
      { write: (line) => void lines.push(line) },
    );
    const email = "offline@st.school.edu";
    await postJson(app, "/api/create_user", { email, indexNumber: "ML-0005" });
    const code = /"trackingCode":"(\d{6})"/.exec((await outboxRow(email)).template)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    expect(await deliverDueMail(app)).toEqual({ sent: 1, retried: 0, failed: 0 });
    // Through every path that sees the code: a wrong attempt, the real one, a repeat, a bad body.
    await postJson(app, "/api/user_sign_in", {
      email,
      password: code === "111111" ? "222222" : "111111",
    });
    const cookie = await signInAs(app, email, code);
    await postJson(app, "/api/user_sign_in", { email, password: code });
    await postJson(app, "/api/user_sign_in", { email: code, password: code });
    await postJson(
      app,
      "/api/change_password",
      { currentPassword: code, newPassword: "x" },
      { cookie },
    );

    const withCode = lines.filter((line) => line.includes(code));
    expect(withCode).toHaveLength(1);
    const entry = JSON.parse(withCode[0] ?? "{}") as { mail?: Record<string, string> };
    expect(entry.mail).toMatchObject({ to: email, subject: "Your ETS Tracking verification code" });
    expect(entry.mail?.text).toContain(`Your verification code is ${code}`);
    expect((await outboxRow(email)).status).toBe("sent");
    expect(lines.length).toBeGreaterThan(5);
  });
});

describe("mail without SMTP_URL in production (ETS_MAIL_TO_LOG=on)", () => {
  it("logs the recipient and subject of a secret mail, never its code or link", async () => {
    const lines: string[] = [];
    const app = await startApp(
      {},
      { logLevel: "info", mailSecretsToLog: false },
      { write: (line) => void lines.push(line) },
    );
    const email = "production@st.school.edu";
    await postJson(app, "/api/create_user", { email, indexNumber: "ML-0006" });
    const code = /"trackingCode":"(\d{6})"/.exec((await outboxRow(email)).template)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const link = "https://ets.school.test/examiner#" + "z".repeat(43);
    await enqueueMail(database.db, {
      to: "examiner@uni.test",
      subject: "Thesis for examination: Soils",
      text: `Your personal examination page:\n${link}`,
      template: { name: "examiner_invitation" },
      secret: true,
    });
    await enqueueMail(
      database.db,
      contactMail({ to: "office@school.test", from: email, message: "Plain words" }),
    );
    expect((await deliverDueMail(app)).sent).toBeGreaterThanOrEqual(3);

    const log = lines.join("\n");
    expect(log).not.toContain(code);
    expect(log).not.toContain("z".repeat(43));
    const logged = lines
      .map((line) => JSON.parse(line) as { mail?: { to: string; subject: string; text?: string } })
      .flatMap((entry) => (entry.mail ? [entry.mail] : []));
    expect(logged).toContainEqual({ to: email, subject: "Your ETS Tracking verification code" });
    expect(logged).toContainEqual({
      to: "examiner@uni.test",
      subject: "Thesis for examination: Soils",
    });
    // A mail without a secret is still readable in the log.
    expect(logged.find((mail) => mail.to === "office@school.test")?.text).toContain("Plain words");
  });
});

describe("retry schedule", () => {
  it("waits 1, 2, 4 ... minutes between attempts, at most 2 hours", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => mailRetryDelayMs(n) / MINUTE)).toEqual([
      1, 2, 4, 8, 16, 32, 64, 120, 120,
    ]);
  });
});

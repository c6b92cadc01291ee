import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createAdmin } from "../server/accounts/admins.js";
import { enqueueMail } from "../server/mail/outbox.js";
import { startSmtpPeer, type SmtpPeer } from "../testing/smtp-peer.js";
import { startCluster, type Cluster } from "./cluster.js";
import { testPostgresUrl } from "./postgres.js";
import { send, sleep, summarize, type Outcome } from "./traffic.js";

/**
 * What three app servers share through their one PostgreSQL database, seen from outside as a
 * client and an SMTP server see it: the sign-in limits and the account back-off hold for the three
 * together as for one server, and the outbox delivers each mail once whichever worker takes it.
 * The limits are the production defaults (10 sign-ins a minute per address, back-off after 5).
 */

let peer: SmtpPeer;
let cluster: Cluster;

beforeAll(async () => {
  peer = await startSmtpPeer();
  cluster = await startCluster({ servers: 3, postgresUrl: testPostgresUrl(), smtpUrl: peer.url });
});
afterAll(async () => {
  await cluster?.stop();
  await peer?.stop();
});

const signIn = (
  base: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) => send(base, "/api/user_sign_in", { method: "POST", headers, json: { email, password } });

describe("sign-in limits across three servers", () => {
  it("starts the account's back-off after the fifth wrong password, whichever servers the 11 reach", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const email = "registrar@school.test";
    await createAdmin(cluster.db, { email, name: null, password: "the right passphrase" });

    const answers: Outcome[] = [];
    for (let i = 0; i < 11; i++) {
      // Straight to the servers in turn, each attempt from an address of its own (as nginx would
      // forward it), so only the account's back-off can refuse.
      const server = cluster.servers[i % cluster.servers.length]!;
      answers.push(
        await signIn(server.url, email, `wrong password ${i}`, {
          "x-forwarded-for": `198.51.100.${i + 1}`,
        }),
      );
    }
    expect(
      answers.map((o) => o.status),
      summarize(answers, 11),
    ).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    for (const refused of answers.slice(5)) {
      expect(JSON.parse(refused.body)).toMatchObject({
        code: "rate_limited",
        message: expect.stringMatching(/^Too many failed sign-ins for this account\. Please wait/),
      });
    }
    // Even the right password waits, on a server that saw none of the failures in memory.
    const right = await signIn(cluster.servers[2]!.url, email, "the right passphrase", {
      "x-forwarded-for": "198.51.100.99",
    });
    expect(right.status).toBe(429);

    const account = await cluster.db
      .selectFrom("users")
      .select(["failed_sign_ins", "locked_until"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(account.failed_sign_ins).toBe(5);
    expect(Date.parse(account.locked_until ?? "")).toBeGreaterThan(Date.now());
  });

  it("refuses the 11th sign-in from one address through nginx, spread over the servers, whatever X-Forwarded-For the client sends", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const answers: Outcome[] = [];
    for (let i = 0; i < 11; i++) {
      // A client that forges the header to look like a new address each time: nginx replaces it
      // with the address it sees, so all 11 count against one address.
      answers.push(
        await signIn(cluster.url, `nobody${i}@school.test`, "whatever", {
          "x-forwarded-for": `203.0.113.${i + 1}`,
        }),
      );
    }
    expect(
      answers.map((o) => o.status),
      summarize(answers, 11),
    ).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expect(JSON.parse(answers[10]!.body)).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^Too many requests\. Please wait/),
    });
    // nginx spread them: every server answered some, and none let the 11th through.
    expect(new Set(answers.map((o) => o.upstream))).toEqual(
      new Set(cluster.servers.map((s) => `127.0.0.1:${s.port}`)),
    );
  });
});

describe("the outbox with three servers' mail workers", () => {
  it("delivers each of 100 queued mails exactly once to the SMTP server", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const COUNT = 100;
    const subjects = Array.from({ length: COUNT }, (_, i) => `Cluster mail ${i + 1}`);
    // Queued in one transaction, so all are due at the same moment for the three workers.
    await cluster.db.transaction().execute(async (trx) => {
      for (const [i, subject] of subjects.entries()) {
        await enqueueMail(trx, {
          to: `student${i + 1}@school.test`,
          subject,
          text: `Mail number ${i + 1} of ${COUNT}.`,
          template: { name: "cluster_test" },
        });
      }
    });
    const delivered = () => peer.messages.filter((m) => subjects.includes(m.subject));
    const deadline = Date.now() + 60_000;
    while (delivered().length < COUNT && Date.now() < deadline) await sleep(100);
    // Longer than a worker's poll interval (2 s): a second delivery would have come by now.
    await sleep(3_000);

    const received = delivered().map((m) => m.subject);
    expect(received).toHaveLength(COUNT);
    expect(new Set(received)).toEqual(new Set(subjects));
    for (const [i, subject] of subjects.entries()) {
      const mail = delivered().find((m) => m.subject === subject)!;
      expect(mail.to).toEqual([`student${i + 1}@school.test`]);
    }
    const rows = await cluster.db
      .selectFrom("outbox")
      .select(["status", "attempts"])
      .where("subject", "in", subjects)
      .execute();
    expect(rows).toHaveLength(COUNT);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    console.log(
      `outbox with three workers: ${COUNT} queued, ${received.length} received, each once`,
    );
  });
});

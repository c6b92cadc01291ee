import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../testing/webhook-receiver.js";
import { createDatabase, type Db } from "../db/database.js";
import { deliverDueWebhooks, type WebhookDeps } from "./delivery.js";
import { enqueueWebhookEvent } from "./events.js";
import type { Sender } from "./send.js";

let t: TestApp;
let admin: TestUser;
let student: TestUser;
let receiver: WebhookReceiver;
/** An installation without WEBHOOK_ALLOWED_HOSTS. */
let strict: TestApp;
let strictAdmin: TestUser;

beforeAll(async () => {
  // The tests' receivers listen on 127.0.0.1, which the setting allows by name.
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student");
  receiver = await startWebhookReceiver();
  strict = await createTestApp();
  strictAdmin = await createUser(strict.db, "admin");
});
afterAll(async () => {
  await receiver.close();
  await t.close();
  await strict.close();
});
afterEach(async () => {
  // Each test starts with no endpoint, so events of one never reach another's receiver.
  await t.db.deleteFrom("webhook_attempts").execute();
  await t.db.deleteFrom("webhook_deliveries").execute();
  await t.db.deleteFrom("webhook_endpoints").execute();
  receiver.received.length = 0;
  receiver.answer = () => 200;
});

const deps = (overrides: Partial<WebhookDeps> = {}): WebhookDeps => ({
  db: t.db,
  allowedHosts: t.config.webhooks.allowedHosts,
  log: t.app.log,
  retryDelayMs: () => 0,
  ...overrides,
});

/** A receiver's check, written out here as docs/api.md shows it, not taken from the server. */
function verifies(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const header = String(headers["ets-signature"] ?? "");
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  if (match[1] !== headers["ets-timestamp"]) return false;
  if (Math.abs(Date.now() / 1000 - Number(match[1])) > 300) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(match[2]!, "hex"));
}

async function register(
  url: string,
  events: string[] = ["submission.stage_changed"],
): Promise<{ id: number; secret: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/webhooks",
    headers: admin.headers,
    payload: { url, events },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { id: body.endpoint.id, secret: body.secret };
}

async function moveStage(submissionId: number, version: number, sgsStage: string) {
  const res = await t.app.inject({
    method: "PATCH",
    url: `/api/admin/submissions/${submissionId}`,
    headers: admin.headers,
    payload: { version, changes: { sgsStage } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const deliveries = (endpointId: number) =>
  t.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    .orderBy("id")
    .execute();

describe("registering endpoints", () => {
  it("shows the secret once: the answer has it, the list never does", async () => {
    const { id, secret } = await register(receiver.url, ["submission.created", "outcome.released"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await t.app.inject({ url: "/api/admin/webhooks", headers: admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.json().items).toEqual([
      expect.objectContaining({
        id,
        url: receiver.url,
        events: ["submission.created", "outcome.released"],
        active: true,
        pending: 0,
        failed: 0,
      }),
    ]);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["event", "details"])
      .where("event", "=", "webhook.created")
      .execute();
    expect(audit.some((row) => row.details?.includes(`"endpointId":${id}`))).toBe(true);
    expect(audit.every((row) => !row.details?.includes(secret))).toBe(true);
  });

  it("names the field and why: no events, an unknown event, a bad address", async () => {
    for (const [payload, field, words] of [
      [{ url: receiver.url, events: [] }, "events", "at least one event"],
      [{ url: receiver.url, events: ["thesis.burned"] }, "events.0", "not an event"],
      [{ url: "ftp://example.org/", events: ["submission.created"] }, "url", "https://"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/webhooks",
        headers: admin.headers,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([expect.objectContaining({ field })]);
      expect(res.json().message).toContain(words);
    }
  });

  it("looks names up through the app's resolver (the tests' table), never a DNS server", async () => {
    // hooks.example.org is in testing/test-app.ts's table with a public address: accepted, though
    // these machines cannot look it up. A name outside the table is not found, by name.
    const known = await register("https://hooks.example.org/ets", ["submission.created"]);
    expect(known.secret).toMatch(/^whsec_/);
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/admin/webhooks",
      headers: admin.headers,
      payload: { url: "https://nowhere.example/ets", events: ["submission.created"] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual([
      expect.objectContaining({
        field: "url",
        message: expect.stringContaining("could not be found (nowhere.example)"),
      }),
    ]);
  });

  it.each([
    "http://127.0.0.1:8080/hook",
    "http://127.1/hook",
    "http://2130706433/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
    "http://localhost/hook",
    "http://10.0.0.1/hook",
    "http://172.16.0.1/hook",
    "http://192.168.0.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[fc00::1]/hook",
    "http://[fe80::1]/hook",
  ])("refuses %s at registration without WEBHOOK_ALLOWED_HOSTS", async (url) => {
    const res = await strict.app.inject({
      method: "POST",
      url: "/api/admin/webhooks",
      headers: strictAdmin.headers,
      payload: { url, events: ["submission.created"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      expect.objectContaining({ field: "url", message: expect.stringContaining("refused") }),
    ]);
    expect(await strict.db.selectFrom("webhook_endpoints").selectAll().execute()).toHaveLength(0);
  });

  it("allows the host the setting names in any spelling of it, and no other loopback address", async () => {
    for (const url of ["http://127.1:9/x", "http://2130706433:9/x"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/webhooks",
        headers: admin.headers,
        payload: { url, events: ["submission.created"] },
      });
      expect(res.statusCode, url).toBe(201);
      expect(res.json().endpoint.url).toBe("http://127.0.0.1:9/x");
    }
    for (const url of ["http://127.0.0.2:9/x", "http://[::1]:9/x", "http://localhost:9/x"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/webhooks",
        headers: admin.headers,
        payload: { url, events: ["submission.created"] },
      });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it("lets only administrators in, and a write needs the site's origin", async () => {
    const asStudent = await t.app.inject({ url: "/api/admin/webhooks", headers: student.headers });
    expect(asStudent.statusCode).toBe(403);
    const anonymous = await t.app.inject({ url: "/api/admin/webhooks" });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: "POST",
      url: "/api/admin/webhooks",
      headers: { ...admin.headers, origin: "https://evil.example" },
      payload: { url: receiver.url, events: ["submission.created"] },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await t.db.selectFrom("webhook_endpoints").selectAll().execute()).toHaveLength(0);
  });

  it("pages the list of endpoints", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await register(`${receiver.url}/${i}`)).id);
    const first = await t.app.inject({
      url: "/api/admin/webhooks?limit=2",
      headers: admin.headers,
    });
    expect(first.json().items.map((e: { id: number }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.json().nextBefore).toBe(ids[1]);
    const second = await t.app.inject({
      url: `/api/admin/webhooks?limit=2&before=${ids[1]}`,
      headers: admin.headers,
    });
    expect(second.json()).toEqual({
      items: [expect.objectContaining({ id: ids[0] })],
      nextBefore: null,
    });
    const bad = await t.app.inject({
      url: "/api/admin/webhooks?limit=1000",
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe("limit");
  });
});

describe("delivering", () => {
  it("sends a stage change, signed, to a receiver on 127.0.0.1 that verifies the signature", async () => {
    const { id, secret } = await register(receiver.url);
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await moveStage(s.id, 1, "sent_to_department");
    expect(await deliveries(id)).toHaveLength(1);
    const report = await deliverDueWebhooks(deps());
    expect(report).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(verifies(secret, request!.headers, request!.body)).toBe(true);
    expect(verifies("whsec_someone-else", request!.headers, request!.body)).toBe(false);
    expect(verifies(secret, request!.headers, request!.body.replace("sent_to", "sent_tO"))).toBe(
      false,
    );
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      type: "submission.stage_changed",
      submission: { id: s.id, indexNumber: s.indexNumber },
      data: { from: "awaiting_review", to: "sent_to_department" },
    });
    expect(request!.headers["ets-event-id"]).toBe(body.id);
    expect(request!.headers["ets-event-type"]).toBe("submission.stage_changed");
    expect((await deliveries(id))[0]).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_status: 200,
    });
  });

  it("sends only the events an endpoint chose, and nothing to a disabled one until it is enabled", async () => {
    const created = await register(receiver.url, ["submission.created"]);
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await moveStage(s.id, 1, "sent_to_department");
    expect(await deliveries(created.id)).toHaveLength(0);

    const stages = await register(receiver.url);
    const off = await t.app.inject({
      method: "POST",
      url: `/api/admin/webhooks/${stages.id}/disable`,
      headers: admin.headers,
    });
    expect(off.json()).toMatchObject({ active: false });
    await moveStage(s.id, 2, "nominations_ready");
    // Written while disabled? No: a disabled endpoint gets no deliveries for later events.
    expect(await deliveries(stages.id)).toHaveLength(0);
    await t.app.inject({
      method: "POST",
      url: `/api/admin/webhooks/${stages.id}/enable`,
      headers: admin.headers,
    });
    await moveStage(s.id, 3, "sent_to_examiners");
    await deliverDueWebhooks(deps());
    expect(receiver.received.map((r) => JSON.parse(r.body).data.to)).toEqual(["sent_to_examiners"]);
  });

  it("retries after the receiver fails twice, backing off, and logs each attempt", async () => {
    const { id } = await register(receiver.url);
    let calls = 0;
    receiver.answer = () => (++calls <= 2 ? 503 : 200);
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await moveStage(s.id, 1, "sent_to_department");

    const start = new Date();
    expect(await deliverDueWebhooks(deps({ retryDelayMs: undefined }), start)).toEqual({
      delivered: 0,
      retried: 1,
      failed: 0,
    });
    const [afterFirst] = await deliveries(id);
    // The default back-off: 30 s after the first failure.
    expect(Date.parse(afterFirst!.next_attempt_at) - start.getTime()).toBe(30_000);
    // Not due yet: nothing is sent.
    expect(await deliverDueWebhooks(deps(), new Date(start.getTime() + 29_000))).toEqual({
      delivered: 0,
      retried: 0,
      failed: 0,
    });
    expect(receiver.received).toHaveLength(1);
    await deliverDueWebhooks(deps(), new Date(start.getTime() + 31_000));
    await deliverDueWebhooks(deps(), new Date(start.getTime() + 32_000));
    expect(receiver.received).toHaveLength(3);
    // The same event, the same body, each time.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const [done] = await deliveries(id);
    expect(done).toMatchObject({
      status: "delivered",
      attempts: 3,
      last_status: 200,
      last_error: null,
    });

    const log = await t.app.inject({
      url: `/api/admin/webhooks/${id}/deliveries`,
      headers: admin.headers,
    });
    expect(log.statusCode).toBe(200);
    expect(log.json().items[0].attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual(
      [200, 503, 503],
    );
    expect(log.json().items[0].attemptLog[1].error).toBe("Answered 503.");
  });

  it("gives a delivery up after the last attempt, and the next event of its submission goes", async () => {
    const { id } = await register(receiver.url);
    receiver.answer = (request) =>
      JSON.parse(request.body).data.to === "sent_to_department" ? 500 : 200;
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await moveStage(s.id, 1, "sent_to_department");
    await moveStage(s.id, 2, "nominations_ready");
    for (let i = 0; i < 3; i += 1) await deliverDueWebhooks(deps({ maxAttempts: 2 }));
    expect(receiver.received.map((r) => JSON.parse(r.body).data.to)).toEqual([
      "sent_to_department",
      "sent_to_department",
      "nominations_ready",
    ]);
    expect((await deliveries(id)).map((d) => d.status)).toEqual(["failed", "delivered"]);
  });

  it("keeps the order per submission with two servers delivering from one database", async () => {
    const { id } = await register(receiver.url, ["submission.stage_changed"]);
    const other: Db = createDatabase(t.config.database);
    try {
      const submissions = await Promise.all(Array.from({ length: 4 }, () => makeSubmission(t.db)));
      const perSubmission = 6;
      for (let step = 0; step < perSubmission; step += 1) {
        for (const s of submissions) {
          await t.db.transaction().execute((trx) =>
            enqueueWebhookEvent(trx, {
              type: "submission.stage_changed",
              submissionId: s.id,
              data: { step },
            }),
          );
        }
      }
      // The receiver fails the first try of every third event, so later events must wait.
      const seen = new Map<string, number>();
      receiver.answer = (request) => {
        const eventId = String(request.headers["ets-event-id"]);
        const tries = (seen.get(eventId) ?? 0) + 1;
        seen.set(eventId, tries);
        return JSON.parse(request.body).data.step % 3 === 1 && tries === 1 ? 500 : 200;
      };
      const serverA = deps();
      const serverB = deps({ db: other });
      for (let round = 0; round < 40; round += 1) {
        await Promise.all([deliverDueWebhooks(serverA), deliverDueWebhooks(serverB)]);
        const pending = await t.db
          .selectFrom("webhook_deliveries")
          .select("id")
          .where("endpoint_id", "=", id)
          .where("status", "=", "pending")
          .execute();
        if (pending.length === 0) break;
      }
      const rows = await deliveries(id);
      expect(rows).toHaveLength(submissions.length * perSubmission);
      expect(rows.every((d) => d.status === "delivered")).toBe(true);
      for (const s of submissions) {
        const steps = receiver.received
          .map((r) => JSON.parse(r.body))
          .filter((body) => body.submission.id === s.id)
          .map((body) => body.data.step as number);
        // Every request, failed tries included, in order: never a later step before an earlier one
        // was delivered.
        const sorted = [...steps].sort((a, b) => a - b);
        expect(steps).toEqual(sorted);
        expect(new Set(steps).size).toBe(perSubmission);
        // Two tries for the steps that failed once, one for the rest: none sent twice at once.
        expect(steps).toHaveLength(perSubmission + 2);
      }
    } finally {
      await other.destroy();
    }
  });

  it("sends again on request: a new delivery of the same event, shown in the log", async () => {
    const { id } = await register(receiver.url);
    const s = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await moveStage(s.id, 1, "sent_to_department");
    await deliverDueWebhooks(deps());
    const [first] = await deliveries(id);
    const again = await t.app.inject({
      method: "POST",
      url: `/api/admin/webhooks/${id}/deliveries/${first!.id}/redeliver`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(202);
    await deliverDueWebhooks(deps());
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["ets-event-id"]).toBe(
      receiver.received[0]!.headers["ets-event-id"],
    );
    const log = await t.app.inject({
      url: `/api/admin/webhooks/${id}/deliveries`,
      headers: admin.headers,
    });
    expect(log.json().items).toEqual([
      expect.objectContaining({
        id: again.json().deliveryId,
        redeliveryOf: first!.id,
        status: "delivered",
      }),
      expect.objectContaining({ id: first!.id, redeliveryOf: null, status: "delivered" }),
    ]);
    const wrong = await t.app.inject({
      method: "POST",
      url: `/api/admin/webhooks/${id + 1000}/deliveries/${first!.id}/redeliver`,
      headers: admin.headers,
    });
    expect(wrong.statusCode).toBe(404);
  });

  it("pages a delivery log", async () => {
    const { id } = await register(receiver.url);
    const s = await makeSubmission(t.db);
    for (let step = 0; step < 3; step += 1) {
      await enqueueWebhookEvent(t.db, {
        type: "submission.stage_changed",
        submissionId: s.id,
        data: { step },
      });
    }
    const page = await t.app.inject({
      url: `/api/admin/webhooks/${id}/deliveries?limit=2`,
      headers: admin.headers,
    });
    expect(page.json().items).toHaveLength(2);
    const next = await t.app.inject({
      url: `/api/admin/webhooks/${id}/deliveries?limit=2&before=${page.json().nextBefore}`,
      headers: admin.headers,
    });
    expect(next.json().items).toHaveLength(1);
    expect(next.json().nextBefore).toBeNull();
  });

  it("does not follow a redirect, even to an allowed host: a 3xx is a failed attempt", async () => {
    const target = await startWebhookReceiver();
    try {
      const { id } = await register(receiver.url);
      receiver.answer = (_request, res) => {
        res.writeHead(307, { location: target.url }).end();
        return "custom";
      };
      await enqueueWebhookEvent(t.db, {
        type: "submission.stage_changed",
        submissionId: null,
        data: {},
      });
      expect(await deliverDueWebhooks(deps())).toEqual({ delivered: 0, retried: 1, failed: 0 });
      expect(target.received).toHaveLength(0);
      expect((await deliveries(id))[0]).toMatchObject({
        status: "pending",
        last_status: 307,
        last_error: expect.stringContaining("not followed"),
      });
    } finally {
      await target.close();
    }
  });

  it("reads a bounded part of an answer that never ends, and gives up on one that never comes", async () => {
    const { id } = await register(receiver.url);
    const writers: NodeJS.Timeout[] = [];
    receiver.answer = (_request, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // An answer that never ends: a chunk every millisecond, forever.
      writers.push(setInterval(() => res.write("x".repeat(1024)), 1));
      return "custom";
    };
    try {
      await enqueueWebhookEvent(t.db, {
        type: "submission.stage_changed",
        submissionId: null,
        data: {},
      });
      expect(await deliverDueWebhooks(deps({ timeoutMs: 5_000 }))).toEqual({
        delivered: 1,
        retried: 0,
        failed: 0,
      });
    } finally {
      writers.forEach(clearInterval);
    }
    receiver.answer = () => "custom"; // never answers
    await t.db.deleteFrom("webhook_attempts").execute();
    await t.db.deleteFrom("webhook_deliveries").execute();
    await enqueueWebhookEvent(t.db, {
      type: "submission.stage_changed",
      submissionId: null,
      data: {},
    });
    const started = Date.now();
    expect(await deliverDueWebhooks(deps({ timeoutMs: 300 }))).toEqual({
      delivered: 0,
      retried: 1,
      failed: 0,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await deliveries(id))[0]!.last_error).toContain("no answer within 0.3 s");
  });
});

describe("the address check at delivery (SSRF)", () => {
  /** The connecting function: the test fails if it is ever called. */
  const mustNotConnect: Sender = async (request) => {
    expect.fail(`connected to ${request.address.address} for ${request.url.href}`);
  };

  async function endpointAt(url: string): Promise<number> {
    // Stored directly: as if the address had passed at registration and changed since.
    const at = new Date().toISOString();
    const row = await t.db
      .insertInto("webhook_endpoints")
      .values({
        url,
        events: JSON.stringify(["submission.stage_changed"]),
        secret: "whsec_test",
        active: 1,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it.each([
    ["http://127.1:9/hook", {}],
    ["http://2130706433:9/hook", {}],
    ["http://[::1]:9/hook", {}],
    ["http://[::ffff:127.0.0.1]:9/hook", {}],
    ["http://0.0.0.0:9/hook", {}],
    ["http://10.1.2.3/hook", {}],
    ["http://172.20.0.1/hook", {}],
    ["http://192.168.10.10/hook", {}],
    ["http://169.254.169.254/hook", {}],
    ["http://[fd00::5]/hook", {}],
    ["http://[fe80::5]/hook", {}],
    ["https://rebound.example.org/hook", { "rebound.example.org": "127.0.0.1" }],
    ["https://inside.example.org/hook", { "inside.example.org": "10.9.8.7" }],
    ["https://metadata.example.org/hook", { "metadata.example.org": "169.254.169.254" }],
  ])("never connects to %s", async (url, names: Record<string, string>) => {
    const id = await endpointAt(url);
    await enqueueWebhookEvent(t.db, {
      type: "submission.stage_changed",
      submissionId: null,
      data: {},
    });
    const report = await deliverDueWebhooks(
      deps({
        // No WEBHOOK_ALLOWED_HOSTS here: every loopback spelling is refused.
        allowedHosts: [],
        send: mustNotConnect,
        resolve: async (hostname) => {
          const address = names[hostname];
          if (!address) throw new Error("ENOTFOUND");
          return [{ address, family: 4 }];
        },
      }),
    );
    expect(report).toEqual({ delivered: 0, retried: 1, failed: 0 });
    const [delivery] = await deliveries(id);
    expect(delivery!.last_error).toMatch(/^Not sent: the address reaches .* which is refused/);
  });

  it("connects to the address it checked, never looking the name up again (DNS rebinding)", async () => {
    await endpointAt("https://hooks.example.org/hook");
    let lookups = 0;
    const connected: string[] = [];
    await enqueueWebhookEvent(t.db, {
      type: "submission.stage_changed",
      submissionId: null,
      data: {},
    });
    await deliverDueWebhooks(
      deps({
        resolve: async () => {
          lookups += 1;
          // A rebinding name: public at the check, loopback at any later lookup.
          return [{ address: lookups === 1 ? "93.184.216.34" : "127.0.0.1", family: 4 }];
        },
        send: async (request) => {
          connected.push(request.address.address);
          expect(request.url.hostname).toBe("hooks.example.org");
          return { status: 204, bodyStart: "" };
        },
      }),
    );
    expect(lookups).toBe(1);
    expect(connected).toEqual(["93.184.216.34"]);
  });
});

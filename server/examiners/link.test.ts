import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExaminerAssignment, LinkRefusedBody } from "../../common/examiners.js";
import { hashToken } from "../auth/tokens.js";
import { nowIso } from "../db/database.js";
import { addDocumentVersion } from "../../testing/documents.js";
import {
  readyToSend,
  sendAndGetTokens,
  simulateReport,
  type ReadyToSend,
} from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { SAME_ORIGIN, createTestApp, type TestApp } from "../../testing/test-app.js";
import { nominateExaminer, releaseOutcome, revokeLink } from "./service.js";
import { createExaminer } from "../../testing/examiners.js";
import { parseExaminerAuthorization } from "./link-auth.js";

/**
 * The examiner's link (issue 9): the token as a credential (valid, invalid, expired, revoked,
 * replaced, throttled), the assignment the page shows, the thesis download that marks the thesis
 * received, the corrections' confirmation, and the headers every answer carries. Links are sent
 * through the real "Send to examiners" service; the report upload is in report.test.ts.
 */

const CONTACT = "sgs@school.test";
/** Refused tokens per address per window here: small, so the throttle is reached quickly. */
const LINK_LIMIT = 4;

let t: TestApp;
let admin: TestUser;
let ipCount = 0;

/** An address of the test's own, so each test's refusals count in a counter of their own. */
const freshIp = () => {
  ipCount += 1;
  return `203.0.113.${ipCount}`;
};

beforeAll(async () => {
  t = await createTestApp({
    ETS_CONTACT_EMAIL: CONTACT,
    RATE_LIMIT_EXAMINER_LINKS: String(LINK_LIMIT),
  });
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

interface SentSubmission extends ReadyToSend {
  tokens: { internal: string; external: string };
  examinationIds: { internal: number; external: number };
}

async function sentSubmission(): Promise<SentSubmission> {
  const ready = await readyToSend(t, { admin });
  const sent = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
  const { internal, external } = sent.tokens;
  if (!internal || !external) throw new Error("the links were not sent");
  return { ...ready, tokens: { internal, external }, examinationIds: sent.examinationIds };
}

function call(
  method: "GET" | "POST",
  url: string,
  options: {
    token?: string;
    authorization?: string;
    ip?: string;
    headers?: Record<string, string>;
    payload?: object;
  } = {},
): Promise<LightMyRequestResponse> {
  const authorization =
    options.authorization ?? (options.token ? `Examiner ${options.token}` : undefined);
  return t.app.inject({
    method,
    url,
    headers: {
      ...(method === "POST" ? SAME_ORIGIN : {}),
      ...(authorization ? { authorization } : {}),
      ...options.headers,
    },
    ...(options.payload ? { payload: options.payload } : {}),
    remoteAddress: options.ip ?? freshIp(),
  });
}

const assignmentOf = (res: LightMyRequestResponse) =>
  (res.json() as { data: ExaminerAssignment }).data;

async function auditRows(event: string) {
  const rows = await t.db
    .selectFrom("audit_log")
    .select(["event", "subject", "ip", "details", "actor_user_id"])
    .where("event", "=", event)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    ...row,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
  }));
}

async function examinationRow(id: number) {
  return t.db.selectFrom("examinations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function eventsOf(submissionId: number, kind: string) {
  return t.db
    .selectFrom("submission_events")
    .select(["field", "from_value", "to_value", "kind", "actor_user_id"])
    .where("submission_id", "=", submissionId)
    .where("kind", "=", kind)
    .execute();
}

function expectRefused(
  res: LightMyRequestResponse,
  status: number,
  reason: LinkRefusedBody["reason"],
): void {
  expect(res.statusCode).toBe(status);
  const body = res.json() as LinkRefusedBody;
  expect(Object.keys(body).sort()).toEqual(
    ["code", "message", "reason", "schoolContact", "success"].sort(),
  );
  expect(body).toMatchObject({
    success: false,
    code: "link_refused",
    reason,
    schoolContact: CONTACT,
  });
  expect(body.message.length).toBeGreaterThan(20);
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
}

// ---------------------------------------------------------------------------------------------

describe("the Authorization header", () => {
  it("reads exactly `Examiner <43 base64url characters>`", () => {
    const token = randomBytes(32).toString("base64url");
    expect(parseExaminerAuthorization(`Examiner ${token}`)).toBe(token);
    expect(parseExaminerAuthorization(`examiner ${token}`)).toBe(token);
    expect(parseExaminerAuthorization(undefined)).toBeNull();
    expect(parseExaminerAuthorization(`Bearer ${token}`)).toBeNull();
    expect(parseExaminerAuthorization(`Examiner ${token}x`)).toBeNull();
    expect(parseExaminerAuthorization(`Examiner ${token.slice(1)}`)).toBeNull();
    expect(parseExaminerAuthorization(`Examiner ${token.slice(1)}+`)).toBeNull();
    expect(parseExaminerAuthorization(`Examiner ${token} extra`)).toBeNull();
    expect(parseExaminerAuthorization(`Examiner ${"a".repeat(5000)}`)).toBeNull();
  });
});

describe("a link that does not open the page", () => {
  it("answers 401 invalid for no header, a malformed one and an unknown token, and audits each", async () => {
    const ip = freshIp();
    const before = (await auditRows("examiner.link_refused")).length;
    const unknown = randomBytes(32).toString("base64url");
    for (const authorization of [undefined, "Examiner not-a-token", `Examiner ${unknown}`]) {
      const res = await call("GET", "/api/examiner/assignment", {
        ip,
        ...(authorization ? { authorization } : {}),
      });
      expectRefused(res, 401, "invalid");
    }
    const rows = (await auditRows("examiner.link_refused")).slice(before);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ ip, subject: null, details: { reason: "invalid" } });
      // Never the token, nor its hash.
      const text = JSON.stringify(row);
      expect(text).not.toContain(unknown);
      expect(text).not.toContain(hashToken(unknown).slice(0, 16));
    }
  });

  it("answers 410 expired for a link past its expiry, naming nothing of the submission", async () => {
    const s = await sentSubmission();
    await t.db
      .updateTable("examiner_links")
      .set({ expires_at: nowIso(new Date(Date.now() - 1000)) })
      .where("examination_id", "=", s.examinationIds.external)
      .execute();
    const res = await call("GET", "/api/examiner/assignment", { token: s.tokens.external });
    expectRefused(res, 410, "expired");
    expect((res.json() as LinkRefusedBody).message).toContain("This examination link has expired.");
    for (const secret of [
      s.submission.indexNumber,
      s.submission.studentName,
      "Rainfall",
      s.external.name,
    ]) {
      expect(res.body).not.toContain(secret);
    }
    const [row] = (await auditRows("examiner.link_refused")).slice(-1);
    expect(row).toMatchObject({
      subject: s.external.email,
      details: { reason: "expired", examinationId: s.examinationIds.external },
    });
    expect(JSON.stringify(row)).not.toContain(s.tokens.external);
    // A refused link leaves the examination as it was.
    expect((await examinationRow(s.examinationIds.external)).last_opened_at).toBeNull();
  });

  it("answers 410 revoked once the school revokes the link, on every route", async () => {
    const s = await sentSubmission();
    await revokeLink(t, admin, s.examinationIds.internal);
    for (const [method, url] of [
      ["GET", "/api/examiner/assignment"],
      ["GET", "/api/examiner/thesis"],
      ["POST", "/api/examiner/report"],
      ["POST", "/api/examiner/corrections/approve"],
    ] as const) {
      const res = await call(method, url, { token: s.tokens.internal });
      expectRefused(res, 410, "revoked");
    }
    expect((await examinationRow(s.examinationIds.internal)).state).toBe("sent");
  });

  it("answers 410 replaced for the examiner who was replaced; the new examiner's link works", async () => {
    const s = await sentSubmission();
    const successor = await createExaminer(t.db, { kind: "external" });
    await nominateExaminer(t, admin, s.submission.indexNumber, "external", {
      examinerId: successor.id,
    });
    const refused = await call("GET", "/api/examiner/assignment", { token: s.tokens.external });
    expectRefused(refused, 410, "replaced");
    const { tokens } = await sendAndGetTokens(t, s.submission.indexNumber, admin, {
      roles: ["external"],
    });
    const res = await call("GET", "/api/examiner/assignment", { token: tokens.external ?? "" });
    expect(res.statusCode).toBe(200);
    expect(assignmentOf(res).examinerName).toBe(successor.name);
  });

  it("throttles an address's refused tokens, never a valid one, and audits the throttle once", async () => {
    const s = await sentSubmission();
    const ip = freshIp();
    const before = (await auditRows("examiner.link_throttled")).length;
    for (let i = 0; i < LINK_LIMIT; i += 1) {
      const guess = randomBytes(32).toString("base64url");
      expectRefused(
        await call("GET", "/api/examiner/assignment", { token: guess, ip }),
        401,
        "invalid",
      );
    }
    const over = await call("GET", "/api/examiner/assignment", {
      token: randomBytes(32).toString("base64url"),
      ip,
    });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ success: false, code: "rate_limited" });
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(over.headers["cache-control"]).toBe("no-store");
    // A university's examiners may share one address: a valid link always opens the page, however
    // many stale links were refused from that address (a 256-bit token cannot be guessed).
    const valid = await call("GET", "/api/examiner/assignment", { token: s.tokens.internal, ip });
    expect(valid.statusCode).toBe(200);
    const stillThrottled = await call("GET", "/api/examiner/assignment", {
      token: randomBytes(32).toString("base64url"),
      ip,
    });
    expect(stillThrottled.statusCode).toBe(429);
    const throttled = (await auditRows("examiner.link_throttled")).slice(before);
    expect(throttled).toHaveLength(1);
    expect(throttled[0]).toMatchObject({ ip, details: { refusals: LINK_LIMIT } });
    // Another address is not held back by this one's guesses.
    const elsewhere = await call("GET", "/api/examiner/assignment", { token: s.tokens.internal });
    expect(elsewhere.statusCode).toBe(200);
  });

  it("does not count valid links against the address", async () => {
    const s = await sentSubmission();
    const ip = freshIp();
    for (let i = 0; i < LINK_LIMIT + 2; i += 1) {
      const res = await call("GET", "/api/examiner/assignment", { token: s.tokens.internal, ip });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe("the assignment", () => {
  it("shows the thesis, the due date and the school's contact, never the student's details", async () => {
    const s = await sentSubmission();
    await t.db
      .updateTable("submissions")
      .set({ contact: "+233 20 000 0000", student_email: "student-private@mail.test" })
      .where("id", "=", s.submission.id)
      .execute();
    const res = await call("GET", "/api/examiner/assignment", { token: s.tokens.internal });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    const data = assignmentOf(res);
    const row = await examinationRow(s.examinationIds.internal);
    expect(data).toEqual({
      examinerName: s.internal.name,
      role: "internal",
      thesis: {
        title: "Rainfall and Maize Yields in the Northern Savannah",
        abstract: "We study how rainfall variability shapes maize yields across three districts.",
        programme: s.submission.programme,
        file: {
          fileName: "thesis.pdf",
          sizeBytes: s.thesis.bytes.length,
          pageCount: s.thesis.version.pageCount,
          uploadedAt: s.thesis.version.uploadedAt,
        },
      },
      dueOn: row.due_on,
      state: "sent",
      receivedAt: null,
      report: null,
      corrections: null,
      done: false,
      linkExpiresAt: row.link_expires_at,
      schoolContact: CONTACT,
    });
    for (const secret of [
      s.submission.indexNumber,
      s.submission.studentName,
      "student-private@mail.test",
      "+233 20 000 0000",
      s.student.email,
    ]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it("records each opening, and audits one per hour at most", async () => {
    const s = await sentSubmission();
    const before = (await auditRows("examiner.opened")).length;
    const first = await call("GET", "/api/examiner/assignment", { token: s.tokens.external });
    expect(first.statusCode).toBe(200);
    const openedAt = (await examinationRow(s.examinationIds.external)).last_opened_at;
    expect(openedAt).not.toBeNull();
    await call("GET", "/api/examiner/assignment", { token: s.tokens.external });
    const opened = (await auditRows("examiner.opened")).slice(before);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      subject: s.external.email,
      actor_user_id: null,
      details: { examinationId: s.examinationIds.external, role: "external" },
    });
    expect(
      ((await examinationRow(s.examinationIds.external)).last_opened_at ?? "") >= (openedAt ?? ""),
    ).toBe(true);

    // An opening after an hour's quiet is a new visit.
    await t.db
      .updateTable("examinations")
      .set({ last_opened_at: nowIso(new Date(Date.now() - 2 * 60 * 60 * 1000)) })
      .where("id", "=", s.examinationIds.external)
      .execute();
    await call("GET", "/api/examiner/assignment", { token: s.tokens.external });
    expect((await auditRows("examiner.opened")).slice(before)).toHaveLength(2);
  });

  it("never reads another submission: each token sees its own thesis", async () => {
    const a = await sentSubmission();
    const b = await sentSubmission();
    await t.db
      .updateTable("submissions")
      .set({ thesis_title: "Thesis B: Coastal Erosion" })
      .where("id", "=", b.submission.id)
      .execute();
    const resA = await call("GET", "/api/examiner/assignment", { token: a.tokens.internal });
    expect(assignmentOf(resA).thesis.title).toBe(
      "Rainfall and Maize Yields in the Northern Savannah",
    );
    expect(resA.body).not.toContain("Coastal");
    const resB = await call("GET", "/api/examiner/assignment", { token: b.tokens.internal });
    expect(assignmentOf(resB).thesis.title).toBe("Thesis B: Coastal Erosion");

    const fileA = await call("GET", "/api/examiner/thesis", { token: a.tokens.internal });
    expect(fileA.rawPayload.equals(a.thesis.bytes)).toBe(true);
    expect(fileA.rawPayload.equals(b.thesis.bytes)).toBe(false);
    // Downloading A's thesis moved A's examination only.
    expect((await examinationRow(a.examinationIds.internal)).state).toBe("received");
    expect((await examinationRow(b.examinationIds.internal)).state).toBe("sent");
  });
});

describe("the thesis download", () => {
  it("serves the current thesis as an attachment, never cached", async () => {
    const s = await sentSubmission();
    const res = await call("GET", "/api/examiner/thesis", { token: s.tokens.external });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(s.thesis.bytes)).toBe(true);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="thesis.pdf"/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
  });

  it("marks the examination and the record received on the first download only", async () => {
    const s = await sentSubmission();
    const before = (await auditRows("examiner.thesis_downloaded")).length;
    const first = await call("GET", "/api/examiner/thesis", { token: s.tokens.internal });
    expect(first.statusCode).toBe(200);
    const row = await examinationRow(s.examinationIds.internal);
    expect(row.state).toBe("received");
    expect(row.received_at).not.toBeNull();
    const record = await t.db
      .selectFrom("submissions")
      .select(["internal_examiner", "external_examiner"])
      .where("id", "=", s.submission.id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ internal_examiner: "received", external_examiner: "awaiting" });
    expect(await eventsOf(s.submission.id, "download")).toEqual([
      {
        field: "examination.internal",
        from_value: "sent",
        to_value: "received",
        kind: "download",
        actor_user_id: null,
      },
    ]);

    const second = await call("GET", "/api/examiner/thesis", { token: s.tokens.internal });
    expect(second.statusCode).toBe(200);
    expect((await examinationRow(s.examinationIds.internal)).received_at).toBe(row.received_at);
    expect(await eventsOf(s.submission.id, "download")).toHaveLength(1);
    const audits = (await auditRows("examiner.thesis_downloaded")).slice(before);
    expect(audits.map((a) => a.details?.first)).toEqual([true, false]);
    expect(audits[0]).toMatchObject({
      subject: s.internal.email,
      details: { examinationId: s.examinationIds.internal, thesisVersion: 1 },
    });

    const assignment = assignmentOf(
      await call("GET", "/api/examiner/assignment", { token: s.tokens.internal }),
    );
    expect(assignment).toMatchObject({ state: "received", receivedAt: row.received_at });
  });

  it("moves the examination once when two first downloads arrive together", async () => {
    const s = await sentSubmission();
    const both = await Promise.all([
      call("GET", "/api/examiner/thesis", { token: s.tokens.external }),
      call("GET", "/api/examiner/thesis", { token: s.tokens.external }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await eventsOf(s.submission.id, "download")).toHaveLength(1);
    const moves = await t.db
      .selectFrom("submission_events")
      .select("to_value")
      .where("submission_id", "=", s.submission.id)
      .where("field", "=", "externalExaminer")
      .where("to_value", "=", "received")
      .execute();
    expect(moves).toHaveLength(1);
  });

  it("answers 409 with the school's contact when the student has no thesis uploaded", async () => {
    const s = await sentSubmission();
    await t.db
      .updateTable("submission_documents")
      .set({ is_current: 0 })
      .where("submission_id", "=", s.submission.id)
      .execute();
    const res = await call("GET", "/api/examiner/thesis", { token: s.tokens.internal });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "conflict" });
    expect((res.json() as { message: string }).message).toContain(CONTACT);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect((await examinationRow(s.examinationIds.internal)).state).toBe("sent");
  });
});

describe("cross-site requests", () => {
  it("refuses a cross-site POST even with a valid token, and takes the same-origin one", async () => {
    const s = await sentSubmission();
    const crossSite = await call("POST", "/api/examiner/corrections/approve", {
      token: s.tokens.internal,
      headers: { origin: "https://evil.example" },
      payload: {},
    });
    expect(crossSite.statusCode).toBe(403);
    const sameSite = await call("POST", "/api/examiner/corrections/approve", {
      token: s.tokens.internal,
      payload: {},
    });
    // Past the Origin check: the corrections service answers (nothing to approve yet).
    expect(sameSite.statusCode).toBe(409);
  });
});

describe("the corrections", () => {
  async function releasedWithCorrections(): Promise<SentSubmission> {
    const s = await sentSubmission();
    await simulateReport(t, s.submission.id, "internal");
    await simulateReport(t, s.submission.id, "external");
    await releaseOutcome(t, admin, s.submission.indexNumber, {
      decision: "minor_corrections",
      corrections: "Fix the tables in chapter 3.",
    });
    return s;
  }

  it("shows the internal examiner the corrections, and lets them confirm the corrected thesis", async () => {
    const s = await releasedWithCorrections();
    const waiting = assignmentOf(
      await call("GET", "/api/examiner/assignment", { token: s.tokens.internal }),
    );
    expect(waiting.corrections).toEqual({
      requested: "Fix the tables in chapter 3.",
      state: "to_upload",
      approvedAt: null,
    });
    expect(waiting.done).toBe(false);
    const early = await call("POST", "/api/examiner/corrections/approve", {
      token: s.tokens.internal,
      payload: {},
    });
    expect(early.statusCode).toBe(409);

    const corrected = await addDocumentVersion(
      { db: t.db, storage: t.app.storage },
      {
        submissionId: s.submission.id,
        item: "thesis",
        uploadedBy: s.student.id,
        fileName: "thesis-corrected.pdf",
      },
    );
    const toConfirm = assignmentOf(
      await call("GET", "/api/examiner/assignment", { token: s.tokens.internal }),
    );
    expect(toConfirm.corrections?.state).toBe("to_confirm");
    expect(toConfirm.thesis.file?.fileName).toBe("thesis-corrected.pdf");
    const download = await call("GET", "/api/examiner/thesis", { token: s.tokens.internal });
    expect(download.rawPayload.equals(corrected.bytes)).toBe(true);

    const approved = await call("POST", "/api/examiner/corrections/approve", {
      token: s.tokens.internal,
      payload: { note: "All fixed." },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.headers["cache-control"]).toBe("no-store");
    const data = assignmentOf(approved);
    expect(data.corrections?.state).toBe("approved");
    expect(data.corrections?.approvedAt).not.toBeNull();
    expect(data.done).toBe(true);
    const record = await t.db
      .selectFrom("submissions")
      .select("thesis_status")
      .where("id", "=", s.submission.id)
      .executeTakeFirstOrThrow();
    expect(record.thesis_status).toBe("Corrections approved");
  });

  it("keeps the external examiner out of the corrections", async () => {
    const s = await releasedWithCorrections();
    const view = assignmentOf(
      await call("GET", "/api/examiner/assignment", { token: s.tokens.external }),
    );
    expect(view.corrections).toBeNull();
    expect(view.done).toBe(true);
    const res = await call("POST", "/api/examiner/corrections/approve", {
      token: s.tokens.external,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});

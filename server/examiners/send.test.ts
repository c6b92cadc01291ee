import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminExaminationResponse } from "../../common/examiners.js";
import { hashToken } from "../auth/tokens.js";
import { addDocumentVersion } from "../../testing/documents.js";
import {
  createExaminer,
  examinerLinksOf,
  readyToSend,
  sendAndGetTokens,
  simulateReport,
  submissionWithThesis,
} from "../../testing/examiners.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { validPdf } from "../../testing/pdf-fixtures.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import { nominateExaminer } from "./service.js";

const CONTACT = "sgs-examinations@school.test";
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    ETS_CONTACT_EMAIL: CONTACT,
    ETS_EXAMINER_LINK_DAYS: "30",
    ETS_REPORT_DUE_DAYS: "10",
  });
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const send = (indexNumber: string, payload?: unknown, headers = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/submissions/${indexNumber}/examination/send`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const view = async (indexNumber: string) =>
  (
    await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${indexNumber}/examination`,
      headers: admin.headers,
    })
  ).json<AdminExaminationResponse>().data;
const examinationRow = (id: number) =>
  t.db.selectFrom("examinations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailTo = (email: string) =>
  t.db.selectFrom("outbox").selectAll().where("to_address", "=", email).orderBy("id").execute();
const record = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const dayAfter = (now: Date, days: number) =>
  new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

describe("POST /api/admin/submissions/:indexNumber/examination/send: refusals", () => {
  it("refuses before both examiners are nominated, with the reason the view shows", async () => {
    const { submission } = await submissionWithThesis(t);
    const internal = await createExaminer(t.db, { kind: "internal" });
    await nominateExaminer(t, admin, submission.indexNumber, "internal", {
      examinerId: internal.id,
    });
    const reason = (await view(submission.indexNumber)).sendBlockedReason;
    expect(reason).toMatch(/Nominate the external examiner/);
    const res = await send(submission.indexNumber);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(reason);
    expect(await mailTo(internal.email)).toEqual([]);
  });

  it("refuses without a thesis upload, and with a returned one", async () => {
    const submission = await makeSubmission(t.db, { sgsStage: "sent_to_department" });
    const internal = await createExaminer(t.db, { kind: "internal" });
    const external = await createExaminer(t.db, { kind: "external" });
    await nominateExaminer(t, admin, submission.indexNumber, "internal", {
      examinerId: internal.id,
    });
    await nominateExaminer(t, admin, submission.indexNumber, "external", {
      examinerId: external.id,
    });
    const none = await send(submission.indexNumber);
    expect(none.statusCode).toBe(409);
    expect(none.json<{ message: string }>().message).toMatch(/not uploaded the thesis/);

    const student = await createUser(t.db, "student", { indexNumber: submission.indexNumber });
    await addDocumentVersion(
      { db: t.db, storage: t.app.storage },
      {
        submissionId: submission.id,
        item: "thesis",
        uploadedBy: student.id,
        reviewState: "returned",
      },
    );
    const returned = await send(submission.indexNumber);
    expect(returned.statusCode).toBe(409);
    expect(returned.json<{ message: string }>().message).toMatch(/returned to the student/);
    expect((await view(submission.indexNumber)).sendBlockedReason).toMatch(/returned/);
    expect(await mailTo(internal.email)).toEqual([]);
    expect((await record(submission.id)).sgs_stage).toBe("nominations_ready");
  });

  it("refuses a second plain send once both have their links", async () => {
    const ready = await readyToSend(t, { admin });
    expect((await send(ready.submission.indexNumber)).statusCode).toBe(200);
    const again = await send(ready.submission.indexNumber);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/send to that examiner alone/);
  });

  it("refuses an unknown role and unknown fields", async () => {
    const ready = await readyToSend(t, { admin });
    expect((await send(ready.submission.indexNumber, { roles: ["chair"] })).statusCode).toBe(400);
    expect((await send(ready.submission.indexNumber, { everyone: true })).statusCode).toBe(400);
  });
});

describe("POST /api/admin/submissions/:indexNumber/examination/send", () => {
  it("mails each examiner their own link, stores only its hash, and moves the record", async () => {
    const ready = await readyToSend(t, { admin });
    const before = new Date();
    const res = await send(ready.submission.indexNumber, {});
    expect(res.statusCode).toBe(200);
    const data = res.json<AdminExaminationResponse>().data;
    expect(JSON.stringify(data)).not.toMatch(/token/i);

    for (const role of ["internal", "external"] as const) {
      const examiner = ready[role];
      const examination = data[role];
      expect(examination).toMatchObject({ state: "sent", linkRevokedAt: null });
      expect(examination?.dueOn).toBe(dayAfter(before, 10));
      expect(examination?.linkExpiresAt?.slice(0, 10)).toBe(dayAfter(before, 30));

      const mails = await mailTo(examiner.email);
      expect(mails).toHaveLength(1);
      const link = /http:\/\/localhost:3000\/examiner#([A-Za-z0-9_-]+)/.exec(
        mails[0]?.text_body ?? "",
      );
      expect(link).not.toBeNull();
      const token = link?.[1] ?? "";
      expect(token).toHaveLength(43);
      expect(mails[0]?.text_body).toContain(CONTACT);
      expect(mails[0]?.text_body).toContain(ready.submission.thesisTitle ?? "");
      // The template's parameters (readable by administrators) never hold the link.
      expect(mails[0]?.template).not.toContain(token);

      const row = await examinationRow(examination?.id ?? 0);
      const links = await examinerLinksOf(t.db, examination?.id ?? 0);
      expect(links.map((link) => [link.token_hash, link.purpose])).toEqual([
        [hashToken(token), "invitation"],
      ]);
      expect(JSON.stringify(links)).not.toContain(token);
      expect(row.sent_at).not.toBeNull();

      const audit = await t.db
        .selectFrom("audit_log")
        .selectAll()
        .where("event", "=", "examiner.link_sent")
        .where("subject", "=", examiner.email)
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]?.details).not.toContain(token);
    }
    // The two links differ.
    const [a, b] = await Promise.all([
      examinerLinksOf(t.db, data.internal?.id ?? 0),
      examinerLinksOf(t.db, data.external?.id ?? 0),
    ]);
    expect(a[0]?.token_hash).not.toBe(b[0]?.token_hash);

    const saved = await record(ready.submission.id);
    expect(saved).toMatchObject({
      sgs_stage: "sent_to_examiners",
      internal_examiner: "awaiting",
      external_examiner: "awaiting",
    });
    const events = await t.db
      .selectFrom("submission_events")
      .selectAll()
      .where("submission_id", "=", ready.submission.id)
      .where("kind", "=", "send")
      .execute();
    expect(events.map((e) => e.field).sort()).toEqual([
      "examination.external",
      "examination.internal",
    ]);
    // The student is told the thesis went to the examiners (no names).
    const notice = await t.db
      .selectFrom("messages")
      .selectAll()
      .where("submission_id", "=", ready.submission.id)
      .execute();
    expect(notice.map((m) => m.body).join("\n")).toMatch(/Sent to Examiners/);
    expect(notice.map((m) => m.body).join("\n")).not.toContain(ready.internal.name);
  });

  it("a re-send to one role gives a new link beside the first, keeps the due date and a Received state", async () => {
    const ready = await readyToSend(t, { admin });
    const first = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const id = first.examinationIds.internal;
    await t.db
      .updateTable("examinations")
      .set({ state: "received", received_at: new Date().toISOString(), due_on: "2031-01-31" })
      .where("id", "=", id)
      .execute();
    await t.db
      .updateTable("submissions")
      .set({ internal_examiner: "received" })
      .where("id", "=", ready.submission.id)
      .execute();

    const again = await sendAndGetTokens(t, ready.submission.indexNumber, admin, {
      roles: ["internal"],
    });
    expect(again.tokens.external).toBeUndefined();
    expect(again.tokens.internal).not.toBe(first.tokens.internal);
    const row = await examinationRow(id);
    expect(row).toMatchObject({ state: "received", due_on: "2031-01-31" });
    // Both links work: the examiner may open either mail.
    const links = await examinerLinksOf(t.db, id);
    expect(links.map((link) => [link.token_hash, link.revoked_at])).toEqual([
      [hashToken(first.tokens.internal ?? ""), null],
      [hashToken(again.tokens.internal ?? ""), null],
    ]);
    expect((await record(ready.submission.id)).internal_examiner).toBe("received");
    expect(await mailTo(ready.internal.email)).toHaveLength(2);
    expect(await mailTo(ready.external.email)).toHaveLength(1);
  });

  it("asks for the skip's confirmation when earlier stages are not done, naming them, and writes nothing until then", async () => {
    // Seen in use: stage "Not started", thesis not reviewed, most documents missing.
    const ready = await readyToSend(t, { admin, overrides: { sgsStage: null } });
    const refused = await send(ready.submission.indexNumber);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      code: "confirmation_required",
      message:
        "Sending moves this record from Not started to Sent to Examiners, skipping Awaiting Review, Sent to Department and Nominations Ready: the student will see them as completed. Confirm to send.",
      moves: [
        {
          submissionId: ready.submission.id,
          field: "sgsStage",
          from: null,
          to: "sent_to_examiners",
          kind: "skip",
        },
      ],
    });
    expect((await record(ready.submission.id)).sgs_stage).toBeNull();
    expect(await mailTo(ready.internal.email)).toEqual([]);
    const current = await view(ready.submission.indexNumber);
    expect([current.internal?.state, current.external?.state]).toEqual(["nominated", "nominated"]);
    // "false" is not a confirmation either.
    expect(
      (await send(ready.submission.indexNumber, { confirmOutOfOrder: false })).statusCode,
    ).toBe(409);

    const confirmed = await send(ready.submission.indexNumber, { confirmOutOfOrder: true });
    expect(confirmed.statusCode).toBe(200);
    expect((await record(ready.submission.id)).sgs_stage).toBe("sent_to_examiners");
    expect(await mailTo(ready.internal.email)).toHaveLength(1);
    const [stageEvent] = await t.db
      .selectFrom("submission_events")
      .select(["from_value", "to_value", "kind", "confirmed_out_of_order", "actor_user_id"])
      .where("submission_id", "=", ready.submission.id)
      .where("field", "=", "sgsStage")
      .execute();
    expect(stageEvent).toEqual({
      from_value: null,
      to_value: "sent_to_examiners",
      kind: "skip",
      confirmed_out_of_order: 1,
      actor_user_id: admin.id,
    });
  });

  it("names the one stage skipped from Sent to Department, and needs no confirmation from Nominations Ready", async () => {
    const early = await readyToSend(t, { admin });
    await t.db
      .updateTable("submissions")
      .set({ sgs_stage: "sent_to_department" })
      .where("id", "=", early.submission.id)
      .execute();
    const refused = await send(early.submission.indexNumber);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toContain(
      "from Sent to Department to Sent to Examiners, skipping Nominations Ready: the student will see it as completed.",
    );
    const ready = await readyToSend(t, { admin });
    expect((await record(ready.submission.id)).sgs_stage).toBe("nominations_ready");
    expect((await send(ready.submission.indexNumber)).statusCode).toBe(200);
  });

  it("writes nothing when the send fails halfway (one transaction)", async () => {
    const ready = await readyToSend(t, { admin });
    // The second examiner's invitation fails with a real database error.
    await installWriteTrap(t.db, "outbox", "to_address", ready.external.email);
    const before = await record(ready.submission.id);
    const res = await send(ready.submission.indexNumber);
    expect(res.statusCode).toBe(500);
    const rows = await t.db
      .selectFrom("examinations")
      .selectAll()
      .where("submission_id", "=", ready.submission.id)
      .execute();
    expect(rows.map((r) => [r.state, r.link_created_at, r.sent_at, r.due_on])).toEqual([
      ["nominated", null, null, null],
      ["nominated", null, null, null],
    ]);
    expect(await examinerLinksOf(t.db, rows[0]?.id ?? 0)).toEqual([]);
    expect(await mailTo(ready.internal.email)).toEqual([]);
    const after = await record(ready.submission.id);
    expect([after.sgs_stage, after.internal_examiner, after.version]).toEqual([
      before.sgs_stage,
      before.internal_examiner,
      before.version,
    ]);
  });
});

describe("PATCH /api/admin/examinations/:id (due date)", () => {
  const patch = (id: number, payload: unknown, headers = admin.headers) =>
    t.app.inject({
      method: "PATCH",
      url: `/api/admin/examinations/${id}`,
      headers,
      payload: payload as object,
    });

  it("changes the due date with an event and an audit row", async () => {
    const ready = await readyToSend(t, { admin });
    const { examinationIds } = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const due = dayAfter(new Date(), 60);
    const res = await patch(examinationIds.external, { dueOn: due });
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminExaminationResponse>().data.external?.dueOn).toBe(due);
    expect((await examinationRow(examinationIds.external)).due_on).toBe(due);
    const event = await t.db
      .selectFrom("submission_events")
      .selectAll()
      .where("submission_id", "=", ready.submission.id)
      .where("kind", "=", "due_date")
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ field: "examination.external", to_value: due });
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.due_date_changed")
      .where("subject", "=", ready.external.email)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("refuses a date that is not a date, one in the past, and a report already in", async () => {
    const ready = await readyToSend(t, { admin });
    const { examinationIds } = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const bad = await patch(examinationIds.internal, { dueOn: "2030-02-30" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: { field: string }[] }>().fields[0]?.field).toBe("dueOn");
    const past = await patch(examinationIds.internal, { dueOn: "2001-01-01" });
    expect(past.statusCode).toBe(400);
    expect(past.json<{ message: string }>().message).toBe("dueOn: must be today or later");
    await simulateReport(t, ready.submission.id, "internal");
    const done = await patch(examinationIds.internal, { dueOn: dayAfter(new Date(), 5) });
    expect(done.statusCode).toBe(409);
    expect((await patch(999999, { dueOn: dayAfter(new Date(), 5) })).statusCode).toBe(404);
  });
});

describe("POST /api/admin/examinations/:id/revoke", () => {
  const revoke = (id: number, headers = admin.headers) =>
    t.app.inject({ method: "POST", url: `/api/admin/examinations/${id}/revoke`, headers });

  it("stops every link of the examination at once; a send to that role gives a working one again", async () => {
    const ready = await readyToSend(t, { admin });
    const first = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const { examinationIds } = first;
    const res = await revoke(examinationIds.internal);
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminExaminationResponse>().data.internal?.linkRevokedAt).not.toBeNull();
    expect((await examinationRow(examinationIds.internal)).link_revoked_at).not.toBeNull();
    const twice = await revoke(examinationIds.internal);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ message: string }>().message).toMatch(/already revoked/);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.link_revoked")
      .where("subject", "=", ready.internal.email)
      .execute();
    expect(audit).toHaveLength(1);

    const again = await sendAndGetTokens(t, ready.submission.indexNumber, admin, {
      roles: ["internal"],
    });
    const row = await examinationRow(examinationIds.internal);
    expect(row.link_revoked_at).toBeNull();
    // The revoked link stays revoked; only the new one works.
    const links = await examinerLinksOf(t.db, examinationIds.internal);
    expect(links.map((link) => [link.token_hash, link.revoked_at === null])).toEqual([
      [hashToken(first.tokens.internal ?? ""), false],
      [hashToken(again.tokens.internal ?? ""), true],
    ]);
  });

  it("refuses an examination never sent", async () => {
    const ready = await readyToSend(t, { admin });
    const id = (await view(ready.submission.indexNumber)).internal?.id ?? 0;
    const res = await revoke(id);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/No link has been sent/);
  });
});

describe("GET /api/admin/examinations/:id/report", () => {
  it("serves the report inline, never cached, and audits the download", async () => {
    const ready = await readyToSend(t, { admin });
    await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const bytes = validPdf();
    const id = await simulateReport(t, ready.submission.id, "external", { bytes });
    const data = await view(ready.submission.indexNumber);
    expect(data.external?.report).toMatchObject({
      fileName: "external-report.pdf",
      recommendation: "minor_corrections",
      href: `/api/admin/examinations/${id}/report`,
    });
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/examinations/${id}/report`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-disposition"]).toMatch(/^inline; filename="external-report.pdf"/);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.report_downloaded")
      .where("subject", "=", ready.external.email)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("answers 404 when there is no report yet", async () => {
    const ready = await readyToSend(t, { admin });
    const { examinationIds } = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/examinations/${examinationIds.internal}/report`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("access", () => {
  it("answers 401 and 403 on every administrator's examination route", async () => {
    const ready = await readyToSend(t, { admin });
    const { examinationIds } = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    const index = ready.submission.indexNumber;
    const id = examinationIds.internal;
    const routes: [string, string, object | undefined][] = [
      ["GET", `/api/admin/submissions/${index}/examination`, undefined],
      ["PUT", `/api/admin/submissions/${index}/examiners/internal`, { examinerId: 1 }],
      ["POST", `/api/admin/submissions/${index}/examination/send`, {}],
      ["POST", `/api/admin/examinations/${id}/revoke`, undefined],
      ["PATCH", `/api/admin/examinations/${id}`, { dueOn: "2040-01-01" }],
      ["GET", `/api/admin/examinations/${id}/report`, undefined],
      ["POST", `/api/admin/submissions/${index}/examination/outcome`, { decision: "pass" }],
      ["POST", `/api/admin/submissions/${index}/examination/corrections/approve`, undefined],
    ];
    for (const [method, url, payload] of routes) {
      for (const [headers, status] of [
        [{ origin: "http://localhost:3000" }, 401],
        [ready.student.headers, 403],
      ] as const) {
        const res = await t.app.inject({
          method: method as "GET",
          url,
          headers,
          ...(payload ? { payload } : {}),
        });
        expect([url, res.statusCode]).toEqual([url, status]);
      }
    }
    const row = await examinationRow(id);
    expect([row.link_revoked_at, row.due_on]).toEqual([null, dayAfter(new Date(), 10)]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminExaminationResponse } from "../../common/examiners.js";
import type { SubmissionDocumentsResponse } from "../../common/documents.js";
import { hashToken } from "../auth/tokens.js";
import { uniquePdf } from "../../testing/documents.js";
import {
  examinerLinksOf,
  readyToSend,
  sendAndGetTokens,
  simulateReport,
  type ReadyToSend,
} from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { uploadDocumentFile } from "../../testing/uploads.js";
import { outcomeNotice } from "../messages/service.js";
import { approveCorrections, correctionState } from "./outcome.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ ETS_CONTACT_EMAIL: "sgs@school.test" });
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const release = (indexNumber: string, payload: unknown, headers = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/submissions/${indexNumber}/examination/outcome`,
    headers,
    payload: payload as object,
  });
const approve = (indexNumber: string, headers = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/submissions/${indexNumber}/examination/corrections/approve`,
    headers,
  });
const view = async (indexNumber: string) =>
  (
    await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${indexNumber}/examination`,
      headers: admin.headers,
    })
  ).json<AdminExaminationResponse>().data;
const record = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailTo = (email: string) =>
  t.db.selectFrom("outbox").selectAll().where("to_address", "=", email).orderBy("id").execute();
const messagesOf = (submissionId: number) =>
  t.db
    .selectFrom("messages")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .orderBy("id")
    .execute();
const thesisSlot = async (s: ReadyToSend) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/submissions/${s.submission.indexNumber}/documents`,
    headers: s.student.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json<SubmissionDocumentsResponse>().data.items.find((i) => i.item === "thesis");
};
const uploadCorrected = (s: ReadyToSend, fileName = "thesis-corrected.pdf") =>
  uploadDocumentFile(
    t.app,
    s.student.headers,
    s.submission.indexNumber,
    "thesis",
    fileName,
    uniquePdf(),
  );

/** Sent, and both reports in. */
async function bothReportsIn() {
  const ready = await readyToSend(t, { admin });
  const sent = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
  await simulateReport(t, ready.submission.id, "internal", { recommendation: "minor_corrections" });
  await simulateReport(t, ready.submission.id, "external", {
    recommendation: "major_corrections",
    note: "Chapter 4 needs work.",
  });
  return { ...ready, ...sent };
}

describe("correctionState", () => {
  const outcome = (decision: "pass" | "minor_corrections", approved: string | null = null) => ({
    decision,
    thesisVersionAtRelease: 2,
    correctionsApprovedAt: approved,
  });
  it("derives where the corrections stand from the outcome and the thesis version", () => {
    expect(correctionState(null, 3)).toBe("not_needed");
    expect(correctionState(outcome("pass"), 3)).toBe("not_needed");
    expect(correctionState(outcome("minor_corrections"), 2)).toBe("to_upload");
    expect(correctionState(outcome("minor_corrections"), null)).toBe("to_upload");
    expect(correctionState(outcome("minor_corrections"), 3)).toBe("to_confirm");
    expect(correctionState(outcome("minor_corrections", "2030-01-01T00:00:00.000Z"), 3)).toBe(
      "approved",
    );
  });
});

describe("outcomeNotice", () => {
  it("says the decision; asks for the corrected thesis only after a corrections decision", () => {
    const fail = outcomeNotice({ kind: "released", decision: "fail", corrections: null }, "10001");
    expect(fail.title).toBe("Examination outcome: Fail");
    expect(fail.body).toContain("(10001): Fail.");
    expect(fail.body).not.toMatch(/upload/);
    const minor = outcomeNotice(
      { kind: "released", decision: "minor_corrections", corrections: "Fix page 3." },
      "10001",
    );
    expect(minor.body).toContain("The corrections requested:\nFix page 3.");
    expect(minor.body).toMatch(/upload the corrected thesis/);
    expect(outcomeNotice({ kind: "corrections_approved" }, "10001").title).toBe(
      "Corrections approved",
    );
  });
});

describe("POST /api/admin/submissions/:indexNumber/examination/outcome", () => {
  it("refuses before both reports are in, naming whose is missing", async () => {
    const ready = await readyToSend(t, { admin });
    await sendAndGetTokens(t, ready.submission.indexNumber, admin);
    await simulateReport(t, ready.submission.id, "internal");
    expect((await view(ready.submission.indexNumber)).canReleaseOutcome).toBe(false);
    const res = await release(ready.submission.indexNumber, { decision: "pass" });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(
      /waiting for the external examiner's report/,
    );
    expect(
      await t.db
        .selectFrom("examination_outcomes")
        .selectAll()
        .where("submission_id", "=", ready.submission.id)
        .execute(),
    ).toEqual([]);
  });

  it("needs corrections text for a corrections decision, and refuses it for another", async () => {
    const s = await bothReportsIn();
    const missing = await release(s.submission.indexNumber, { decision: "minor_corrections" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ fields: { field: string }[] }>().fields[0]?.field).toBe("corrections");
    const blank = await release(s.submission.indexNumber, {
      decision: "major_corrections",
      corrections: "   ",
    });
    expect(blank.statusCode).toBe(400);
    const extra = await release(s.submission.indexNumber, {
      decision: "pass",
      corrections: "Fix the typos.",
    });
    expect(extra.statusCode).toBe(400);
    const unknown = await release(s.submission.indexNumber, { decision: "distinction" });
    expect(unknown.statusCode).toBe(400);
  });

  it("releases the outcome: Thesis Status, the student's notice and mail, event, audit; once", async () => {
    const s = await bothReportsIn();
    expect((await view(s.submission.indexNumber)).canReleaseOutcome).toBe(true);
    const res = await release(s.submission.indexNumber, {
      decision: "minor_corrections",
      corrections: "Correct the table numbering in chapter 3.",
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<AdminExaminationResponse>().data;
    expect(data.canReleaseOutcome).toBe(false);
    expect(data.outcome).toMatchObject({
      decision: "minor_corrections",
      label: "Minor corrections",
      corrections: "Correct the table numbering in chapter 3.",
      correctionState: "to_upload",
      correctionsApprovedAt: null,
    });
    expect((await record(s.submission.id)).thesis_status).toBe("Minor corrections");
    const stored = await t.db
      .selectFrom("examination_outcomes")
      .selectAll()
      .where("submission_id", "=", s.submission.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.thesis_version_at_release)).toBe(s.thesis.version.version);

    const messages = await messagesOf(s.submission.id);
    const notice = messages.at(-1);
    expect(notice?.title).toBe("Examination outcome: Minor corrections");
    expect(notice?.body).toContain("Correct the table numbering in chapter 3.");
    const mails = await mailTo(s.student.email);
    const mail = mails.at(-1);
    expect(mail?.subject).toBe("ETS Tracking: Examination outcome: Minor corrections");
    expect(mail?.text_body).toContain("Correct the table numbering in chapter 3.");
    for (const text of [notice?.body ?? "", mail?.text_body ?? ""]) {
      expect(text).not.toContain(s.internal.name);
      expect(text).not.toContain(s.external.name);
      expect(text).not.toContain("Chapter 4 needs work.");
    }
    const event = await t.db
      .selectFrom("submission_events")
      .selectAll()
      .where("submission_id", "=", s.submission.id)
      .where("field", "=", "examination.outcome")
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ kind: "outcome", to_value: "Minor corrections" });
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examination.outcome_released")
      .where("actor_user_id", "=", admin.id)
      .execute();
    expect(audit.some((a) => a.details?.includes(s.submission.indexNumber))).toBe(true);

    const twice = await release(s.submission.indexNumber, { decision: "pass" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ message: string }>().message).toMatch(/already released/);
  });

  it("a Pass keeps the accepted thesis closed to uploads", async () => {
    const s = await bothReportsIn();
    expect((await release(s.submission.indexNumber, { decision: "pass" })).statusCode).toBe(200);
    expect((await record(s.submission.id)).thesis_status).toBe("Pass");
    expect((await thesisSlot(s))?.canUpload).toBe(false);
    const upload = await uploadCorrected(s);
    expect(upload.statusCode).toBe(409);
    const approval = await approve(s.submission.indexNumber);
    expect(approval.statusCode).toBe(409);
    expect(approval.json<{ message: string }>().message).toMatch(/asks for no corrections/);
  });
});

describe("corrections", () => {
  it("to_upload, the corrected thesis through the upload route, to_confirm, approved by an administrator", async () => {
    const s = await bothReportsIn();
    await release(s.submission.indexNumber, {
      decision: "major_corrections",
      corrections: "Rewrite chapter 4.",
    });
    expect((await thesisSlot(s))?.canUpload).toBe(true);

    const early = await approve(s.submission.indexNumber);
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toMatch(/not uploaded the corrected thesis/);

    const oldHash = hashToken(s.tokens.internal ?? "");
    const mailsBefore = (await mailTo(s.internal.email)).length;
    const upload = await uploadCorrected(s);
    expect(upload.statusCode).toBe(201);
    expect((await view(s.submission.indexNumber)).outcome?.correctionState).toBe("to_confirm");

    // The internal examiner gets a fresh link to confirm, beside the invitation's.
    const mails = await mailTo(s.internal.email);
    expect(mails).toHaveLength(mailsBefore + 1);
    const mail = mails.at(-1);
    expect(mail?.subject).toMatch(/^Corrected thesis ready for your confirmation/);
    const token = /\/examiner#([A-Za-z0-9_-]{43})/.exec(mail?.text_body ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    const internal = await t.db
      .selectFrom("examinations")
      .selectAll()
      .where("id", "=", s.examinationIds.internal)
      .executeTakeFirstOrThrow();
    const links = await examinerLinksOf(t.db, s.examinationIds.internal);
    expect(links.map((link) => [link.token_hash, link.purpose, link.revoked_at])).toEqual([
      [oldHash, "invitation", null],
      [hashToken(token), "corrections", null],
    ]);
    expect(internal.state).toBe("report_submitted");
    expect(await mailTo(s.external.email)).toHaveLength(1);

    const res = await approve(s.submission.indexNumber);
    expect(res.statusCode).toBe(200);
    const data = res.json<AdminExaminationResponse>().data;
    expect(data.outcome).toMatchObject({ correctionState: "approved" });
    expect(data.outcome?.correctionsApprovedAt).not.toBeNull();
    expect((await record(s.submission.id)).thesis_status).toBe("Corrections approved");
    const current = await t.db
      .selectFrom("submission_documents")
      .selectAll()
      .where("submission_id", "=", s.submission.id)
      .where("item", "=", "thesis")
      .where("is_current", "=", 1)
      .executeTakeFirstOrThrow();
    expect(current).toMatchObject({ review_state: "accepted", reviewed_by: admin.id });
    expect((await messagesOf(s.submission.id)).at(-1)?.title).toBe("Corrections approved");
    expect((await mailTo(s.student.email)).at(-1)?.subject).toBe(
      "ETS Tracking: Corrections approved",
    );
    const outcome = await t.db
      .selectFrom("examination_outcomes")
      .selectAll()
      .where("submission_id", "=", s.submission.id)
      .executeTakeFirstOrThrow();
    expect(outcome.corrections_approved_by).toBe(admin.id);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.corrections_approved")
      .where("actor_user_id", "=", admin.id)
      .execute();
    expect(audit.length).toBeGreaterThan(0);

    // Approved: the thesis is closed again.
    expect((await thesisSlot(s))?.canUpload).toBe(false);
    expect((await uploadCorrected(s, "again.pdf")).statusCode).toBe(409);
    expect((await approve(s.submission.indexNumber)).statusCode).toBe(409);
  });

  it("the internal examiner approves through their examination; another examination may not", async () => {
    const s = await bothReportsIn();
    await release(s.submission.indexNumber, {
      decision: "minor_corrections",
      corrections: "Fix the references.",
    });
    expect((await uploadCorrected(s)).statusCode).toBe(201);
    await expect(
      approveCorrections(t, { examinationId: s.examinationIds.external }, s.submission.id),
    ).rejects.toMatchObject({ code: "forbidden" });
    const outcome = await approveCorrections(
      t,
      { examinationId: s.examinationIds.internal, note: "All done." },
      s.submission.id,
    );
    expect(outcome.correctionsApprovedExamination).toBe(s.examinationIds.internal);
    expect(outcome.correctionsApprovedBy).toBeNull();
    expect((await record(s.submission.id)).thesis_status).toBe("Corrections approved");
  });

  it("a corrected thesis the school returns puts the corrections back to upload", async () => {
    const s = await bothReportsIn();
    await release(s.submission.indexNumber, {
      decision: "minor_corrections",
      corrections: "Fix the references.",
    });
    const upload = await uploadCorrected(s);
    const versionId = upload.json<{ data: { id: number } }>().data.id;
    const returned = await t.app.inject({
      method: "POST",
      url: `/api/admin/documents/${versionId}/return`,
      headers: admin.headers,
      payload: { reason: "The corrections are missing from chapter 2." },
    });
    expect(returned.statusCode).toBe(200);
    expect((await view(s.submission.indexNumber)).outcome?.correctionState).toBe("to_upload");
    expect((await thesisSlot(s))?.canUpload).toBe(true);
    expect((await uploadCorrected(s, "second-try.pdf")).statusCode).toBe(201);
    expect((await view(s.submission.indexNumber)).outcome?.correctionState).toBe("to_confirm");
  });
});

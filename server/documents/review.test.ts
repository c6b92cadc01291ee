import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDocumentVersion } from "../../testing/documents.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { installWriteTrap } from "../../testing/write-trap.js";

let t: TestApp;
let admin: TestUser;
let storageRoot: string;
let indexCount = 0;

beforeAll(async () => {
  storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ets-review-"));
  t = await createTestApp({ STORAGE_URL: `file:${storageRoot}` });
  admin = await createUser(t.db, "admin", { name: "Efua Registrar" });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(storageRoot, { recursive: true, force: true });
});

const today = () => new Date().toISOString().slice(0, 10);

/** A submission whose student has an account, so notices also go out by mail. */
async function studentWithSubmission() {
  indexCount += 1;
  const indexNumber = `40${String(indexCount).padStart(6, "0")}`;
  const submission = await makeSubmission(t.db, { indexNumber, studentName: "Ama Mensah" });
  const email = `ama${indexCount}@st.school.test`;
  const student = await createUser(t.db, "student", { indexNumber, email, name: "Ama Mensah" });
  return { submission, student, email };
}

const upload = (
  submissionId: number,
  uploadedBy: number,
  item: "thesis" | "turnitinReport",
  fileName?: string,
) =>
  addDocumentVersion(
    { db: t.db, storage: t.app.storage },
    { submissionId, item, uploadedBy, ...(fileName ? { fileName } : {}) },
  );

const accept = (id: number, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: "POST", url: `/api/admin/documents/${id}/accept`, headers });

const giveBack = (id: number, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/documents/${id}/return`,
    headers,
    payload: payload as object,
  });

const row = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const versionRow = (id: number) =>
  t.db
    .selectFrom("submission_documents")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const eventsOf = (submissionId: number) =>
  t.db
    .selectFrom("submission_events")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .where("kind", "!=", "upload")
    .orderBy("id")
    .execute();
const messagesOf = (submissionId: number) =>
  t.db.selectFrom("messages").selectAll().where("submission_id", "=", submissionId).execute();
const mailTo = (email: string) =>
  t.db.selectFrom("outbox").selectAll().where("to_address", "=", email).execute();

describe("POST /api/admin/documents/:id/accept", () => {
  it("accepts the current version: received today, an event, a notice and a mail", async () => {
    const { submission, student, email } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "thesis", "thesis-final.pdf");

    const res = await accept(version.id);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      id: version.id,
      item: "thesis",
      version: 1,
      fileName: "thesis-final.pdf",
      reviewState: "accepted",
      returnReason: null,
      href: `/api/documents/${version.id}/file`,
    });
    expect(data.reviewedAt.slice(0, 10)).toBe(today());

    const stored = await versionRow(version.id);
    expect([stored.review_state, stored.reviewed_by]).toEqual(["accepted", admin.id]);
    const record = await row(submission.id);
    expect(Number(record.thesis_submitted)).toBe(1);
    expect(record.thesis_received_on).toBe(today());
    expect(record.version).toBe(submission.version + 1);

    const events = await eventsOf(submission.id);
    expect(events.map((e) => [e.field, e.from_value, e.to_value, e.kind, e.actor_user_id])).toEqual(
      [
        ["documents.thesis", null, today(), "review", admin.id],
        ["review.thesis", "pending", "thesis-final.pdf", "accept", admin.id],
      ],
    );

    const messages = await messagesOf(submission.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.title).toBe("Thesis accepted");
    expect(messages[0]?.body).toContain(`received on ${today()}`);
    const mail = await mailTo(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("ETS Tracking: Thesis accepted");
    expect(mail[0]?.text_body).toContain("Dear Ama Mensah");
    expect(mail[0]?.text_body).toContain("thesis-final.pdf");
    expect(JSON.parse(mail[0]?.template ?? "{}")).toMatchObject({ name: "document_accepted" });
  });

  it("writes the notice but no mail when the student has no account", async () => {
    const submission = await makeSubmission(t.db, { indexNumber: "41000001" });
    const uploader = await createUser(t.db, "admin");
    const { version } = await upload(submission.id, uploader.id, "turnitinReport");
    const before = await t.db.selectFrom("outbox").select("id").execute();
    expect((await accept(version.id)).statusCode).toBe(200);
    expect(await messagesOf(submission.id)).toHaveLength(1);
    expect(await t.db.selectFrom("outbox").select("id").execute()).toHaveLength(before.length);
  });

  it("refuses a version that is no longer current, saying which to review", async () => {
    const { submission, student } = await studentWithSubmission();
    const first = await upload(submission.id, student.id, "thesis");
    await upload(submission.id, student.id, "thesis");
    const res = await accept(first.version.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "conflict",
      message: "A newer version of the Thesis was uploaded; review that one.",
    });
    expect((await versionRow(first.version.id)).review_state).toBe("superseded");
    expect(Number((await row(submission.id)).thesis_submitted)).toBe(0);
  });

  it("refuses a version already accepted, and one returned, changing nothing", async () => {
    const { submission, student } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "thesis");
    expect((await accept(version.id)).statusCode).toBe(200);
    const versionAfterFirst = (await row(submission.id)).version;
    const again = await accept(version.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This version was already accepted.");
    expect((await row(submission.id)).version).toBe(versionAfterFirst);
    expect(await messagesOf(submission.id)).toHaveLength(1);

    const returned = await upload(submission.id, student.id, "turnitinReport");
    expect((await giveBack(returned.version.id, { reason: "Cut off." })).statusCode).toBe(200);
    const res = await accept(returned.version.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain("was returned to the student");
  });

  it("answers 404 for a version that does not exist", async () => {
    const res = await accept(987654);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("not_found");
  });

  it("leaves everything as it was when the notice cannot be written", async () => {
    const submission = await makeSubmission(t.db, { indexNumber: "41000002" });
    const student = await createUser(t.db, "student", {
      indexNumber: "41000002",
      email: "trap.review@st.school.test",
    });
    await installWriteTrap(t.db, "outbox", "to_address", "trap.review@st.school.test");
    const { version } = await upload(submission.id, student.id, "thesis");
    const res = await accept(version.id);
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe("Something went wrong on our side. Please try again.");
    expect((await versionRow(version.id)).review_state).toBe("pending");
    const record = await row(submission.id);
    expect([Number(record.thesis_submitted), record.version]).toEqual([0, submission.version]);
    expect(await eventsOf(submission.id)).toHaveLength(0);
    expect(await messagesOf(submission.id)).toHaveLength(0);
  });
});

describe("POST /api/admin/documents/:id/return", () => {
  const reason = "The similarity report stops after page 2; attach the full report";

  it("returns a pending version with the reason: message and mail in full", async () => {
    const { submission, student, email } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "turnitinReport", "report.pdf");

    const res = await giveBack(version.id, { reason: `  ${reason}  ` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: version.id,
      reviewState: "returned",
      returnReason: reason,
    });
    const stored = await versionRow(version.id);
    expect([stored.review_state, stored.return_reason, stored.reviewed_by]).toEqual([
      "returned",
      reason,
      admin.id,
    ]);
    // Nothing was received, so the checklist stays as it was.
    const record = await row(submission.id);
    expect([Number(record.turnitin_report_submitted), record.version]).toEqual([
      0,
      submission.version,
    ]);
    const events = await eventsOf(submission.id);
    expect(events.map((e) => [e.field, e.from_value, e.to_value, e.kind])).toEqual([
      ["review.turnitinReport", "pending", reason, "return"],
    ]);

    const sentence = `Your Turnitin report was returned: ${reason}. Please upload a new version.`;
    const messages = await messagesOf(submission.id);
    expect(messages.map((m) => m.title)).toEqual(["Turnitin report returned"]);
    expect(messages[0]?.body).toContain(sentence);
    const mail = await mailTo(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("ETS Tracking: Turnitin report returned");
    expect(mail[0]?.text_body).toContain(sentence);
    expect(mail[0]?.text_body).toContain("http://localhost:3000/dashboard/status");
  });

  it("undoes an acceptance: the checklist item is cleared with its own event", async () => {
    const { submission, student } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "thesis");
    expect((await accept(version.id)).statusCode).toBe(200);
    expect(Number((await row(submission.id)).thesis_submitted)).toBe(1);

    const res = await giveBack(version.id, { reason: "Wrong file: this is the draft." });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.reviewState).toBe("returned");
    const record = await row(submission.id);
    expect([Number(record.thesis_submitted), record.thesis_received_on]).toEqual([0, null]);
    expect(record.version).toBe(submission.version + 2);
    const events = await eventsOf(submission.id);
    expect(events.slice(2).map((e) => [e.field, e.from_value, e.to_value, e.kind])).toEqual([
      ["documents.thesis", today(), null, "review"],
      ["review.thesis", "accepted", "Wrong file: this is the draft.", "return"],
    ]);
    // The reason ends with its own full stop; the notice adds none.
    const messages = await messagesOf(submission.id);
    expect(messages.map((m) => m.body).at(-1)).toContain(
      "was returned: Wrong file: this is the draft. Please upload",
    );
  });

  it("refuses a version already returned and one no longer current", async () => {
    const { submission, student } = await studentWithSubmission();
    const first = await upload(submission.id, student.id, "thesis");
    expect((await giveBack(first.version.id, { reason: "Blurred scan." })).statusCode).toBe(200);
    const again = await giveBack(first.version.id, { reason: "Still blurred." });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This version was already returned.");

    await upload(submission.id, student.id, "thesis");
    const old = await giveBack(first.version.id, { reason: "Blurred." });
    expect(old.statusCode).toBe(409);
    expect(old.json().message).toBe("A newer version of the Thesis was uploaded; review that one.");
    expect((await versionRow(first.version.id)).return_reason).toBe("Blurred scan.");
  });

  it("asks for a reason, naming the field", async () => {
    const { submission, student } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "thesis");
    for (const payload of [{ reason: "" }, { reason: "   " }, {}]) {
      const res = await giveBack(version.id, payload);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe("validation");
      expect(body.fields.map((f: { field: string }) => f.field)).toEqual(["reason"]);
    }
    const long = await giveBack(version.id, { reason: "x".repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain("reason");
    expect((await versionRow(version.id)).review_state).toBe("pending");
  });
});

describe("who may review", () => {
  it("refuses students (403) and anonymous callers (401) on every review route", async () => {
    const { submission, student } = await studentWithSubmission();
    const { version } = await upload(submission.id, student.id, "thesis");
    const routes = [
      { method: "POST" as const, url: `/api/admin/documents/${version.id}/accept` },
      {
        method: "POST" as const,
        url: `/api/admin/documents/${version.id}/return`,
        payload: { reason: "No." },
      },
      { method: "GET" as const, url: `/api/admin/submissions/${submission.id}/documents.zip` },
    ];
    for (const route of routes) {
      const asStudent = await t.app.inject({ ...route, headers: student.headers });
      expect(asStudent.statusCode).toBe(403);
      const anonymous = await t.app.inject({
        ...route,
        headers: { origin: "http://localhost:3000" },
      });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await versionRow(version.id)).review_state).toBe("pending");
  });
});

describe("the student's timeline", () => {
  it("shows the upload, the acceptance and the return with its reason", async () => {
    const { submission, student } = await studentWithSubmission();
    const thesis = await upload(submission.id, student.id, "thesis");
    const report = await upload(submission.id, student.id, "turnitinReport");
    expect((await accept(thesis.version.id)).statusCode).toBe(200);
    expect((await giveBack(report.version.id, { reason: "Unreadable." })).statusCode).toBe(200);

    const res = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${submission.indexNumber}/timeline`,
      headers: student.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { label: string }) => i.label)).toEqual([
      "Submission recorded",
      "Thesis uploaded",
      "Turnitin report uploaded",
      "Thesis accepted",
      "Turnitin report returned: Unreadable.",
    ]);

    const events = await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${submission.id}/events`,
      headers: admin.bearer,
    });
    expect(
      events.json().items.map((e: { field: string; kind: string }) => `${e.field} ${e.kind}`),
    ).toEqual([
      "upload.thesis upload",
      "upload.turnitinReport upload",
      "documents.thesis review",
      "review.thesis accept",
      "review.turnitinReport return",
    ]);
  });
});

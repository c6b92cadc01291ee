import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExaminerAssignment } from "../../common/examiners.js";
import { nowIso } from "../db/database.js";
import { recordPendingUpload } from "../files/pending-uploads.js";
import { sweepOrphanFiles } from "../documents/sweep.js";
import { EICAR_SIGNATURE, startClamd } from "../../testing/clamd.js";
import { uniquePdf } from "../../testing/documents.js";
import { readyToSend, sendAndGetTokens, type ReadyToSend } from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { eicarPdf, pngRenamedAsPdf, writeLargePdf } from "../../testing/pdf-fixtures.js";
import { SAME_ORIGIN, createTestApp, type TestApp } from "../../testing/test-app.js";
import { multipartBody, storedKeys, type MultipartPart } from "../../testing/uploads.js";

/**
 * The examiner's report upload (issue 9): the form's order (fields, then the file), the student
 * upload's checks (PDF, size, virus scan with a real clamd), the one transaction that records it
 * and moves the examination and the record, the administrators' mail, a second upload refused,
 * the per-examination limit, and the orphan sweep keeping the report's file.
 */

const CONTACT = "sgs@school.test";
const MB = 1024 * 1024;
/** Uploads per examination per hour here: small, so the limit is reached in a few requests. */
const UPLOAD_LIMIT = 4;

let clamd: { url: string; stop(): Promise<void> };
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
let largePdf: Buffer;

beforeAll(async () => {
  clamd = await startClamd();
  t = await createTestApp({
    ETS_CONTACT_EMAIL: CONTACT,
    ETS_MAX_THESIS_MB: "1",
    CLAMD_URL: clamd.url,
    RATE_LIMIT_UPLOADS: String(UPLOAD_LIMIT),
  });
  admin = await createUser(t.db, "admin", { email: `registrar-${Date.now()}@school.test` });
  otherAdmin = await createUser(t.db, "admin", { email: `dean-${Date.now()}@school.test` });
  const retired = await createUser(t.db, "admin", { email: `retired-${Date.now()}@school.test` });
  await t.db.updateTable("users").set({ active: 0 }).where("id", "=", retired.id).execute();
  const file = path.join(
    t.app.storage.stagingDir,
    `..`,
    `large-${randomBytes(4).toString("hex")}.pdf`,
  );
  await writeLargePdf(file, 1.5 * MB);
  largePdf = fs.readFileSync(file);
  fs.rmSync(file);
});
afterAll(async () => {
  await t?.close();
  await clamd?.stop();
});

interface Sent extends ReadyToSend {
  tokens: { internal: string; external: string };
  examinationIds: { internal: number; external: number };
}

async function sent(): Promise<Sent> {
  const ready = await readyToSend(t, { admin });
  const links = await sendAndGetTokens(t, ready.submission.indexNumber, admin);
  const { internal, external } = links.tokens;
  if (!internal || !external) throw new Error("the links were not sent");
  return { ...ready, tokens: { internal, external }, examinationIds: links.examinationIds };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function postReport(
  token: string,
  parts: MultipartPart[],
  headers: Record<string, string> = SAME_ORIGIN,
): Promise<LightMyRequestResponse> {
  const body = multipartBody(parts);
  return t.app.inject({
    method: "POST",
    url: "/api/examiner/report",
    headers: { ...headers, authorization: `Examiner ${token}`, "content-type": body.contentType },
    payload: body.payload,
  });
}

const pdfPart = (content: Buffer, fileName = "report.pdf"): MultipartPart => ({
  name: "file",
  fileName,
  contentType: "application/pdf",
  content,
});

async function examinationRow(id: number) {
  return t.db.selectFrom("examinations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function mailsAbout(indexNumber: string) {
  const rows = await t.db
    .selectFrom("outbox")
    .select(["to_address", "subject", "text_body", "template"])
    .orderBy("id")
    .execute();
  return rows.filter(
    (row) =>
      (JSON.parse(row.template) as { name: string; params?: { indexNumber?: string } }).name ===
        "examiner_report_received" && row.subject.includes(indexNumber),
  );
}

describe("an examiner's report", () => {
  it("is stored, moves the examination and the record, and mails every active administrator", async () => {
    const s = await sent();
    const report = uniquePdf();
    const res = await postReport(s.tokens.external, [
      { name: "recommendation", content: "minor_corrections" },
      { name: "note", content: "  Chapter 4 needs a clearer method.  " },
      pdfPart(report, "Report on thesis.pdf"),
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    const data = (res.json() as { data: ExaminerAssignment }).data;
    expect(data.state).toBe("report_submitted");
    expect(data.report).toMatchObject({
      fileName: "Report on thesis.pdf",
      recommendation: "minor_corrections",
    });
    expect(data.done).toBe(true);
    // Uploaded without downloading first: received then, too.
    expect(data.receivedAt).not.toBeNull();

    const row = await examinationRow(s.examinationIds.external);
    expect(row).toMatchObject({
      state: "report_submitted",
      report_sha256: sha256(report),
      report_file_name: "Report on thesis.pdf",
      report_size_bytes: report.length,
      report_page_count: 1,
      recommendation: "minor_corrections",
      note_to_school: "Chapter 4 needs a clearer method.",
    });
    expect(row.received_at).toBe(row.report_uploaded_at);
    expect(await t.app.storage.exists(sha256(report))).toBe(true);

    const record = await t.db
      .selectFrom("submissions")
      .select(["internal_examiner", "external_examiner"])
      .where("id", "=", s.submission.id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({
      internal_examiner: "awaiting",
      external_examiner: "report_submitted",
    });
    const events = await t.db
      .selectFrom("submission_events")
      .select(["field", "from_value", "to_value", "actor_user_id"])
      .where("submission_id", "=", s.submission.id)
      .where("kind", "=", "report")
      .execute();
    expect(events).toEqual([
      {
        field: "examination.external",
        from_value: "sent",
        to_value: "report_submitted",
        actor_user_id: null,
      },
    ]);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["subject", "details"])
      .where("event", "=", "examiner.report_submitted")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.subject).toBe(s.external.email);
    expect(JSON.parse(audit.details ?? "{}")).toMatchObject({
      examinationId: s.examinationIds.external,
      indexNumber: s.submission.indexNumber,
      recommendation: "minor_corrections",
    });

    const mails = await mailsAbout(s.submission.indexNumber);
    expect(mails.map((m) => m.to_address).sort()).toEqual([admin.email, otherAdmin.email].sort());
    expect(mails[0]?.text_body).toContain(
      `${t.config.publicUrl}/admin/all_submissions?q=${s.submission.indexNumber}`,
    );
    expect(mails[0]?.text_body).toContain("Minor corrections");
  });

  it("keeps the received date of an examiner who downloaded the thesis first", async () => {
    const s = await sent();
    const download = await t.app.inject({
      method: "GET",
      url: "/api/examiner/thesis",
      headers: { authorization: `Examiner ${s.tokens.internal}` },
    });
    expect(download.statusCode).toBe(200);
    const receivedAt = (await examinationRow(s.examinationIds.internal)).received_at;
    const res = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      pdfPart(uniquePdf()),
    ]);
    expect(res.statusCode).toBe(201);
    const row = await examinationRow(s.examinationIds.internal);
    expect(row.received_at).toBe(receivedAt);
    const event = await t.db
      .selectFrom("submission_events")
      .select("from_value")
      .where("submission_id", "=", s.submission.id)
      .where("kind", "=", "report")
      .executeTakeFirstOrThrow();
    expect(event.from_value).toBe("received");
  });

  it("refuses a second report with the date of the first, and keeps the first", async () => {
    const s = await sent();
    const first = uniquePdf();
    expect(
      (
        await postReport(s.tokens.external, [
          { name: "recommendation", content: "pass" },
          pdfPart(first),
        ])
      ).statusCode,
    ).toBe(201);
    const again = await postReport(s.tokens.external, [
      { name: "recommendation", content: "fail" },
      pdfPart(uniquePdf()),
    ]);
    expect(again.statusCode).toBe(409);
    const { message } = again.json() as { message: string };
    expect(message).toContain(`Your report was already received on ${nowIso().slice(0, 10)}`);
    expect(message).toContain(CONTACT);
    expect(again.headers["cache-control"]).toBe("no-store");
    const row = await examinationRow(s.examinationIds.external);
    expect(row).toMatchObject({ recommendation: "pass", report_sha256: sha256(first) });
    expect(await mailsAbout(s.submission.indexNumber)).toHaveLength(2);
  });
});

describe("the report form", () => {
  it("refuses a file sent before the recommendation, naming the field", async () => {
    const s = await sent();
    const report = uniquePdf();
    const res = await postReport(s.tokens.internal, [
      pdfPart(report),
      { name: "recommendation", content: "pass" },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "validation",
      fields: [{ field: "recommendation" }],
    });
    expect((res.json() as { message: string }).message).toContain("before the file");
    expect(await t.app.storage.exists(sha256(report))).toBe(false);
    expect((await examinationRow(s.examinationIds.internal)).state).toBe("sent");
  });

  it("refuses a recommendation outside the five, an unknown field and an over-long note", async () => {
    const s = await sent();
    const wrong = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "excellent" },
      pdfPart(uniquePdf()),
    ]);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fields: [{ field: "recommendation" }] });

    const unknown = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      { name: "grade", content: "A" },
      pdfPart(uniquePdf()),
    ]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ fields: [{ field: "grade" }] });

    const long = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      { name: "note", content: "x".repeat(4001) },
      pdfPart(uniquePdf()),
    ]);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ fields: [{ field: "note" }] });
    expect((await examinationRow(s.examinationIds.internal)).state).toBe("sent");
  });

  it("asks for the file when the form carries none", async () => {
    const s = await sent();
    const res = await postReport(s.tokens.internal, [{ name: "recommendation", content: "pass" }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: [{ field: "file" }] });
  });

  it("refuses a file that is not a PDF, and one over the thesis's limit", async () => {
    const s = await sent();
    const png = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      pdfPart(pngRenamedAsPdf(), "scan.pdf"),
    ]);
    expect(png.statusCode).toBe(400);
    expect(png.json()).toMatchObject({ reason: "not_pdf" });
    expect((png.json() as { message: string }).message).toContain("scan.pdf is not a PDF");

    const large = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      pdfPart(largePdf, "huge.pdf"),
    ]);
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ reason: "too_large" });
    expect((large.json() as { message: string }).message).toContain(
      "larger than 1 MB, the limit for an examination report",
    );
    expect(await t.app.storage.exists(sha256(largePdf))).toBe(false);
    expect((await examinationRow(s.examinationIds.internal)).state).toBe("sent");
  });

  it("refuses a file carrying a virus, audits it and never stores it", async () => {
    const s = await sent();
    const infected = eicarPdf();
    const res = await postReport(s.tokens.external, [
      { name: "recommendation", content: "pass" },
      pdfPart(infected, "infected.pdf"),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: "infected" });
    expect(await t.app.storage.exists(sha256(infected))).toBe(false);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["subject", "details"])
      .where("event", "=", "upload.infected")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.subject).toBe(s.external.email);
    expect(JSON.parse(audit.details ?? "{}")).toMatchObject({
      examinationId: s.examinationIds.external,
      signature: expect.stringContaining(EICAR_SIGNATURE) as unknown,
    });
    expect((await examinationRow(s.examinationIds.external)).state).toBe("sent");
  });

  it("limits the uploads of one examination, not of its neighbour", async () => {
    const s = await sent();
    for (let i = 0; i < UPLOAD_LIMIT; i += 1) {
      const res = await postReport(s.tokens.internal, [
        { name: "recommendation", content: "nonsense" },
        pdfPart(uniquePdf()),
      ]);
      expect(res.statusCode).toBe(400);
    }
    const over = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      pdfPart(uniquePdf()),
    ]);
    expect(over.statusCode).toBe(429);
    expect(over.headers["cache-control"]).toBe("no-store");
    const neighbour = await postReport(s.tokens.external, [
      { name: "recommendation", content: "pass" },
      pdfPart(uniquePdf()),
    ]);
    expect(neighbour.statusCode).toBe(201);
  });
});

describe("the orphan sweep", () => {
  it("keeps an examiner's report and removes the file of an upload of ours nothing refers to", async () => {
    const s = await sent();
    const report = uniquePdf();
    const res = await postReport(s.tokens.internal, [
      { name: "recommendation", content: "pass" },
      pdfPart(report),
    ]);
    expect(res.statusCode).toBe(201);
    // The report's pending-upload record went with the commit that recorded it.
    expect(await t.db.selectFrom("pending_uploads").selectAll().execute()).toEqual([]);
    const orphan = uniquePdf();
    const staged = path.join(t.app.storage.stagingDir, `orphan-${randomBytes(4).toString("hex")}`);
    fs.writeFileSync(staged, orphan);
    // An upload of this installation's whose transaction never committed.
    await recordPendingUpload(t.db, { sha256: sha256(orphan), storedNew: true });
    await t.app.storage.put(sha256(orphan), staged);

    const later = new Date(Date.now() + 3 * 60 * 60 * 1000);
    await sweepOrphanFiles(t.db, t.app.storage, later);
    const keys = await storedKeys(t.app.storage);
    expect(keys).toContain(sha256(report));
    expect(keys).toContain(sha256(s.thesis.bytes));
    expect(keys).not.toContain(sha256(orphan));
  });
});

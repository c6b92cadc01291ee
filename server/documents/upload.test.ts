import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import { Readable } from "node:stream";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentVersion, SubmissionDocumentsResponse } from "../../common/documents.js";
import type { DocumentItem } from "../../common/workflow.js";
import { createStorage } from "../files/create-storage.js";
import { parseStorageUrl } from "../files/storage.js";
import { startClamd, EICAR_SIGNATURE } from "../../testing/clamd.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import {
  EICAR,
  eicarPdf,
  encryptedPdf,
  pngRenamedAsPdf,
  truncatedPdf,
  validPdf,
  writeLargePdf,
} from "../../testing/pdf-fixtures.js";
import {
  STORAGE_BACKENDS,
  createDocumentsTestApp,
  multipartBody,
  saveThesisDetailsFor,
  stagingFiles,
  startStore,
  storedKeys,
  uploadDocumentFile,
  type DocumentsTestApp,
  type TestStore,
} from "../../testing/uploads.js";
import { createTestDatabase } from "../../testing/test-app.js";
import { receiveDocument } from "../files/upload.js";

const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let clamd: { url: string; stop(): Promise<void> };
/** The address of a clamd that was started and then stopped: nothing answers there now. */
let stoppedClamdUrl: string;

beforeAll(async () => {
  clamd = await startClamd();
  const stopped = await startClamd();
  stoppedClamdUrl = stopped.url;
  await stopped.stop();
});
afterAll(async () => {
  await clamd?.stop();
});

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(STORAGE_BACKENDS)("uploads stored on %s", (backend) => {
  let store: TestStore;
  let t: DocumentsTestApp;
  let largeThesis: Buffer;

  beforeAll(async () => {
    store = await startStore(backend);
    // Forms are limited to 1 MB here, so a too-large file stays small; the thesis keeps 100 MB.
    t = await createDocumentsTestApp(store.url, {
      CLAMD_URL: clamd.url,
      ETS_MAX_FORM_MB: "1",
      RATE_LIMIT_UPLOADS: "1000",
    });
    const file = path.join(t.stagingDir, "..", `large-${path.basename(t.stagingDir)}.pdf`);
    await writeLargePdf(file, 1.5 * MB);
    largeThesis = fs.readFileSync(file);
    fs.rmSync(file);
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  let port: number | null = null;
  /** The app on a real HTTP port, for the tests that need a socket of their own. */
  async function listening(): Promise<number> {
    if (port === null) {
      port = Number(new URL(await t.app.listen({ port: 0, host: "127.0.0.1" })).port);
    }
    return port;
  }

  let count = 0;
  /** A submission and its signed-in student, fresh for each test. */
  async function studentWithSubmission(): Promise<{ student: TestUser; indexNumber: string }> {
    count += 1;
    const indexNumber = `${backend === "file" ? 71 : 72}${String(count).padStart(6, "0")}`;
    await makeSubmission(t.db, { indexNumber });
    const student = await createUser(t.db, "student", { indexNumber });
    return { student, indexNumber };
  }

  async function documentsOf(student: TestUser, indexNumber: string) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${indexNumber}/documents`,
      headers: student.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as SubmissionDocumentsResponse).data;
  }

  async function rowsOf(indexNumber: string) {
    return t.db
      .selectFrom("submission_documents as d")
      .innerJoin("submissions as s", "s.id", "d.submission_id")
      .select(["d.id", "d.item", "d.version", "d.is_current", "d.review_state", "d.sha256"])
      .where("s.index_number", "=", indexNumber)
      .orderBy("d.id")
      .execute();
  }

  it("accepts a valid PDF: 201 with the version, one row, the bytes stored under their SHA-256 and an upload event", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const pdf = validPdf({ pages: 3 });
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "turnitinReport",
      "turnitin.pdf",
      pdf,
    );
    expect(res.statusCode).toBe(201);
    const version = (res.json() as { data: DocumentVersion }).data;
    expect(version).toMatchObject({
      item: "turnitinReport",
      version: 1,
      fileName: "turnitin.pdf",
      sizeBytes: pdf.length,
      pageCount: 3,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
      reviewState: "pending",
      reviewedAt: null,
      returnReason: null,
      href: `/api/documents/${version.id}/file`,
    });

    const rows = await rowsOf(indexNumber);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: version.id, sha256: sha256(pdf), is_current: 1 });
    expect(await t.storage.exists(sha256(pdf))).toBe(true);

    const events = await t.db
      .selectFrom("submission_events as e")
      .innerJoin("submissions as s", "s.id", "e.submission_id")
      .select(["e.field", "e.kind", "e.from_value", "e.to_value", "e.actor_user_id"])
      .where("s.index_number", "=", indexNumber)
      .execute();
    expect(events).toEqual([
      {
        field: "upload.turnitinReport",
        kind: "upload",
        from_value: null,
        to_value: "turnitin.pdf",
        actor_user_id: student.id,
      },
    ]);

    const documents = await documentsOf(student, indexNumber);
    const slot = documents.items.find((i) => i.item === "turnitinReport");
    expect(slot).toMatchObject({ state: "with_school", canUpload: true, paperCopy: false });
    expect(slot?.current?.id).toBe(version.id);
    expect(stagingFiles(t.stagingDir)).toEqual([]);
  });

  it("accepts a PDF with JavaScript or an embedded file and flags it for the reviewer", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const scripted = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "supervisorForm",
      "form.pdf",
      validPdf({ javaScript: true }),
    );
    expect(scripted.statusCode).toBe(201);
    expect(scripted.json()).toMatchObject({
      data: { hasJavaScript: true, hasEmbeddedFiles: false },
    });
    const attached = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "statementOfResult",
      "results.pdf",
      validPdf({ embeddedFile: true }),
    );
    expect(attached.statusCode).toBe(201);
    expect(attached.json()).toMatchObject({
      data: { hasJavaScript: false, hasEmbeddedFiles: true },
    });
  });

  it("accepts a thesis over the forms' limit: each item has its own", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    await saveThesisDetailsFor(t.app, student.headers, indexNumber);
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "thesis",
      "thesis.pdf",
      largeThesis,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ data: { sizeBytes: largeThesis.length, pageCount: 1 } });
    expect(await t.storage.exists(sha256(largeThesis))).toBe(true);
  });

  const refused: {
    what: string;
    fileName: string;
    item: DocumentItem;
    bytes: () => Buffer;
    status: number;
    code: string;
    reason: string;
    message: RegExp;
  }[] = [
    {
      what: "an empty file",
      fileName: "empty.pdf",
      item: "supervisorForm",
      bytes: () => Buffer.alloc(0),
      status: 400,
      code: "validation",
      reason: "empty",
      message: /^empty\.pdf is empty\. /,
    },
    {
      what: "a PNG renamed .pdf",
      fileName: "scan.pdf",
      item: "financialClearance",
      bytes: pngRenamedAsPdf,
      status: 400,
      code: "validation",
      reason: "not_pdf",
      message: /^scan\.pdf is not a PDF\. Save or export it as a PDF/,
    },
    {
      what: "a password-protected PDF",
      fileName: "thesis-final.pdf",
      item: "turnitinReport",
      bytes: encryptedPdf,
      status: 400,
      code: "validation",
      reason: "encrypted",
      message:
        /^thesis-final\.pdf is protected by a password\. Save it again without a password and upload it\.$/,
    },
    {
      what: "a truncated PDF",
      fileName: "report.pdf",
      item: "turnitinReport",
      bytes: truncatedPdf,
      status: 400,
      code: "validation",
      reason: "corrupt",
      message:
        /^report\.pdf could not be opened as a PDF: it may be damaged or incomplete\. Export it again and upload it\.$/,
    },
    {
      what: "a form over its limit",
      fileName: "big-form.pdf",
      item: "supervisorForm",
      bytes: () => Buffer.concat([validPdf(), Buffer.alloc(1.5 * MB, 0x20)]),
      status: 413,
      code: "payload_too_large",
      reason: "too_large",
      message: /^big-form\.pdf is larger than 1 MB, the limit for the Supervisor form\. /,
    },
  ];

  it.each(refused.map((r) => [r.what, r] as const))(
    "refuses %s, naming the file, and keeps nothing",
    async (_what, r) => {
      const { student, indexNumber } = await studentWithSubmission();
      const before = await storedKeys(t.storage);
      const res = await uploadDocumentFile(
        t.app,
        student.headers,
        indexNumber,
        r.item,
        r.fileName,
        r.bytes(),
      );
      expect(res.statusCode).toBe(r.status);
      const body = res.json() as { code: string; reason: string; message: string };
      expect(body).toMatchObject({ success: false, code: r.code, reason: r.reason });
      expect(body.message).toMatch(r.message);
      expect(await rowsOf(indexNumber)).toEqual([]);
      expect(await storedKeys(t.storage)).toEqual(before);
      expect(stagingFiles(t.stagingDir)).toEqual([]);
    },
  );

  it("refuses a file carrying a virus, audits it and never stores it", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const before = await storedKeys(t.storage);
    const infected = eicarPdf();
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "statementOfResult",
      "results.pdf",
      infected,
    );
    expect(res.statusCode).toBe(400);
    const body = res.json() as { reason: string; message: string };
    expect(body.reason).toBe("infected");
    expect(body.message).toMatch(/^results\.pdf contains a virus \(.+\) and was not accepted\. /);
    expect(body.message).toContain(EICAR_SIGNATURE);

    expect(await rowsOf(indexNumber)).toEqual([]);
    expect(await storedKeys(t.storage)).toEqual(before);
    expect(await t.storage.exists(sha256(infected))).toBe(false);
    expect(stagingFiles(t.stagingDir)).toEqual([]);

    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "upload.infected")
      .where("actor_user_id", "=", student.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.subject).toBe(student.email);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({
      indexNumber,
      item: "statementOfResult",
      fileName: "results.pdf",
      sha256: sha256(infected),
    });
    expect(JSON.parse(audit[0]?.details ?? "{}").signature).toContain(EICAR_SIGNATURE);
  });

  /** The upload.infected rows of one student. */
  const infectedAudits = (userId: number) =>
    t.db
      .selectFrom("audit_log")
      .select("details")
      .where("event", "=", "upload.infected")
      .where("actor_user_id", "=", userId)
      .execute();

  it.each([
    ["malware renamed .pdf", "invoice.pdf", () => Buffer.from(`${EICAR}\r\n`, "latin1"), "not_pdf"],
    [
      "malware behind a PDF header, with no PDF behind it",
      "statement.pdf",
      () => Buffer.from(`%PDF-1.7\n${EICAR}\n`, "latin1"),
      "corrupt",
    ],
  ] as const)(
    "refuses %s for what it is before scanning it, and records no infection",
    async (_what, fileName, bytes, reason) => {
      const { student, indexNumber } = await studentWithSubmission();
      const before = await storedKeys(t.storage);
      const res = await uploadDocumentFile(
        t.app,
        student.headers,
        indexNumber,
        "statementOfResult",
        fileName,
        bytes(),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "validation", reason });
      expect(await infectedAudits(student.id)).toEqual([]);
      expect(await storedKeys(t.storage)).toEqual(before);
      expect(stagingFiles(t.stagingDir)).toEqual([]);
    },
  );

  it("refuses with 503 and stores nothing when clamd cannot be reached", async () => {
    const down = await createDocumentsTestApp(store.url, { CLAMD_URL: stoppedClamdUrl });
    try {
      await makeSubmission(down.db, { indexNumber: "79000001" });
      const student = await createUser(down.db, "student", { indexNumber: "79000001" });
      const before = await storedKeys(down.storage);
      const pdf = validPdf({ pages: 4 });
      const res = await uploadDocumentFile(
        down.app,
        student.headers,
        "79000001",
        "turnitinReport",
        "turnitin.pdf",
        pdf,
      );
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        code: "unavailable",
        reason: "scanner_unavailable",
        message:
          "We could not check turnitin.pdf for viruses just now. Nothing was saved. Please try again in a few minutes.",
      });
      expect(await storedKeys(down.storage)).toEqual(before);
      expect(await down.storage.exists(sha256(pdf))).toBe(false);
      expect(await down.db.selectFrom("submission_documents").selectAll().execute()).toEqual([]);
      expect(stagingFiles(down.stagingDir)).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it("keeps every version: a second upload is version 2 and the unreviewed first is superseded", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const first = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "supervisorForm",
      "form-v1.pdf",
      validPdf({ pages: 1 }),
    );
    const second = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "supervisorForm",
      "form-v2.pdf",
      validPdf({ pages: 2 }),
    );
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const v1 = (first.json() as { data: DocumentVersion }).data;
    const v2 = (second.json() as { data: DocumentVersion }).data;
    expect(v2.version).toBe(2);

    const slot = (await documentsOf(student, indexNumber)).items.find(
      (i) => i.item === "supervisorForm",
    );
    expect(slot?.state).toBe("with_school");
    expect(slot?.current).toMatchObject({ id: v2.id, version: 2, fileName: "form-v2.pdf" });
    expect(slot?.earlier).toEqual([{ ...v1, reviewState: "superseded" }]);
    expect(
      (await rowsOf(indexNumber)).map((r) => [r.version, r.is_current, r.review_state]),
    ).toEqual([
      [1, 0, "superseded"],
      [2, 1, "pending"],
    ]);
  });

  it("numbers simultaneous uploads of one item one after the other, with one current", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const results = await Promise.all(
      [1, 2, 3, 4].map((pages) =>
        uploadDocumentFile(
          t.app,
          student.headers,
          indexNumber,
          "statementOfResult",
          `result-${pages}.pdf`,
          validPdf({ pages: pages + 20 }),
        ),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const rows = await rowsOf(indexNumber);
    expect(rows.map((r) => r.version).sort()).toEqual([1, 2, 3, 4]);
    expect(rows.filter((r) => r.is_current === 1)).toHaveLength(1);
    expect(rows.find((r) => r.is_current === 1)?.version).toBe(4);
    expect(rows.filter((r) => r.review_state === "superseded")).toHaveLength(3);
  });

  it("keeps a returned version returned when the student uploads the next one", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const first = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "financialClearance",
      "clearance.pdf",
      validPdf({ pages: 1 }),
    );
    const v1 = (first.json() as { data: DocumentVersion }).data;
    // The school's return, written as the review would write it.
    await t.db
      .updateTable("submission_documents")
      .set({
        review_state: "returned",
        reviewed_at: "2025-03-12T10:00:00.000Z",
        return_reason: "The stamp is missing.",
      })
      .where("id", "=", v1.id)
      .execute();
    const returned = (await documentsOf(student, indexNumber)).items.find(
      (i) => i.item === "financialClearance",
    );
    expect(returned).toMatchObject({
      state: "returned",
      canUpload: true,
      current: { id: v1.id, returnReason: "The stamp is missing." },
    });

    const again = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "financialClearance",
      "clearance-stamped.pdf",
      validPdf({ pages: 2 }),
    );
    expect(again.statusCode).toBe(201);
    const slot = (await documentsOf(student, indexNumber)).items.find(
      (i) => i.item === "financialClearance",
    );
    expect(slot?.state).toBe("with_school");
    expect(slot?.current?.version).toBe(2);
    expect(slot?.earlier.map((v) => [v.version, v.reviewState, v.returnReason])).toEqual([
      [1, "returned", "The stamp is missing."],
    ]);
  });

  it("asks for the thesis title and abstract before the thesis", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const before = await storedKeys(t.storage);
    const early = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "thesis",
      "thesis.pdf",
      validPdf({ pages: 5 }),
    );
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      code: "validation",
      reason: "details_missing",
      fields: [
        { field: "title", message: "is required before the thesis is uploaded" },
        { field: "abstract", message: "is required before the thesis is uploaded" },
      ],
    });
    expect((early.json() as { message: string }).message).toMatch(
      /^thesis\.pdf was not uploaded: /,
    );
    expect(await storedKeys(t.storage)).toEqual(before);

    expect((await saveThesisDetailsFor(t.app, student.headers, indexNumber)).statusCode).toBe(200);
    const later = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "thesis",
      "thesis.pdf",
      validPdf({ pages: 5 }),
    );
    expect(later.statusCode).toBe(201);
    expect(later.json()).toMatchObject({ data: { item: "thesis", pageCount: 5 } });
  });

  it("refuses a new version of an accepted item with 409, a paper copy included", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    // A paper copy recorded by an administrator: the checklist flag without any upload.
    await t.db
      .updateTable("submissions")
      .set({ supervisor_form_submitted: 1, supervisor_form_received_on: "2025-02-03" })
      .where("index_number", "=", indexNumber)
      .execute();
    const slot = (await documentsOf(student, indexNumber)).items.find(
      (i) => i.item === "supervisorForm",
    );
    expect(slot).toMatchObject({
      state: "accepted",
      receivedOn: "2025-02-03",
      paperCopy: true,
      canUpload: false,
      current: null,
    });
    const before = await storedKeys(t.storage);
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "supervisorForm",
      "form.pdf",
      validPdf({ pages: 6 }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "conflict", reason: "already_accepted" });
    expect((res.json() as { message: string }).message).toMatch(
      /^form\.pdf was not uploaded: the school has already accepted the Supervisor form\./,
    );
    expect(await rowsOf(indexNumber)).toEqual([]);
    expect(await storedKeys(t.storage)).toEqual(before);
  });

  it("shows an accepted upload as accepted, not as a paper copy", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "turnitinReport",
      "turnitin.pdf",
      validPdf({ pages: 2 }),
    );
    const v1 = (res.json() as { data: DocumentVersion }).data;
    await t.db
      .updateTable("submission_documents")
      .set({ review_state: "accepted", reviewed_at: "2025-04-01T09:00:00.000Z" })
      .where("id", "=", v1.id)
      .execute();
    await t.db
      .updateTable("submissions")
      .set({ turnitin_report_submitted: 1, turnitin_report_received_on: "2025-04-01" })
      .where("index_number", "=", indexNumber)
      .execute();
    const slot = (await documentsOf(student, indexNumber)).items.find(
      (i) => i.item === "turnitinReport",
    );
    expect(slot).toMatchObject({
      state: "accepted",
      receivedOn: "2025-04-01",
      paperCopy: false,
      canUpload: false,
      current: { id: v1.id, reviewState: "accepted" },
    });
  });

  it("serves the PDF inline with headers that keep it from running as a page", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const pdf = validPdf({ pages: 7 });
    const res = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "statementOfResult",
      "Résultat final (2025).pdf",
      pdf,
    );
    const version = (res.json() as { data: DocumentVersion }).data;
    expect(version.fileName).toBe("Résultat final (2025).pdf");

    const inline = await t.app.inject({
      method: "GET",
      url: version.href,
      headers: student.headers,
    });
    expect(inline.statusCode).toBe(200);
    expect(inline.rawPayload.equals(pdf)).toBe(true);
    expect(inline.headers["content-type"]).toBe("application/pdf");
    expect(inline.headers["content-length"]).toBe(String(pdf.length));
    expect(inline.headers["x-content-type-options"]).toBe("nosniff");
    expect(inline.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(inline.headers["cache-control"]).toBe("private, no-store");
    expect(inline.headers["content-disposition"]).toBe(
      "inline; filename=\"R_sultat final (2025).pdf\"; filename*=UTF-8''R%C3%A9sultat%20final%20%282025%29.pdf",
    );

    const download = await t.app.inject({
      method: "GET",
      url: `${version.href}?download=1`,
      headers: student.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="R_sultat/);
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });

  it("keeps only the file's own name for display, never a path", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const body = multipartBody([
      {
        name: "file",
        fileName: "..\\..\\secret\\../etc/\u0007report\u202e.pdf",
        contentType: "application/pdf",
        content: validPdf({ pages: 8 }),
      },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/submissions/${indexNumber}/documents/turnitinReport`,
      headers: { ...student.headers, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ data: { fileName: "report.pdf" } });
  });

  it("asks for the file when the form carries none", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const body = multipartBody([{ name: "note", content: "no file here" }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/submissions/${indexNumber}/documents/turnitinReport`,
      headers: { ...student.headers, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "validation",
      fields: [{ field: "file", message: "Attach the PDF as a form upload named file." }],
    });
    const json = await t.app.inject({
      method: "POST",
      url: `/api/submissions/${indexNumber}/documents/turnitinReport`,
      headers: student.headers,
      payload: { file: "not a file" },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ fields: [{ field: "file" }] });
  });

  it("answers 413 while a too-large upload is still arriving, and closes the connection", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const before = await storedKeys(t.storage);
    const body = multipartBody([
      {
        name: "file",
        fileName: "huge-form.pdf",
        contentType: "application/pdf",
        content: Buffer.concat([validPdf(), Buffer.alloc(5 * MB, 0x20)]),
      },
    ]);
    const socket = net.connect({ port: await listening(), host: "127.0.0.1" });
    socket.on("error", () => {});
    let response = "";
    socket.on("data", (data: Buffer) => {
      response += data.toString("latin1");
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(
      [
        `POST /api/submissions/${indexNumber}/documents/supervisorForm HTTP/1.1`,
        `Host: 127.0.0.1`,
        `Origin: ${student.headers.origin}`,
        `Cookie: ${student.headers.cookie}`,
        `Content-Type: ${body.contentType}`,
        `Content-Length: ${body.payload.length}`,
        "",
        "",
      ].join("\r\n"),
    );
    // Only 1.5 MB of the 5 MB ever goes out: the answer must not wait for the rest.
    socket.write(body.payload.subarray(0, 1.5 * MB));
    await Promise.race([
      closed,
      new Promise((_resolve, reject) =>
        setTimeout(() => reject(new Error("the server waited for the rest of the body")), 15_000),
      ),
    ]);
    const [head = "", json = ""] = response.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(json)).toMatchObject({ code: "payload_too_large", reason: "too_large" });
    await waitFor(() => stagingFiles(t.stagingDir).length === 0, "the staging file to go");
    expect(await rowsOf(indexNumber)).toEqual([]);
    expect(await storedKeys(t.storage)).toEqual(before);
  });

  it("leaves no staging file and no row when the client disconnects halfway", async () => {
    const { student, indexNumber } = await studentWithSubmission();
    const before = await storedKeys(t.storage);
    const body = multipartBody([
      {
        name: "file",
        fileName: "cut-off.pdf",
        contentType: "application/pdf",
        content: Buffer.concat([validPdf({ pages: 9 }), Buffer.alloc(600 * 1024, 0x20)]),
      },
    ]);
    const port = await listening();
    const socket = net.connect({ port, host: "127.0.0.1" });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    socket.on("error", () => {});
    const head = [
      `POST /api/submissions/${indexNumber}/documents/thesis HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: ${student.headers.origin}`,
      `Cookie: ${student.headers.cookie}`,
      `Content-Type: ${body.contentType}`,
      `Content-Length: ${body.payload.length}`,
      "",
      "",
    ].join("\r\n");
    // The thesis needs its details, so the upload gets as far as streaming the file.
    await saveThesisDetailsFor(t.app, student.headers, indexNumber);
    socket.write(head);
    socket.write(body.payload.subarray(0, Math.floor(body.payload.length / 2)));
    await waitFor(() => stagingFiles(t.stagingDir).length > 0, "the upload to reach staging");
    socket.destroy();

    await waitFor(() => stagingFiles(t.stagingDir).length === 0, "the staging file to go");
    expect(await rowsOf(indexNumber)).toEqual([]);
    expect(await storedKeys(t.storage)).toEqual(before);
    // The server carries on: the same upload, sent whole, goes through.
    const whole = await uploadDocumentFile(
      t.app,
      student.headers,
      indexNumber,
      "thesis",
      "whole.pdf",
      validPdf({ pages: 9 }),
    );
    expect(whole.statusCode).toBe(201);
  });
});

describe("a file store that fails", () => {
  it("refuses with 503, names the file, logs the cause and leaves no row and no staging file", async () => {
    const s3 = await startStore("s3");
    const lines: string[] = [];
    const down = await createDocumentsTestApp(
      s3.url,
      { LOG_LEVEL: "error" },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      await makeSubmission(down.db, { indexNumber: "79100001" });
      const student = await createUser(down.db, "student", { indexNumber: "79100001" });
      // The S3 server goes away after the app started: every put now fails.
      await s3.stop();
      const res = await uploadDocumentFile(
        down.app,
        student.headers,
        "79100001",
        "supervisorForm",
        "supervisor.pdf",
        validPdf(),
      );
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        code: "unavailable",
        reason: "storage_unavailable",
        message:
          "We could not store supervisor.pdf just now. Nothing was saved. Please try again in a few minutes.",
      });
      expect(await down.db.selectFrom("submission_documents").selectAll().execute()).toEqual([]);
      expect(stagingFiles(down.stagingDir)).toEqual([]);
      expect(lines.some((line) => line.includes("the file store refused an upload"))).toBe(true);
    } finally {
      await down.close();
      await s3.stop();
    }
  });
});

describe("upload staging", () => {
  it("leaves no staging file when a file is refused before its staging file is even open", async () => {
    const stagingDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-staging-race-"));
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-files-race-"));
    const storage = createStorage(parseStorageUrl(`file:${root}`), { stagingDir });
    const database = await createTestDatabase();
    try {
      for (let attempt = 0; attempt < 50; attempt++) {
        const refusal = await receiveDocument({
          db: database.db,
          // Every chunk passes the limit, so the stream fails at once, racing the file's opening.
          source: new Readable({
            read() {
              this.push(Buffer.alloc(64 * 1024, 0x25));
            },
          }),
          fileName: "big.pdf",
          item: "turnitinReport",
          maxBytes: 1024,
          storage,
          scanner: null,
          onInfected: async () => undefined,
        }).catch((error: unknown) => error);
        expect(refusal).toMatchObject({ statusCode: 413, details: { reason: "too_large" } });
        expect(stagingFiles(stagingDir)).toEqual([]);
      }
    } finally {
      await storage.close();
      await database.drop();
      fs.rmSync(stagingDir, { recursive: true, force: true });
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("writes under the store's staging folder with a name of its own, never the client's", async () => {
    const store = await startStore("file");
    const t = await createDocumentsTestApp(store.url);
    try {
      await makeSubmission(t.db, { indexNumber: "79500001" });
      const student = await createUser(t.db, "student", { indexNumber: "79500001" });
      // A file name that would escape the staging folder if it were ever used as a path.
      const escape = path.join(os.tmpdir(), `escaped-${path.basename(t.stagingDir)}.pdf`);
      const res = await uploadDocumentFile(
        t.app,
        student.headers,
        "79500001",
        "turnitinReport",
        `../../../..${escape}`,
        validPdf({ pages: 10 }),
      );
      expect(res.statusCode).toBe(201);
      expect(fs.existsSync(escape)).toBe(false);
      expect(stagingFiles(t.stagingDir)).toEqual([]);
    } finally {
      await t.close();
      await store.stop();
    }
  });
});

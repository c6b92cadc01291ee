import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentVersion } from "../../common/documents.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { validPdf } from "../../testing/pdf-fixtures.js";
import {
  STORAGE_BACKENDS,
  createDocumentsTestApp,
  saveThesisDetailsFor,
  startStore,
  storedKeys,
  uploadDocumentFile,
  type DocumentsTestApp,
  type TestStore,
} from "../../testing/uploads.js";

/**
 * Who may read and write documents: the submission's own student and administrators, nobody
 * else; ids of other students' files answer exactly as ids that do not exist.
 */
describe.each(STORAGE_BACKENDS)("document access, stored on %s", (backend) => {
  let store: TestStore;
  let t: DocumentsTestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  const ownIndex = backend === "file" ? "81000001" : "82000001";
  const otherIndex = backend === "file" ? "81000002" : "82000002";
  const ownFiles = new Map<number, Buffer>();

  beforeAll(async () => {
    store = await startStore(backend);
    t = await createDocumentsTestApp(store.url);
    await makeSubmission(t.db, { indexNumber: ownIndex });
    await makeSubmission(t.db, { indexNumber: otherIndex });
    owner = await createUser(t.db, "student", { indexNumber: ownIndex });
    other = await createUser(t.db, "student", { indexNumber: otherIndex });
    admin = await createUser(t.db, "admin");
    await saveThesisDetailsFor(t.app, owner.headers, ownIndex);
    const uploads = [
      ["thesis", validPdf({ pages: 2 })],
      ["thesis", validPdf({ pages: 3 })],
      ["turnitinReport", validPdf({ pages: 4 })],
      ["financialClearance", validPdf({ pages: 5, javaScript: true })],
    ] as const;
    for (const [item, bytes] of uploads) {
      const res = await uploadDocumentFile(t.app, owner.headers, ownIndex, item, "mine.pdf", bytes);
      expect(res.statusCode).toBe(201);
      ownFiles.set((res.json() as { data: DocumentVersion }).data.id, bytes);
    }
    // The other student's own upload, so "another student" is one with files of their own.
    const theirs = await uploadDocumentFile(
      t.app,
      other.headers,
      otherIndex,
      "supervisorForm",
      "theirs.pdf",
      validPdf({ pages: 6 }),
    );
    expect(theirs.statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  async function allDocumentIds(): Promise<number[]> {
    const rows = await t.db.selectFrom("submission_documents").select("id").orderBy("id").execute();
    return rows.map((r) => r.id);
  }

  it("answers 401 to anonymous requests on every document route", async () => {
    const calls = [
      { method: "GET" as const, url: `/api/submissions/${ownIndex}/documents` },
      {
        method: "PUT" as const,
        url: `/api/submissions/${ownIndex}/thesis`,
        payload: { title: "T", abstract: "A" },
      },
      ...(await allDocumentIds()).map((id) => ({
        method: "GET" as const,
        url: `/api/documents/${id}/file`,
      })),
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: { origin: "http://localhost:3000" } });
      expect(res.statusCode, call.url).toBe(401);
      expect(res.json()).toMatchObject({ code: "unauthorized" });
    }
    const before = await storedKeys(t.storage);
    const upload = await uploadDocumentFile(
      t.app,
      { origin: "http://localhost:3000" },
      ownIndex,
      "supervisorForm",
      "anon.pdf",
      validPdf({ pages: 11 }),
    );
    expect(upload.statusCode).toBe(401);
    expect(await storedKeys(t.storage)).toEqual(before);
  });

  it("gives another student 404 for every existing document id, the answer a missing id gets", async () => {
    const ids = await allDocumentIds();
    const missing = await t.app.inject({
      method: "GET",
      url: `/api/documents/${Math.max(...ids) + 1000}/file`,
      headers: other.headers,
    });
    expect(missing.statusCode).toBe(404);
    const otherOwn = await t.db
      .selectFrom("submission_documents as d")
      .innerJoin("submissions as s", "s.id", "d.submission_id")
      .select("d.id")
      .where("s.index_number", "=", otherIndex)
      .execute();
    const notTheirs = ids.filter((id) => !otherOwn.some((row) => row.id === id));
    expect(notTheirs.length).toBe(ownFiles.size);
    for (const id of notTheirs) {
      for (const headers of [other.headers, other.bearer]) {
        for (const query of ["", "?download=1"]) {
          const res = await t.app.inject({
            method: "GET",
            url: `/api/documents/${id}/file${query}`,
            headers,
          });
          expect(res.statusCode, `document ${id}${query}`).toBe(404);
          expect(res.json()).toEqual(missing.json());
          expect(res.headers["content-disposition"]).toBeUndefined();
        }
      }
    }
  });

  it("lets the owner and an administrator read every version, by cookie or bearer token", async () => {
    for (const [id, bytes] of ownFiles) {
      for (const headers of [owner.headers, owner.bearer, admin.headers, admin.bearer]) {
        const res = await t.app.inject({
          method: "GET",
          url: `/api/documents/${id}/file`,
          headers,
        });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(bytes)).toBe(true);
      }
    }
  });

  it("refuses another student's documents list and thesis details with 403 before any lookup", async () => {
    const status = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${ownIndex}/documents`,
      headers: other.headers,
    });
    const submission = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${ownIndex}`,
      headers: other.headers,
    });
    expect(status.statusCode).toBe(403);
    expect(status.json()).toEqual(submission.json());
    // An index number nobody has gets the same answer: nothing is learnt by asking.
    const nobody = await t.app.inject({
      method: "GET",
      url: "/api/submissions/89999999/documents",
      headers: other.headers,
    });
    expect(nobody.statusCode).toBe(403);
    expect(nobody.json()).toEqual(status.json());

    const thesis = await saveThesisDetailsFor(t.app, other.headers, ownIndex, {
      title: "Not mine",
      abstract: "Not mine either",
    });
    expect(thesis.statusCode).toBe(403);
    const row = await t.db
      .selectFrom("submissions")
      .select("thesis_title")
      .where("index_number", "=", ownIndex)
      .executeTakeFirstOrThrow();
    expect(row.thesis_title).not.toBe("Not mine");
  });

  it("refuses an upload to another student's index number with 403 and stores nothing", async () => {
    const before = await storedKeys(t.storage);
    const res = await uploadDocumentFile(
      t.app,
      other.headers,
      ownIndex,
      "supervisorForm",
      "sneaky.pdf",
      validPdf({ pages: 12 }),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "forbidden" });
    expect(await storedKeys(t.storage)).toEqual(before);
    const rows = await t.db
      .selectFrom("submission_documents")
      .select("id")
      .where("file_name", "=", "sneaky.pdf")
      .execute();
    expect(rows).toEqual([]);
  });

  it("lets an administrator read any submission's documents and save its thesis details, not upload", async () => {
    const list = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${ownIndex}/documents`,
      headers: admin.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ data: { indexNumber: ownIndex } });

    const thesis = await saveThesisDetailsFor(t.app, admin.headers, otherIndex, {
      title: "Entered by the school",
      abstract: "From the paper copy.",
    });
    expect(thesis.statusCode).toBe(200);

    const before = await storedKeys(t.storage);
    const upload = await uploadDocumentFile(
      t.app,
      admin.headers,
      ownIndex,
      "supervisorForm",
      "by-admin.pdf",
      validPdf({ pages: 13 }),
    );
    expect(upload.statusCode).toBe(403);
    expect((upload.json() as { message: string }).message).toMatch(
      /^Students upload their own documents\./,
    );
    expect(await storedKeys(t.storage)).toEqual(before);
  });

  it("answers 404 for a student's own index number without a submission", async () => {
    const lone = await createUser(t.db, "student", { indexNumber: "88888888" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions/88888888/documents",
      headers: lone.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "not_found" });
  });
});

describe("upload rate limit", () => {
  let store: TestStore;
  let t: DocumentsTestApp;

  beforeAll(async () => {
    store = await startStore("file");
    t = await createDocumentsTestApp(store.url, { RATE_LIMIT_UPLOADS: "2" });
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  it("answers 429 to an account's third upload within the hour; another account still uploads", async () => {
    await makeSubmission(t.db, { indexNumber: "83000001" });
    await makeSubmission(t.db, { indexNumber: "83000002" });
    const busy = await createUser(t.db, "student", { indexNumber: "83000001" });
    const calm = await createUser(t.db, "student", { indexNumber: "83000002" });
    const send = (user: TestUser, indexNumber: string, pages: number) =>
      uploadDocumentFile(
        t.app,
        user.headers,
        indexNumber,
        "turnitinReport",
        "report.pdf",
        validPdf({ pages }),
      );
    expect((await send(busy, "83000001", 1)).statusCode).toBe(201);
    expect((await send(busy, "83000001", 2)).statusCode).toBe(201);
    const third = await send(busy, "83000001", 3);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ success: false, code: "rate_limited" });
    expect((third.json() as { message: string }).message).toMatch(
      /^Too many requests\. Please wait/,
    );
    expect((await send(calm, "83000002", 4)).statusCode).toBe(201);
  });
});

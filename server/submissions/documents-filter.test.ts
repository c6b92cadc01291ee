import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments } from "../../common/submission.js";
import { DOCUMENTS, type DocumentItem } from "../../common/workflow.js";
import { addDocumentVersion } from "../../testing/documents.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * The list's documents filter, its count chip and the dashboard's document figures, all read
 * from the uploaded versions (only each item's current one) and the checklist flags.
 */

let t: TestApp;
let admin: TestUser;
let student: TestUser;
let storageRoot: string;

const received = () => {
  const documents = emptyDocuments();
  for (const item of DOCUMENTS) documents[item] = { submitted: true, receivedOn: "2025-01-02" };
  return documents;
};

async function upload(
  submissionId: number,
  item: DocumentItem,
  reviewState?: "accepted" | "returned",
) {
  await addDocumentVersion(
    { db: t.db, storage: t.app.storage },
    { submissionId, item, uploadedBy: student.id, ...(reviewState ? { reviewState } : {}) },
  );
}

beforeAll(async () => {
  storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ets-doc-filter-"));
  t = await createTestApp({ STORAGE_URL: `file:${storageRoot}` });
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student");

  // Every item received on paper, nothing uploaded.
  await makeSubmission(t.db, { studentName: "A Complete", documents: received() });
  // Two uploads waiting for review.
  const waitingTwo = await makeSubmission(t.db, { studentName: "B Waiting Two" });
  await upload(waitingTwo.id, "thesis");
  await upload(waitingTwo.id, "turnitinReport");
  // The report returned; everything else received, the thesis through an accepted upload.
  const returned = await makeSubmission(t.db, {
    studentName: "C Returned",
    documents: { ...received(), turnitinReport: { submitted: false, receivedOn: null } },
  });
  await upload(returned.id, "thesis", "accepted");
  await upload(returned.id, "turnitinReport", "returned");
  // Returned once, then a new version waits: only the current version counts.
  const uploadedAgain = await makeSubmission(t.db, { studentName: "D Uploaded Again" });
  await upload(uploadedAgain.id, "thesis", "returned");
  await upload(uploadedAgain.id, "thesis");
  // Waiting once, then replaced by a version since returned.
  const replaced = await makeSubmission(t.db, { studentName: "E Replaced Then Returned" });
  await upload(replaced.id, "supervisorForm");
  await upload(replaced.id, "supervisorForm", "returned");
  await upload(replaced.id, "financialClearance", "returned");
  // Nothing at all.
  await makeSubmission(t.db, { studentName: "F Nothing" });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(storageRoot, { recursive: true, force: true });
});

async function list(query: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/submissions?sort=name&${query}`,
    headers: admin.bearer,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    items: { id: number; studentName: string; documentsToReview: number }[];
    total: number;
  };
}
const names = async (query: string) => (await list(query)).items.map((i) => i.studentName);

describe("the list's documents filter", () => {
  it("finds submissions with any checklist item missing", async () => {
    expect(await names("documents=missing")).toEqual([
      "B Waiting Two",
      "C Returned",
      "D Uploaded Again",
      "E Replaced Then Returned",
      "F Nothing",
    ]);
  });

  it("finds submissions whose current version of some item waits for review", async () => {
    expect(await names("documents=waiting")).toEqual(["B Waiting Two", "D Uploaded Again"]);
  });

  it("finds submissions whose current version of some item was returned", async () => {
    expect(await names("documents=returned")).toEqual(["C Returned", "E Replaced Then Returned"]);
  });

  it("combines with the search and the other filters, and counts the total alike", async () => {
    const found = await list("documents=waiting&q=again");
    expect(found.items.map((i) => i.studentName)).toEqual(["D Uploaded Again"]);
    expect(found.total).toBe(1);
    expect(await names("documents=returned&missingDocument=financialClearance")).toEqual([
      "E Replaced Then Returned",
    ]);
    expect((await list("documents=missing&pageSize=2")).total).toBe(5);
  });

  it("refuses a value it does not know, naming the field", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions?documents=lost",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe("documents");
  });

  it("is shared by the export", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/export?documents=returned&format=csv",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("C Returned");
    expect(lines[2]).toContain("E Replaced Then Returned");
  });
});

describe("the count chip", () => {
  it("counts each submission's current versions waiting for review", async () => {
    const { items } = await list("pageSize=100");
    expect(Object.fromEntries(items.map((i) => [i.studentName, i.documentsToReview]))).toEqual({
      "A Complete": 0,
      "B Waiting Two": 2,
      "C Returned": 0,
      "D Uploaded Again": 1,
      "E Replaced Then Returned": 0,
      "F Nothing": 0,
    });
  });

  it("is the same on the single record and after an edit, as in the list", async () => {
    const { items } = await list("q=B%20Waiting%20Two");
    const id = items[0]?.id;
    const read = await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${id}`,
      headers: admin.bearer,
    });
    expect(read.json().data.documentsToReview).toBe(2);
    const edited = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${id}`,
      headers: admin.bearer,
      payload: { version: read.json().data.version, changes: { contact: "0244 000 000" } },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.documentsToReview).toBe(2);
    const stale = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${id}`,
      headers: admin.bearer,
      payload: { version: read.json().data.version, changes: { contact: "0244 111 111" } },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.documentsToReview).toBe(2);
  });
});

describe("the dashboard's document figures", () => {
  it("count submissions with a current version waiting, and with one returned", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ documentsWaiting: 2, documentsReturned: 2 });
  });
});

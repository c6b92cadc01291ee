import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import { DOCUMENTS } from "../../common/workflow.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";

let t: TestApp;
let admin: TestUser;

const allDocuments = () => {
  const documents = emptyDocuments();
  for (const item of DOCUMENTS) documents[item] = { submitted: true, receivedOn: null };
  return documents;
};

const ROWS: Partial<SubmissionFields>[] = [
  {
    studentName: "Abena Mensah",
    indexNumber: "10234567",
    programme: "MPhil Economics",
    sgsStage: "sent_to_department",
    documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: null } },
  },
  {
    studentName: "Kwabena Boateng",
    indexNumber: "20111111",
    programme: "MSc Computer Science",
    sgsStage: "sent_to_examiners",
    internalExaminer: "received",
    externalExaminer: "awaiting",
    documents: allDocuments(),
  },
  {
    studentName: "Yaa Asantewaa",
    indexNumber: "15222222",
    programme: "MPhil Economics",
    thesisStatus: "Initial Submission",
  },
  { studentName: "Percent%Name", indexNumber: "17333333", programme: "MBA Finance" },
  { studentName: "Under_Score", indexNumber: "17444444", programme: "MBA Finance" },
  {
    studentName: "Ama Owusu",
    indexNumber: "18555555",
    programme: "MSc Computer Science",
    sgsStage: "sent_to_examiners",
    internalExaminer: "report_submitted",
    documents: allDocuments(),
  },
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  for (const [position, row] of ROWS.entries()) {
    await makeSubmission(t.db, row, `2025-0${position + 1}-01T00:00:00.000Z`);
  }
});
afterAll(async () => {
  await t.close();
});

async function list(query: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/submissions?${query}`,
    headers: admin.bearer,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    items: { studentName: string; indexNumber: string; sgsStage: string | null }[];
    total: number;
    totalCapped: boolean;
    page: number;
    pageSize: number;
  };
}

const names = async (query: string) => (await list(query)).items.map((i) => i.studentName);
const search = async (q: string) =>
  (await names(`q=${encodeURIComponent(q)}&sort=name`)).slice().sort();

describe("GET /api/submissions: search", () => {
  it("matches a substring of the name, ignoring case", async () => {
    expect(await search("aBEn")).toEqual(["Abena Mensah", "Kwabena Boateng"]);
    expect(await search("MENSAH")).toEqual(["Abena Mensah"]);
  });

  it("matches a substring of the index number", async () => {
    expect(await search("10234")).toEqual(["Abena Mensah"]);
    expect(await search("234")).toEqual(["Abena Mensah"]);
    expect(await search("1744")).toEqual(["Under_Score"]);
  });

  it("finds terms shorter than three characters without the trigram index", async () => {
    expect(await search("ab")).toEqual(["Abena Mensah", "Kwabena Boateng"]);
    expect(await search("Q")).toEqual([]);
    expect(await search("4")).toEqual(["Abena Mensah", "Under_Score"]);
  });

  it("takes % and _ in a term literally", async () => {
    expect(await search("%")).toEqual(["Percent%Name"]);
    expect(await search("_")).toEqual(["Under_Score"]);
    expect(await search("t%N")).toEqual(["Percent%Name"]);
    expect(await search("r_S")).toEqual(["Under_Score"]);
    expect(await search("a%")).toEqual([]);
  });

  it("treats quotes and other query syntax as plain text", async () => {
    expect(await search('"')).toEqual([]);
    expect(await search('Abena" OR "Yaa')).toEqual([]);
    expect(await search("Mensah*")).toEqual([]);
    // Control characters are dropped, so no term can span the name and the index number.
    expect(await search("Men\u001fsah")).toEqual(["Abena Mensah"]);
  });

  it("ignores surrounding spaces and an empty term", async () => {
    expect(await search("  Mensah ")).toEqual(["Abena Mensah"]);
    expect((await list("q=")).total).toBe(ROWS.length);
  });

  it("follows renames: the search index is kept in step with the table", async () => {
    const created = await makeSubmission(t.db, { studentName: "Temporary Zuzu" });
    expect(await search("zuzu")).toEqual(["Temporary Zuzu"]);
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${created.id}`,
      headers: admin.headers,
      payload: { version: created.version, changes: { studentName: "Renamed Quix" } },
    });
    expect(res.statusCode).toBe(200);
    expect(await search("zuzu")).toEqual([]);
    expect(await search("quix")).toEqual(["Renamed Quix"]);
    await t.db.deleteFrom("submissions").where("id", "=", created.id).execute();
    expect(await search("quix")).toEqual([]);
  });
});

describe("GET /api/submissions: filters", () => {
  it("filters by programme", async () => {
    expect(await names("programme=MBA%20Finance&sort=name")).toEqual([
      "Percent%Name",
      "Under_Score",
    ]);
  });

  it("filters by SGS stage, with none for submissions not yet staged", async () => {
    expect(await names("sgsStage=sent_to_examiners&sort=name")).toEqual([
      "Ama Owusu",
      "Kwabena Boateng",
    ]);
    expect(await names("sgsStage=none&sort=name")).toEqual([
      "Percent%Name",
      "Under_Score",
      "Yaa Asantewaa",
    ]);
  });

  it("filters by examiner states", async () => {
    expect(await names("internalExaminer=received")).toEqual(["Kwabena Boateng"]);
    expect(await names("externalExaminer=awaiting")).toEqual(["Kwabena Boateng"]);
    expect(await names("sgsStage=sent_to_examiners&externalExaminer=none")).toEqual(["Ama Owusu"]);
  });

  it("filters by thesis status and by a missing document", async () => {
    expect(await names("thesisStatus=Initial%20Submission")).toEqual(["Yaa Asantewaa"]);
    expect(await names("missingDocument=financialClearance&sort=name")).toEqual([
      "Abena Mensah",
      "Percent%Name",
      "Under_Score",
      "Yaa Asantewaa",
    ]);
    expect(await names("missingDocument=thesis&sort=name")).toEqual([
      "Percent%Name",
      "Under_Score",
      "Yaa Asantewaa",
    ]);
  });

  it("combines a search with filters", async () => {
    expect(await names("q=ben&sgsStage=sent_to_department")).toEqual(["Abena Mensah"]);
  });

  it("refuses unknown filter values", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions?sgsStage=archived",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: "validation" });
  });
});

describe("GET /api/submissions: sort and pages", () => {
  it("sorts by name, index number and dates, both ways", async () => {
    expect(await names("sort=name&order=asc")).toEqual([
      "Abena Mensah",
      "Ama Owusu",
      "Kwabena Boateng",
      "Percent%Name",
      "Under_Score",
      "Yaa Asantewaa",
    ]);
    expect((await list("sort=indexNumber&order=desc")).items.map((i) => i.indexNumber)).toEqual([
      "20111111",
      "18555555",
      "17444444",
      "17333333",
      "15222222",
      "10234567",
    ]);
    expect(await names("sort=createdAt&order=desc&pageSize=2")).toEqual([
      "Ama Owusu",
      "Under_Score",
    ]);
    expect(await names("sort=programme&order=asc&pageSize=2")).toEqual([
      "Percent%Name",
      "Under_Score",
    ]);
  });

  it("pages through the list without overlap and reports the total", async () => {
    const first = await list("sort=name&page=1&pageSize=4");
    const second = await list("sort=name&page=2&pageSize=4");
    // Six match: far under LIST_TOTAL_CAP, so the total is exact (list-scale.test.ts tests the cap).
    expect(first).toMatchObject({ total: 6, totalCapped: false, page: 1, pageSize: 4 });
    expect(first.items).toHaveLength(4);
    expect(second.items.map((i) => i.studentName)).toEqual(["Under_Score", "Yaa Asantewaa"]);
    expect((await list("page=3&pageSize=4")).items).toEqual([]);
  });

  it("caps the page size at 100", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions?pageSize=101",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(400);
    expect((await list("pageSize=100")).pageSize).toBe(100);
  });

  it("gives each item what the details panel needs", async () => {
    const { items } = await list("q=Kwabena");
    expect(items[0]).toMatchObject({
      studentName: "Kwabena Boateng",
      indexNumber: "20111111",
      programme: "MSc Computer Science",
      sgsStage: "sent_to_examiners",
      internalExaminer: "received",
      externalExaminer: "awaiting",
      version: 1,
      documents: { thesis: { submitted: true, receivedOn: null } },
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ABSTRACT_LENGTH, MAX_TITLE_LENGTH } from "../../common/documents.js";
import { emptyDocuments } from "../../common/submission.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { saveThesisDetailsFor } from "../../testing/uploads.js";

let t: TestApp;
let student: TestUser;
let admin: TestUser;
const indexNumber = "84000001";

beforeAll(async () => {
  t = await createTestApp();
  await makeSubmission(t.db, { indexNumber });
  student = await createUser(t.db, "student", { indexNumber });
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

async function submissionRow() {
  return t.db
    .selectFrom("submissions")
    .select(["thesis_title", "thesis_abstract", "version", "updated_at"])
    .where("index_number", "=", indexNumber)
    .executeTakeFirstOrThrow();
}

async function titleEvents() {
  return t.db
    .selectFrom("submission_events as e")
    .innerJoin("submissions as s", "s.id", "e.submission_id")
    .select(["e.field", "e.kind", "e.from_value", "e.to_value", "e.actor_user_id"])
    .where("s.index_number", "=", indexNumber)
    .orderBy("e.id")
    .execute();
}

describe("the thesis title and abstract", () => {
  it("saves both, trimmed, without touching the record's version, and shows them with the documents", async () => {
    const before = await submissionRow();
    const res = await saveThesisDetailsFor(t.app, student.headers, indexNumber, {
      title: "  Rainfall and maize yields  ",
      abstract: " Twenty years of rainfall. ",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { title: "Rainfall and maize yields", abstract: "Twenty years of rainfall." },
    });
    const after = await submissionRow();
    expect(after).toEqual({
      thesis_title: "Rainfall and maize yields",
      thesis_abstract: "Twenty years of rainfall.",
      version: before.version,
      updated_at: before.updated_at,
    });
    const documents = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${indexNumber}/documents`,
      headers: student.headers,
    });
    expect(documents.json()).toMatchObject({
      data: {
        indexNumber,
        thesis: { title: "Rainfall and maize yields", abstract: "Twenty years of rainfall." },
      },
    });
    expect(await titleEvents()).toEqual([
      {
        field: "thesisTitle",
        kind: "edit",
        from_value: null,
        to_value: "Rainfall and maize yields",
        actor_user_id: student.id,
      },
    ]);
  });

  it("records an event only when the title changes", async () => {
    const count = (await titleEvents()).length;
    await saveThesisDetailsFor(t.app, student.headers, indexNumber, {
      title: "Rainfall and maize yields",
      abstract: "A better abstract.",
    });
    expect(await titleEvents()).toHaveLength(count);
    await saveThesisDetailsFor(t.app, admin.headers, indexNumber, {
      title: "Rainfall, drought and maize yields",
      abstract: "A better abstract.",
    });
    const events = await titleEvents();
    expect(events).toHaveLength(count + 1);
    expect(events.at(-1)).toEqual({
      field: "thesisTitle",
      kind: "edit",
      from_value: "Rainfall and maize yields",
      to_value: "Rainfall, drought and maize yields",
      actor_user_id: admin.id,
    });
    expect((await submissionRow()).thesis_abstract).toBe("A better abstract.");
  });

  it.each([
    ["an empty title", { title: "   ", abstract: "x" }, "title", "is required"],
    ["a missing abstract", { title: "x" }, "abstract", undefined],
    [
      "a title that is too long",
      { title: "x".repeat(MAX_TITLE_LENGTH + 1), abstract: "x" },
      "title",
      `must be at most ${MAX_TITLE_LENGTH} characters`,
    ],
    [
      "an abstract that is too long",
      { title: "x", abstract: "x".repeat(MAX_ABSTRACT_LENGTH + 1) },
      "abstract",
      `must be at most ${MAX_ABSTRACT_LENGTH} characters`,
    ],
  ])(
    "refuses %s, naming the field, and keeps what was saved",
    async (_what, payload, field, message) => {
      const before = await submissionRow();
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/submissions/${indexNumber}/thesis`,
        headers: student.headers,
        payload,
      });
      expect(res.statusCode).toBe(400);
      const body = res.json() as { code: string; fields: { field: string; message: string }[] };
      expect(body.code).toBe("validation");
      expect(body.fields[0]?.field).toBe(field);
      if (message) expect(body.fields[0]?.message).toBe(message);
      expect(await submissionRow()).toEqual(before);
    },
  );

  it("is the school's to change once the thesis is accepted", async () => {
    const accepted = "84000009";
    await makeSubmission(t.db, {
      indexNumber: accepted,
      documents: {
        ...emptyDocuments(),
        thesis: { submitted: true, receivedOn: "2026-03-02" },
      },
    });
    const owner = await createUser(t.db, "student", { indexNumber: accepted });
    const refused = await saveThesisDetailsFor(t.app, owner.headers, accepted, {
      title: "A new title",
      abstract: "A new abstract.",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain("can no longer be changed here");
    const byAdmin = await saveThesisDetailsFor(t.app, admin.headers, accepted, {
      title: "Corrected by the school",
      abstract: "As accepted.",
    });
    expect(byAdmin.statusCode).toBe(200);
    const row = await t.db
      .selectFrom("submissions")
      .select("thesis_title")
      .where("index_number", "=", accepted)
      .executeTakeFirstOrThrow();
    expect(row.thesis_title).toBe("Corrected by the school");
  });

  it("refuses a field the form does not have", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/submissions/${indexNumber}/thesis`,
      headers: student.headers,
      payload: { title: "x", abstract: "y", version: 9 },
    });
    expect(res.statusCode).toBe(400);
  });
});

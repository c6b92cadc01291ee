import { DOMParser } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../testing/factories.js";
import { publishThesis } from "../../testing/published-records.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { OAI_NAMESPACE } from "./oai-protocol.js";

/**
 * Issue 20, follow-up: an administrator's edit of what a published record shows (the student's
 * name, the programme, the title, the abstract) moves the publication's datestamp (migration
 * 024's trigger), so a selective OAI-PMH harvest from the edit's time returns the record.
 */

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

/** The OAI-PMH `from` for "now", to the second, as harvesters send it. */
function harvestFrom(): string {
  return `${new Date(Date.now() - 1000).toISOString().slice(0, 19)}Z`;
}

async function harvest(from: string, verb = "ListRecords") {
  const res = await t.app.inject({
    method: "GET",
    url: `/oai?verb=${verb}&metadataPrefix=oai_dc&from=${from}`,
  });
  expect(res.statusCode).toBe(200);
  const doc = new DOMParser().parseFromString(res.body, "text/xml") as unknown as Document;
  const texts = (ns: string, name: string) =>
    Array.from(doc.getElementsByTagNameNS(ns, name)).map((e) => e.textContent ?? "");
  return {
    identifiers: texts(OAI_NAMESPACE, "identifier"),
    creators: texts("http://purl.org/dc/elements/1.1/", "creator"),
    errors: Array.from(doc.getElementsByTagNameNS(OAI_NAMESPACE, "error")).map((e) =>
      e.getAttribute("code"),
    ),
  };
}

async function edit(submissionId: number, changes: Record<string, string>) {
  const read = await t.app.inject({
    method: "GET",
    url: `/api/admin/submissions/${submissionId}`,
    headers: admin.headers,
  });
  expect(read.statusCode).toBe(200);
  const res = await t.app.inject({
    method: "PATCH",
    url: `/api/admin/submissions/${submissionId}`,
    headers: admin.headers,
    payload: { version: read.json().data.version, changes },
  });
  expect(res.statusCode).toBe(200);
}

async function datestampOf(submissionId: number): Promise<string> {
  const row = await t.db
    .selectFrom("publications")
    .select("datestamp")
    .where("submission_id", "=", submissionId)
    .executeTakeFirstOrThrow();
  return row.datestamp;
}

const target = () => ({ db: t.db, storage: t.app.storage });

describe("a published record's datestamp", () => {
  it("moves when an administrator corrects the student's name, so a harvest from the edit's time returns it", async () => {
    const thesis = await publishThesis(target(), { studentName: "Ama Mensa" });
    const from = harvestFrom();
    // Published in August: a harvest from now has nothing new.
    expect((await harvest(from)).errors).toEqual(["noRecordsMatch"]);

    await edit(thesis.submissionId, { studentName: "Ama Mensah" });

    const after = await harvest(from);
    expect(after.identifiers).toEqual([`oai:localhost:${thesis.submissionId}`]);
    expect(after.creators).toEqual(["Ama Mensah"]);
    expect(await datestampOf(thesis.submissionId)).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
  });

  it("moves when the programme changes, and not for a field the record does not show", async () => {
    const thesis = await publishThesis(target());
    const published = await datestampOf(thesis.submissionId);

    await edit(thesis.submissionId, { contact: "0244 123 456" });
    expect(await datestampOf(thesis.submissionId)).toBe(published);

    const from = harvestFrom();
    await edit(thesis.submissionId, { programme: "MPhil Geology" });
    expect(await datestampOf(thesis.submissionId)).not.toBe(published);
    expect((await harvest(from, "ListIdentifiers")).identifiers).toContain(
      `oai:localhost:${thesis.submissionId}`,
    );
  });

  it("stays unset for a thesis not yet published: its datestamp moves when it is published", async () => {
    const draft = await publishThesis(target(), { unpublished: true });
    const before = await datestampOf(draft.submissionId);
    await edit(draft.submissionId, { studentName: "Kwame Asante" });
    expect(await datestampOf(draft.submissionId)).toBe(before);
  });
});

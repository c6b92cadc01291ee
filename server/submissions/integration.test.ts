import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiTokenScope } from "../../common/api-tokens.js";
import { addSubmission, SITE, signedInAdmin, signedInStudent } from "../../testing/accounts.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { IDEMPOTENCY_KEY_TTL_MS, sweepIdempotencyKeys } from "./idempotency.js";

/**
 * What the university's systems do with API tokens (issue 21): the finance office's clearance and
 * the registrar's idempotent upsert by index number.
 */

let t: TestApp;
let admin: string;
let finance: string;
let registrar: string;

async function createToken(name: string, scopes: ApiTokenScope[]): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/api-tokens",
    headers: { ...SITE, cookie: admin },
    payload: { name, scopes, expiresInDays: 30 },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ token: string }>().token;
}

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_SIGN_IN: "10000",
    RATE_LIMIT_SIGN_UP: "10000",
    RATE_LIMIT_API_TOKEN: "100000",
  });
  admin = await signedInAdmin(t.app, "boss@school.edu");
  finance = await createToken("Finance office ERP", ["clearance:write"]);
  registrar = await createToken("Registrar SIS", ["submissions:write"]);
});
afterAll(async () => {
  await t.close();
});

function clearance(indexNumber: string, body: object, token = finance) {
  return t.app.inject({
    method: "PUT",
    url: `/api/admin/submissions/${indexNumber}/financial-clearance`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
}

describe("Financial Clearance from the finance office", () => {
  it("marks the item, says which system and when on both checklists, and tells the student", async () => {
    const id = await addSubmission(t.db, "FC-0001", { studentName: "Ama Mensah" });
    const student = await signedInStudent(t.app, "ama@st.school.edu", "FC-0001");
    const res = await clearance("FC-0001", { cleared: true, clearedOn: "2026-11-20" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.financialClearance).toMatchObject({
      submitted: true,
      receivedOn: "2026-11-20",
      clearedBy: { system: "Finance office ERP" },
    });

    const adminView = await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${id}`,
      headers: { cookie: admin },
    });
    expect(adminView.json().data.documents.financialClearance).toEqual({
      submitted: true,
      receivedOn: "2026-11-20",
    });
    expect(adminView.json().data.financialClearanceBy.system).toBe("Finance office ERP");
    expect(adminView.json().data.financialClearanceBy.at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const studentView = await t.app.inject({
      method: "GET",
      url: "/api/submissions/FC-0001",
      headers: { cookie: student },
    });
    const item = studentView
      .json<{ data: { documents: { item: string; clearedBy?: { system: string } }[] } }>()
      .data.documents.find((d) => d.item === "financialClearance");
    expect(item?.clearedBy?.system).toBe("Finance office ERP");

    const messages = await t.db
      .selectFrom("messages")
      .select(["title", "body"])
      .where("submission_id", "=", id)
      .execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]?.body).toContain("Finance office ERP");
    const mails = await t.db
      .selectFrom("outbox")
      .select("subject")
      .where("to_address", "=", "ama@st.school.edu")
      .where("subject", "like", "%Financial Clearance%")
      .execute();
    expect(mails).toHaveLength(1);
    const events = await t.db
      .selectFrom("submission_events")
      .select(["field", "to_value"])
      .where("submission_id", "=", id)
      .execute();
    expect(events).toEqual([{ field: "documents.financialClearance", to_value: "2026-11-20" }]);
  });

  it("changes nothing and tells nobody again when the same clearance is sent twice", async () => {
    const id = await addSubmission(t.db, "FC-0002");
    expect(
      (await clearance("FC-0002", { cleared: true, clearedOn: "2026-11-21" })).statusCode,
    ).toBe(200);
    expect(
      (await clearance("FC-0002", { cleared: true, clearedOn: "2026-11-21" })).statusCode,
    ).toBe(200);
    const messages = await t.db
      .selectFrom("messages")
      .select("id")
      .where("submission_id", "=", id)
      .execute();
    expect(messages).toHaveLength(1);
  });

  it("withdraws a clearance, and the checklist no longer names a system", async () => {
    const id = await addSubmission(t.db, "FC-0003");
    await clearance("FC-0003", { cleared: true });
    const res = await clearance("FC-0003", { cleared: false });
    expect(res.json().data.financialClearance).toEqual({
      submitted: false,
      receivedOn: null,
      clearedBy: null,
    });
    const row = await t.db
      .selectFrom("submissions")
      .select(["financial_clearance_by", "financial_clearance_submitted"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ financial_clearance_by: null, financial_clearance_submitted: 0 });
  });

  it("forgets which system cleared it once the registrar's upsert unmarks the item", async () => {
    const id = await addSubmission(t.db, "FC-0004", { studentName: "Kofi Boateng" });
    await clearance("FC-0004", { cleared: true, clearedOn: "2026-11-03" });
    const row = {
      StudentName: "Kofi Boateng",
      IndexNumber: "FC-0004",
      Programme: "MPhil Economics",
    };
    const unmark = await upsert("fc-unmark", [{ ...row, "Financial Clearance": "" }]);
    expect(unmark.json()).toMatchObject({ updated: 1 });
    const remark = await upsert("fc-remark", [{ ...row, "Financial Clearance": "2026-11-04" }]);
    expect(remark.json()).toMatchObject({ updated: 1 });
    const stored = await t.db
      .selectFrom("submissions")
      .select(["financial_clearance_by", "financial_clearance_received_on"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      financial_clearance_by: null,
      financial_clearance_received_on: "2026-11-04",
    });
  });

  it("answers 404 for an unknown index number, 400 naming a wrong date, 403 to a person", async () => {
    const missing = await clearance("NO-9999", { cleared: true });
    expect(missing.statusCode).toBe(404);
    const badDate = await clearance("FC-0001", { cleared: true, clearedOn: "2026-02-30" });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().fields[0].field).toBe("clearedOn");
    const person = await t.app.inject({
      method: "PUT",
      url: "/api/admin/submissions/FC-0001/financial-clearance",
      headers: { ...SITE, cookie: admin },
      payload: { cleared: true },
    });
    expect(person.statusCode).toBe(403);
    expect(person.json().message).toMatch(/API token/);
  });
});

function upsert(key: string | null, records: object[], token = registrar) {
  return t.app.inject({
    method: "POST",
    url: "/api/admin/submissions/upsert",
    headers: {
      authorization: `Bearer ${token}`,
      ...(key === null ? {} : { "idempotency-key": key }),
    },
    payload: { records },
  });
}

const countSubmissions = async (prefix: string) =>
  (
    await t.db
      .selectFrom("submissions")
      .select("id")
      .where("index_number", "like", `${prefix}%`)
      .execute()
  ).length;

describe("the registrar's upsert", () => {
  const records = [
    { StudentName: "Kofi Mensah", IndexNumber: "RG-0001", Programme: "MPhil Economics" },
    {
      StudentName: "Ama Owusu",
      IndexNumber: "RG-0002",
      Programme: "MSc Statistics",
      SGSAdmin: null,
    },
  ];

  it("inserts new index numbers and updates known ones, all in one go", async () => {
    await addSubmission(t.db, "RG-0002", { studentName: "A. Owusu" });
    const res = await upsert("batch-1", records);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
    const renamed = await t.db
      .selectFrom("submissions")
      .select("student_name")
      .where("index_number", "=", "RG-0002")
      .executeTakeFirstOrThrow();
    expect(renamed.student_name).toBe("Ama Owusu");
  });

  it("answers a repeated key and body with the first answer, changing nothing again", async () => {
    const before = await t.db.selectFrom("submission_events").select("id").execute();
    const again = await upsert("batch-1", records);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const after = await t.db.selectFrom("submission_events").select("id").execute();
    expect(after.length).toBe(before.length);
    // A new key with the same body is a new request: now nothing changes.
    const fresh = await upsert("batch-2", records);
    expect(fresh.json()).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it("refuses the same key with a different body (409), changing nothing", async () => {
    const res = await upsert("batch-1", [
      { StudentName: "Kofi Mensah", IndexNumber: "RG-0003", Programme: "MPhil Economics" },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Idempotency-Key was used before with a different body/);
    expect(await countSubmissions("RG-0003")).toBe(0);
  });

  it("keeps keys apart per token", async () => {
    const other = await createToken("Registrar SIS (second)", ["submissions:write"]);
    const res = await upsert(
      "batch-1",
      [{ StudentName: "Yaw Boateng", IndexNumber: "RG-0004", Programme: "MA History" }],
      other,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().inserted).toBe(1);
  });

  it("writes nothing when one record is wrong, lists the problem, and replays that answer", async () => {
    const bad = [
      { StudentName: "Kwame Asante", IndexNumber: "RG-0010", Programme: "MSc Physics" },
      {
        StudentName: "Efua Mensah",
        IndexNumber: "RG-0011",
        Programme: "MSc Physics",
        SGSAdmin: "Somewhere",
      },
      {
        StudentName: "Kofi Ansah",
        IndexNumber: "RG-0012",
        Programme: "MSc Physics",
        Colour: "blue",
      },
    ];
    const res = await upsert("bad-batch", bad);
    expect(res.statusCode).toBe(400);
    const errors = res.json<{ errors: { row: number; column: string }[] }>().errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 2, column: "SGSAdmin" }),
        expect.objectContaining({ row: 3, column: "Colour" }),
      ]),
    );
    expect(await countSubmissions("RG-001")).toBe(0);
    const again = await upsert("bad-batch", bad);
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(res.body);
  });

  it("lists records that are not objects as problems of their own, capped like the rest", async () => {
    const res = await upsert("not-objects", [1, "two", null, ["x"]] as unknown as object[]);
    expect(res.statusCode).toBe(400);
    const errors = res.json<{ errors: { row: number; reason: string }[] }>().errors;
    expect(errors.map((e) => e.row)).toEqual([1, 2, 3, 4]);
    expect(errors[0]?.reason).toMatch(/must be an object/);
  });

  it("needs an Idempotency-Key, naming the header", async () => {
    const res = await upsert(null, records);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/idempotency-key/);
  });

  it("caps the problems it lists", async () => {
    const many = Array.from({ length: 700 }, (_, i) => ({
      StudentName: "Ama Mensah",
      IndexNumber: `RG-${String(2000 + i)}`,
      Programme: "",
    }));
    const res = await upsert("many-wrong", many);
    expect(res.statusCode).toBe(400);
    const errors = res.json<{ errors: unknown[] }>().errors;
    expect(errors.length).toBe(501);
    expect(await countSubmissions("RG-2")).toBe(0);
  });

  it("lets housekeeping remove keys past their time, after which the key is free again", async () => {
    const later = new Date(Date.now() + IDEMPOTENCY_KEY_TTL_MS + 1000);
    expect(await sweepIdempotencyKeys(t.db, later)).toBeGreaterThan(0);
    const left = await t.db.selectFrom("idempotency_keys").select("key").execute();
    expect(left).toEqual([]);
    const res = await upsert("batch-1", [
      { StudentName: "Kofi Mensah", IndexNumber: "RG-0005", Programme: "MPhil Economics" },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().inserted).toBe(1);
  });

  it("is refused to a person's session: keys belong to a system's token", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/submissions/upsert",
      headers: { ...SITE, cookie: admin, "idempotency-key": "x" },
      payload: { records },
    });
    expect(res.statusCode).toBe(403);
  });
});

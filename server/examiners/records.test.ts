import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExaminerListResponse, ExaminerRecord } from "../../common/examiners.js";
import { createExaminer, readyToSend } from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let t: TestApp;
let admin: TestUser;
let student: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student", { indexNumber: "10000001" });
});
afterAll(async () => {
  await t.close();
});

const list = (query: string, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: "GET", url: `/api/admin/examiners${query}`, headers });
const create = (payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/examiners",
    headers,
    payload: payload as object,
  });
const change = (id: number, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({
    method: "PATCH",
    url: `/api/admin/examiners/${id}`,
    headers,
    payload: payload as object,
  });
const auditOf = (event: string) =>
  t.db.selectFrom("audit_log").selectAll().where("event", "=", event).orderBy("id").execute();

describe("POST /api/admin/examiners", () => {
  it("adds an examiner with the email in lower case, answers 201 and audits it", async () => {
    const res = await create({
      name: "Prof. Kwame Boateng",
      email: "K.Boateng@Legon.EDU.gh",
      institution: "University of Ghana",
      kind: "internal",
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: ExaminerRecord }>();
    expect(data).toMatchObject({
      name: "Prof. Kwame Boateng",
      email: "k.boateng@legon.edu.gh",
      institution: "University of Ghana",
      kind: "internal",
      active: true,
      openExaminations: 0,
    });
    const audit = await auditOf("examiner.created");
    expect(audit.at(-1)).toMatchObject({
      actor_user_id: admin.id,
      subject: "k.boateng@legon.edu.gh",
    });
  });

  it("refuses an email already on the list with 409 naming the email", async () => {
    await create({ name: "A", email: "dup@uni.test", institution: "U", kind: "external" });
    const res = await create({
      name: "B",
      email: "DUP@uni.test",
      institution: "V",
      kind: "external",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain("dup@uni.test");
  });

  it("names each invalid field and why", async () => {
    const res = await create({
      name: " ",
      email: "not-an-email",
      institution: "",
      kind: "visiting",
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ fields: { field: string; message: string }[] }>();
    const fields = body.fields.map((f) => f.field).sort();
    expect(fields).toEqual(["email", "institution", "kind", "name"]);
    expect(body.fields.find((f) => f.field === "email")?.message).toMatch(/email/);
    expect(body.fields.find((f) => f.field === "name")?.message).toMatch(/required/);
  });

  it("refuses fields it does not know", async () => {
    const res = await create({
      name: "X",
      email: "x@uni.test",
      institution: "U",
      kind: "internal",
      active: false,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe("PATCH /api/admin/examiners/:id", () => {
  it("changes the fields given, keeps the others, and audits the change", async () => {
    const examiner = await createExaminer(t.db, { name: "Dr Old Name", kind: "external" });
    const res = await change(examiner.id, { name: "Dr New Name", active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: ExaminerRecord }>().data).toMatchObject({
      name: "Dr New Name",
      email: examiner.email,
      kind: "external",
      active: false,
    });
    const audit = await auditOf("examiner.updated");
    expect(JSON.parse(audit.at(-1)?.details ?? "{}")).toMatchObject({
      examinerId: examiner.id,
      changed: "name,active",
    });
  });

  it("refuses another examiner's email with 409 naming it", async () => {
    const one = await createExaminer(t.db, { email: "one@uni.test" });
    const two = await createExaminer(t.db, { email: "two@uni.test" });
    const res = await change(two.id, { email: "ONE@uni.test" });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain("one@uni.test");
    expect(one.id).not.toBe(two.id);
  });

  it("refuses to change the kind of an examiner holding an open examination", async () => {
    const ready = await readyToSend(t, { admin });
    const res = await change(ready.internal.id, { kind: "external" });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/open examination/);
  });

  it("answers 404 for an examiner that does not exist", async () => {
    const res = await change(999999, { name: "Nobody" });
    expect(res.statusCode).toBe(404);
  });
});

describe("GET /api/admin/examiners", () => {
  it("searches name, email and institution ignoring case, with kind and active filters, paged", async () => {
    await createExaminer(t.db, {
      name: "Dr Ábena Search-Target",
      email: "abena@kumasi.test",
      institution: "KNUST Kumasi",
      kind: "external",
    });
    await createExaminer(t.db, {
      name: "Dr Yaw Other",
      email: "yaw.searchtarget@other.test",
      institution: "Cape Coast",
      kind: "internal",
    });
    await createExaminer(t.db, {
      name: "Dr Inactive Searchtarget",
      email: "inactive@uni.test",
      institution: "Legon",
      kind: "internal",
      active: false,
    });

    const byName = await list("?q=SEARCH-TARGET");
    expect(byName.json<ExaminerListResponse>().items.map((e) => e.name)).toEqual([
      "Dr Ábena Search-Target",
    ]);
    const byAny = await list("?q=searchtarget");
    expect(byAny.json<ExaminerListResponse>().items.map((e) => e.name)).toEqual(["Dr Yaw Other"]);
    const inactive = await list("?q=searchtarget&active=false");
    expect(inactive.json<ExaminerListResponse>().items.map((e) => e.name)).toEqual([
      "Dr Inactive Searchtarget",
    ]);
    const all = await list("?q=searchtarget&active=all&kind=internal");
    expect(all.json<ExaminerListResponse>().total).toBe(2);
    const byInstitution = await list("?q=kumasi");
    expect(byInstitution.json<ExaminerListResponse>().items).toHaveLength(1);
    // The user's % and _ are taken literally.
    const literal = await list("?q=%25");
    expect(literal.json<ExaminerListResponse>().total).toBe(0);
  });

  it("pages the list by name with its total", async () => {
    for (let i = 0; i < 5; i += 1) {
      await createExaminer(t.db, { name: `Pager ${i}`, institution: "Paging University" });
    }
    const first = (await list("?q=paging university&pageSize=2")).json<ExaminerListResponse>();
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.items.map((e) => e.name)).toEqual(["Pager 0", "Pager 1"]);
    const third = (
      await list("?q=paging university&pageSize=2&page=3")
    ).json<ExaminerListResponse>();
    expect(third.items.map((e) => e.name)).toEqual(["Pager 4"]);
  });

  it("counts each examiner's open examinations", async () => {
    const ready = await readyToSend(t, { admin });
    const res = await list(`?q=${encodeURIComponent(ready.internal.email)}`);
    expect(res.json<ExaminerListResponse>().items[0]?.openExaminations).toBe(1);
  });

  it("refuses a page size past the limit", async () => {
    const res = await list("?pageSize=1000");
    expect(res.statusCode).toBe(400);
  });
});

describe("access", () => {
  it("answers 401 without a session and 403 for a student on every examiner-list route", async () => {
    const examiner = await createExaminer(t.db);
    const calls = [
      (h: Record<string, string>) => list("", h),
      (h: Record<string, string>) =>
        create({ name: "N", email: "n@uni.test", institution: "U", kind: "internal" }, h),
      (h: Record<string, string>) => change(examiner.id, { name: "Hacked" }, h),
    ];
    for (const call of calls) {
      expect((await call({ origin: "http://localhost:3000" })).statusCode).toBe(401);
      expect((await call(student.headers)).statusCode).toBe(403);
    }
    const unchanged = await t.db
      .selectFrom("examiners")
      .select("name")
      .where("id", "=", examiner.id)
      .executeTakeFirstOrThrow();
    expect(unchanged.name).toBe(examiner.name);
  });
});

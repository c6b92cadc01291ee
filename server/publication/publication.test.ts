import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseOrcid, orcidCheckDigit, addMonths } from "../../common/publication.js";
import { nowIso } from "../db/database.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  GOOD_METADATA,
  createStudent,
  publicationFixture,
  publish,
  send,
  type PublicationFixture,
} from "../../testing/publication.js";
import { readPublishedRecord, setPublicationHandle } from "./repository.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const studentUrl = (f: PublicationFixture) =>
  `/api/submissions/${f.submission.indexNumber}/publication`;
const adminUrl = (f: PublicationFixture) =>
  `/api/admin/submissions/${f.submission.indexNumber}/publication`;

interface ErrorBody {
  code: string;
  message: string;
  fields?: { field: string; message: string }[];
}

function fieldsOf(body: string): string[] {
  return ((JSON.parse(body) as ErrorBody).fields ?? []).map((f) => f.field);
}

describe("ORCID iDs", () => {
  it("accepts iDs whose ISO 7064 11,2 check digit holds, and refuses one digit off", () => {
    expect(orcidCheckDigit("000000021825009")).toBe("7");
    expect(normaliseOrcid("0000-0002-1825-0097")).toBe("0000-0002-1825-0097");
    expect(normaliseOrcid("https://orcid.org/0000-0001-5109-3700")).toBe("0000-0001-5109-3700");
    expect(normaliseOrcid("0000-0002-1694-233x")).toBe("0000-0002-1694-233X");
    expect(normaliseOrcid("0000-0002-1825-0098")).toBeNull();
    expect(normaliseOrcid("0000-0002-1825-009")).toBeNull();
  });

  it("counts embargo months from a day, landing the 31st on a month's last day", () => {
    expect(addMonths("2026-08-31", 6)).toBe("2027-02-28");
    expect(addMonths("2026-07-20", 12)).toBe("2027-07-20");
    expect(addMonths("2027-08-31", 6)).toBe("2028-02-29");
  });
});

describe("the student's metadata", () => {
  let f: PublicationFixture;
  beforeAll(async () => {
    f = await publicationFixture(t);
  });

  const refusals: [string, unknown, string][] = [
    ["no keywords", { ...GOOD_METADATA, keywords: [] }, "keywords"],
    [
      "eleven keywords",
      { ...GOOD_METADATA, keywords: Array.from({ length: 11 }, (_, i) => `k${i}`) },
      "keywords",
    ],
    ["a repeated keyword", { ...GOOD_METADATA, keywords: ["Maize", "maize"] }, "keywords"],
    ["an empty keyword", { ...GOOD_METADATA, keywords: ["  "] }, "keywords.0"],
    ["a keyword too long", { ...GOOD_METADATA, keywords: ["x".repeat(101)] }, "keywords.0"],
    ["a language not on the list", { ...GOOD_METADATA, language: "xyz" }, "language"],
    ["a two-letter language code", { ...GOOD_METADATA, language: "en" }, "language"],
    ["no supervisors", { ...GOOD_METADATA, supervisors: [] }, "supervisors"],
    [
      "a supervisor without a name",
      { ...GOOD_METADATA, supervisors: [{ name: " ", orcid: null }] },
      "supervisors.0.name",
    ],
    [
      "an ORCID iD of the wrong shape",
      { ...GOOD_METADATA, supervisors: [{ name: "Dr. Ama Owusu", orcid: "1234" }] },
      "supervisors.0.orcid",
    ],
    [
      "an ORCID iD whose check digit is wrong",
      { ...GOOD_METADATA, supervisors: [{ name: "Dr. Ama Owusu", orcid: "0000-0002-1825-0098" }] },
      "supervisors.0.orcid",
    ],
    [
      "six supervisors",
      { ...GOOD_METADATA, supervisors: Array.from({ length: 6 }, () => ({ name: "Dr. Kofi" })) },
      "supervisors",
    ],
    [
      "a missing language",
      { keywords: ["maize"], supervisors: GOOD_METADATA.supervisors },
      "language",
    ],
  ];

  it.each(refusals)("refuses %s, naming the field", async (_what, body, field) => {
    const res = await send(t.app, "PUT", studentUrl(f), f.student.headers, body);
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toContain(field);
  });

  it("refuses a bad ORCID iD saying the check digit is wrong", async () => {
    const res = await send(t.app, "PUT", studentUrl(f), f.student.headers, {
      ...GOOD_METADATA,
      supervisors: [{ name: "Dr. Ama Owusu", orcid: "0000-0002-1825-0098" }],
    });
    expect(res.body).toMatch(/check digit/);
  });

  it("saves good metadata, normalising the ORCID iD, and shows it back", async () => {
    const res = await send(t.app, "PUT", studentUrl(f), f.student.headers, {
      ...GOOD_METADATA,
      supervisors: [{ name: "Prof. Kofi Mensah", orcid: "https://orcid.org/0000-0002-1825-0097" }],
    });
    expect(res.statusCode).toBe(200);
    const view = (await send(t.app, "GET", studentUrl(f), f.student.headers)).json<{
      data: { keywords: string[]; language: string; supervisors: { orcid: string | null }[] };
    }>().data;
    expect(view.keywords).toEqual(GOOD_METADATA.keywords);
    expect(view.language).toBe("eng");
    expect(view.supervisors[0]?.orcid).toBe("0000-0002-1825-0097");
  });
});

describe("access", () => {
  it("gives another student 404, an administrator 403 on the student's writes, a student 403 on the school's, and nobody anonymous anything", async () => {
    const f = await publicationFixture(t);
    const other = await createStudent(t.db, "OTHER-0001");
    expect((await send(t.app, "GET", studentUrl(f), other.headers)).statusCode).toBe(404);
    expect((await send(t.app, "PUT", studentUrl(f), other.headers, GOOD_METADATA)).statusCode).toBe(
      404,
    );
    expect(
      (await send(t.app, "PUT", studentUrl(f), f.admin.headers, GOOD_METADATA)).statusCode,
    ).toBe(403);
    expect((await send(t.app, "GET", adminUrl(f), f.student.headers)).statusCode).toBe(403);
    expect(
      (await send(t.app, "POST", `${adminUrl(f)}/withdraw`, f.student.headers, { reason: "x" }))
        .statusCode,
    ).toBe(403);
    expect((await send(t.app, "GET", studentUrl(f), {})).statusCode).toBe(401);
    // Nothing was written by the refused requests.
    const row = await t.db
      .selectFrom("publications")
      .select("keywords")
      .where("submission_id", "=", f.submission.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("refuses a cookie-authenticated write from another origin", async () => {
    const f = await publicationFixture(t);
    const res = await send(
      t.app,
      "PUT",
      studentUrl(f),
      {
        cookie: f.student.headers.cookie ?? "",
        origin: "https://evil.example",
      },
      GOOD_METADATA,
    );
    expect(res.statusCode).toBe(403);
  });
});

describe("the licence", () => {
  it("keeps every version readable, and the student accepts only the current one, audited with who, which, when and where", async () => {
    const f = await publicationFixture(t);
    const created = await send(t.app, "POST", "/api/admin/licence-versions", f.admin.headers, {
      text: "Version two: the university may also convert the format to preserve it.",
    });
    expect(created.statusCode).toBe(201);
    const newVersion = created.json<{ data: { version: number } }>().data.version;
    expect(newVersion).toBe(f.licenceVersion + 1);

    const list = (await send(t.app, "GET", "/api/admin/licence-versions", f.admin.headers)).json<{
      data: { version: number; text: string }[];
      total: number;
    }>();
    expect(list.data.map((v) => v.version).slice(0, 2)).toEqual([newVersion, f.licenceVersion]);
    const old = await send(
      t.app,
      "GET",
      `/api/admin/licence-versions/${f.licenceVersion}`,
      f.admin.headers,
    );
    expect(old.json<{ data: { text: string } }>().data.text).toMatch(/non-exclusive right/);

    const accepted1 = await send(
      t.app,
      "GET",
      `/api/licence/${f.licenceVersion}`,
      f.student.headers,
    );
    expect(accepted1.json<{ data: { text: string } }>().data.text).toMatch(/non-exclusive right/);
    expect((await send(t.app, "GET", "/api/licence/999999", f.student.headers)).statusCode).toBe(
      404,
    );
    expect((await send(t.app, "GET", `/api/licence/${f.licenceVersion}`, {})).statusCode).toBe(401);
    const current = await send(t.app, "GET", "/api/licence", f.student.headers);
    expect(current.json<{ data: { version: number } }>().data.version).toBe(newVersion);

    const stale = await send(t.app, "POST", `${studentUrl(f)}/licence`, f.student.headers, {
      version: f.licenceVersion,
    });
    expect(stale.statusCode).toBe(409);
    expect(fieldsOf(stale.body)).toEqual(["version"]);

    const accepted = await t.app.inject({
      method: "POST",
      url: `${studentUrl(f)}/licence`,
      headers: f.student.headers,
      payload: { version: newVersion },
      remoteAddress: "10.1.2.3",
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<{ data: { licence: { version: number } } }>().data.licence.version).toBe(
      newVersion,
    );
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "publication.licence_accepted")
      .where("subject", "=", f.submission.indexNumber)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_user_id).toBe(f.student.id);
    expect(audit[0]?.ip).toBe("10.1.2.3");
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({ licenceVersion: newVersion });
  });

  it("refuses an empty licence text, naming the field", async () => {
    const f = await publicationFixture(t);
    const res = await send(t.app, "POST", "/api/admin/licence-versions", f.admin.headers, {
      text: "   ",
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toContain("text");
  });
});

describe("the school's review", () => {
  it("refuses each bad field by name, confirmation before the thesis is final, and confirmation with fields missing", async () => {
    const f = await publicationFixture(t, { final: false });
    const bad: [unknown, string][] = [
      [{ awardDate: "2026-02-30" }, "awardDate"],
      [{ examinationDate: "04/05/2026" }, "examinationDate"],
      [{ degreeId: 999999 }, "degreeId"],
      [{ language: "zzz" }, "language"],
      [{ department: "" }, "department"],
      [{ keywords: [] }, "keywords"],
      [{ title: " " }, "title"],
      [{ examinationDate: "2026-06-01", awardDate: "2026-05-01" }, "awardDate"],
      [{ colour: "blue" }, "body"],
    ];
    for (const [body, field] of bad) {
      const res = await send(t.app, "PUT", adminUrl(f), f.admin.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(body)).toContain(field);
    }
    const notFinal = await send(t.app, "PUT", adminUrl(f), f.admin.headers, { confirm: true });
    expect(notFinal.statusCode).toBe(409);

    const g = await publicationFixture(t);
    const missing = await send(t.app, "PUT", adminUrl(g), g.admin.headers, {
      degreeId: g.degreeId,
      confirm: true,
    });
    expect(missing.statusCode).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(
      expect.arrayContaining(["keywords", "language", "department", "supervisors", "awardDate"]),
    );
  });

  it("publishes once every condition holds, then the student's edits stop, the school's go on (moving the datestamp) until a deposit locks the record", async () => {
    const f = await publicationFixture(t);
    await publish(t.app, f, { choice: "none" });
    const record = await readPublishedRecord(t.db, f.submission.id, nowIso());
    expect(record).not.toBeNull();
    expect(record).toMatchObject({
      title: "Rainfall and Maize Yields in the Northern Savannah",
      author: { name: f.submission.studentName },
      keywords: GOOD_METADATA.keywords,
      language: "eng",
      degree: { abbreviation: "MPhil", level: "masters" },
      supervisors: [
        { name: "Prof. Kofi Mensah", orcid: "0000-0002-1825-0097" },
        { name: "Dr. Ama Owusu", orcid: null },
      ],
      awardDate: "2026-07-20",
      embargo: { choice: "none", until: null },
      filesPublic: true,
      file: { fileName: "thesis.pdf", contentType: "application/pdf" },
      handle: null,
      withdrawn: null,
    });

    const studentEdit = await send(t.app, "PUT", studentUrl(f), f.student.headers, GOOD_METADATA);
    expect(studentEdit.statusCode).toBe(409);

    const before = record?.datestamp ?? "";
    await new Promise((r) => setTimeout(r, 5));
    const corrected = await send(t.app, "PUT", adminUrl(f), f.admin.headers, {
      keywords: ["maize", "drought"],
    });
    expect(corrected.statusCode).toBe(200);
    const after = await readPublishedRecord(t.db, f.submission.id, nowIso());
    expect(after?.keywords).toEqual(["maize", "drought"]);
    expect((after?.datestamp ?? "") > before).toBe(true);

    await setPublicationHandle(t.db, f.submission.id, "https://hdl.handle.net/123/456", nowIso());
    const locked = await send(t.app, "PUT", adminUrl(f), f.admin.headers, { keywords: ["x"] });
    expect(locked.statusCode).toBe(409);
    expect(locked.body).toMatch(/deposited/);
    const view = (await send(t.app, "GET", adminUrl(f), f.admin.headers)).json<{
      data: { locked: boolean; handle: string; publicPath: string; state: string };
    }>().data;
    expect(view).toMatchObject({
      locked: true,
      handle: "https://hdl.handle.net/123/456",
      publicPath: `/theses/${f.submission.id}`,
      state: "published",
    });
  });

  it("keeps an unpublished record away from readers", async () => {
    const f = await publicationFixture(t);
    await send(t.app, "PUT", studentUrl(f), f.student.headers, GOOD_METADATA);
    expect(await readPublishedRecord(t.db, f.submission.id, nowIso())).toBeNull();
  });
});

describe("withdrawal", () => {
  it("needs a reason and a published thesis; then the record says withdrawn, its files are not public, its datestamp moved, and the audit log has it", async () => {
    const f = await publicationFixture(t);
    const early = await send(t.app, "POST", `${adminUrl(f)}/withdraw`, f.admin.headers, {
      reason: "Plagiarism found",
    });
    expect(early.statusCode).toBe(409);
    await publish(t.app, f);
    const noReason = await send(t.app, "POST", `${adminUrl(f)}/withdraw`, f.admin.headers, {
      reason: "  ",
    });
    expect(noReason.statusCode).toBe(400);
    expect(fieldsOf(noReason.body)).toContain("reason");
    const before = await readPublishedRecord(t.db, f.submission.id, nowIso());
    expect(before?.filesPublic).toBe(true);
    await new Promise((r) => setTimeout(r, 5));

    const res = await send(t.app, "POST", `${adminUrl(f)}/withdraw`, f.admin.headers, {
      reason: "Data fabrication confirmed by the university's committee",
    });
    expect(res.statusCode).toBe(200);
    const after = await readPublishedRecord(t.db, f.submission.id, nowIso());
    expect(after?.withdrawn?.reason).toBe(
      "Data fabrication confirmed by the university's committee",
    );
    expect(after?.filesPublic).toBe(false);
    expect((after?.datestamp ?? "") > (before?.datestamp ?? "")).toBe(true);
    const again = await send(t.app, "POST", `${adminUrl(f)}/withdraw`, f.admin.headers, {
      reason: "Twice",
    });
    expect(again.statusCode).toBe(409);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["actor_user_id", "details"])
      .where("event", "=", "publication.withdrawn")
      .where("subject", "=", f.submission.indexNumber)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_user_id).toBe(f.admin.id);
  });
});

describe("degrees", () => {
  it("adds, refuses a duplicate name and an unknown level by field, edits, and lists them paged", async () => {
    const f = await publicationFixture(t);
    const added = await send(t.app, "POST", "/api/admin/degrees", f.admin.headers, {
      name: "Doctor of Philosophy",
      abbreviation: "PhD",
      level: "doctoral",
    });
    expect(added.statusCode).toBe(201);
    const id = added.json<{ data: { id: number } }>().data.id;
    const duplicate = await send(t.app, "POST", "/api/admin/degrees", f.admin.headers, {
      name: "Doctor of Philosophy",
      abbreviation: "DPhil",
      level: "doctoral",
    });
    expect(duplicate.statusCode).toBe(409);
    expect(fieldsOf(duplicate.body)).toEqual(["name"]);
    const badLevel = await send(t.app, "POST", "/api/admin/degrees", f.admin.headers, {
      name: "Bachelor of Arts",
      abbreviation: "BA",
      level: "bachelors",
    });
    expect(badLevel.statusCode).toBe(400);
    expect(fieldsOf(badLevel.body)).toContain("level");
    const edited = await send(t.app, "PATCH", `/api/admin/degrees/${id}`, f.admin.headers, {
      active: false,
    });
    expect(edited.json<{ data: { active: boolean } }>().data.active).toBe(false);
    const list = (await send(t.app, "GET", "/api/admin/degrees?page=1", f.admin.headers)).json<{
      data: { name: string }[];
      pageSize: number;
      total: number;
    }>();
    expect(list.data.map((d) => d.name)).toContain("Doctor of Philosophy");
    expect(list.pageSize).toBe(50);
    expect(list.total).toBeGreaterThanOrEqual(2);
    // An inactive degree is no longer given to a record.
    const g = await publicationFixture(t);
    const refused = await send(t.app, "PUT", adminUrl(g), g.admin.headers, { degreeId: id });
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused.body)).toEqual(["degreeId"]);
  });
});

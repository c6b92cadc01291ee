import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments, type Submission, type SubmissionFields } from "../../common/submission.js";
import { nowIso } from "../db/database.js";
import { AppError } from "../errors.js";
import { createUser, makeSubmission } from "../../testing/factories.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { notifyWorkflowChangesInBulk, updateSubmissionsInBulk } from "./bulk-write.js";
import { diffFields, fieldsOf } from "./changes.js";
import { csvLine } from "./csv.js";
import { notifyWorkflowChanges } from "./notices.js";
import { findSubmissionById, insertSubmissions, updateSubmissionFields } from "./repository.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rowOf = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** A stored row without what differs between two submissions by nature (id, index number). */
async function comparable(id: number) {
  const { id: _id, index_number: _index, ...rest } = await rowOf(id);
  // PostgreSQL keeps a generated search column holding the index number.
  delete (rest as Record<string, unknown>).search_text;
  return rest;
}

/** Every column type the import writes: text, text cleared to NULL, NULL set to text, flags. */
function everyKind(from: Submission): SubmissionFields {
  return {
    ...fieldsOf(from),
    studentName: 'Ɛsi "Quoted", O\'Brien',
    programme: "MPhil Economics",
    contact: null,
    studentEmail: "esi@school.test",
    documents: {
      ...emptyDocuments(),
      thesis: { submitted: true, receivedOn: "2025-03-04" },
      turnitinReport: { submitted: true, receivedOn: null },
    },
    sgsStage: "sent_to_examiners",
    internalExaminer: "received",
    externalExaminer: null,
    thesisStatus: "Passed with corrections",
    effectiveDate: null,
  };
}

function plainFields(studentName: string, indexNumber: string): SubmissionFields {
  return {
    studentName,
    indexNumber,
    programme: "MA English",
    contact: null,
    studentEmail: null,
    documents: emptyDocuments(),
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
  };
}

const CREATED = "2026-01-02T03:04:05.006Z";

const before = {
  contact: "024 000 0000",
  studentEmail: null,
  documents: { ...emptyDocuments(), supervisorForm: { submitted: true, receivedOn: "2024-01-02" } },
  sgsStage: "awaiting_review" as const,
  externalExaminer: "awaiting" as const,
  effectiveDate: "2024-05-06",
};

describe("updateSubmissionsInBulk", () => {
  it("writes what updateSubmissionFields writes, for every column type and NULLs", async () => {
    const one = await makeSubmission(t.db, before, CREATED);
    const twin = await makeSubmission(t.db, before, CREATED);
    const untouched = await makeSubmission(t.db, before);
    const untouchedRow = await rowOf(untouched.id);
    const at = nowIso();
    const single = await updateSubmissionFields(t.db, one.id, everyKind(one), at, null);
    const fields = { ...everyKind(twin), indexNumber: twin.indexNumber };
    await updateSubmissionsInBulk(
      t.db,
      [{ id: twin.id, expectedVersion: 1, fields, renamed: true }],
      at,
    );

    expect(single?.version).toBe(2);
    expect(await comparable(twin.id)).toEqual(await comparable(one.id));
    const written = await findSubmissionById(t.db, twin.id);
    expect(written).toMatchObject({ ...fields, version: 2, updatedAt: at });
    expect(written?.documents.thesis).toEqual({ submitted: true, receivedOn: "2025-03-04" });
    expect(written?.contact).toBeNull();
    expect(await rowOf(untouched.id)).toEqual(untouchedRow);
  });

  it("writes many rows over several statements, each with its own values", async () => {
    const made = await insertSubmissions(
      t.db,
      Array.from({ length: 1203 }, (_, i) =>
        plainFields(`Bulk ${i}`, `61${String(i).padStart(6, "0")}`),
      ),
      nowIso(),
    );
    const at = nowIso();
    await updateSubmissionsInBulk(
      t.db,
      made.map((s, i) => ({
        id: s.id,
        expectedVersion: s.version,
        fields: {
          ...fieldsOf(s),
          // Every 25th row renamed: 49 renames, in statements apart from the rest.
          studentName: i % 25 ? s.studentName : `Renamed ${i}`,
          contact: `055 ${i}`,
          sgsStage: i % 2 ? "awaiting_review" : null,
        },
        renamed: i % 25 === 0,
      })),
      at,
    );
    const rows = await t.db
      .selectFrom("submissions")
      .select(["id", "student_name", "contact", "sgs_stage", "version", "updated_at"])
      .where("index_number", "like", "61%")
      .orderBy("id")
      .execute();
    expect(rows).toHaveLength(1203);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        id: made[i]?.id,
        student_name: i % 25 ? `Bulk ${i}` : `Renamed ${i}`,
        contact: `055 ${i}`,
        sgs_stage: i % 2 ? "awaiting_review" : null,
        version: 2,
        updated_at: at,
      });
    });
  });

  it("refuses a stale version with a 409, and the transaction keeps every row as it was", async () => {
    const made: Submission[] = [];
    for (let i = 0; i < 3; i += 1) made.push(await makeSubmission(t.db, { contact: "old" }));
    const [first, second, third] = made as [Submission, Submission, Submission];
    // Someone else saves the second one after the import read it.
    await updateSubmissionFields(
      t.db,
      second.id,
      { ...fieldsOf(second), contact: "theirs" },
      nowIso(),
      null,
    );
    const rowsBefore = await Promise.all(made.map((s) => rowOf(s.id)));

    const attempt = t.db.transaction().execute(async (trx) => {
      await updateSubmissionsInBulk(
        trx,
        made.map((s) => ({
          id: s.id,
          expectedVersion: 1,
          fields: { ...fieldsOf(s), contact: "mine" },
          renamed: false,
        })),
        nowIso(),
      );
    });
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(409);
    expect((error as AppError).message).toContain(second.indexNumber);
    expect((error as AppError).message).not.toContain(first.indexNumber);
    expect(await Promise.all(made.map((s) => rowOf(s.id)))).toEqual(rowsBefore);
    expect((await rowOf(third.id)).contact).toBe("old");
  });

  it("rolls back the statements already run when a later one fails", async () => {
    const made = await insertSubmissions(
      t.db,
      Array.from({ length: 1100 }, (_, i) => ({
        ...plainFields(`Halfway ${i}`, `62${String(i).padStart(6, "0")}`),
        contact: "before",
      })),
      nowIso(),
    );
    // A late statement holds a row whose version moved.
    const late = made[1050];
    if (!late) throw new Error("no row 1050");
    await updateSubmissionFields(t.db, late.id, fieldsOf(late), nowIso(), null);
    const attempt = t.db.transaction().execute((trx) =>
      updateSubmissionsInBulk(
        trx,
        made.map((s) => ({
          id: s.id,
          expectedVersion: 1,
          fields: { ...fieldsOf(s), contact: "after" },
          renamed: false,
        })),
        nowIso(),
      ),
    );
    await expect(attempt).rejects.toThrow(late.indexNumber);
    const changed = await t.db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("index_number", "like", "62%")
      .where("contact", "=", "after")
      .executeTakeFirstOrThrow();
    expect(Number(changed.n)).toBe(0);
  });
});

describe("notifyWorkflowChangesInBulk", () => {
  it("writes the messages and mails notifyWorkflowChanges writes, one by one", async () => {
    const config = { publicUrl: "https://ets.school.test" };
    const admin = await createUser(t.db, "admin");
    const pairs: { one: Submission; bulk: Submission; to: SubmissionFields }[] = [];
    const cases: Partial<SubmissionFields>[] = [
      { sgsStage: "sent_to_department" },
      { sgsStage: "sent_to_examiners", internalExaminer: "awaiting", externalExaminer: "received" },
      { contact: "only a contact" },
      { sgsStage: null },
    ];
    for (const [index, change] of cases.entries()) {
      const studentName = `Notified ${index}`;
      const one = await makeSubmission(t.db, { studentName, sgsStage: "awaiting_review" });
      const bulk = await makeSubmission(t.db, { studentName, sgsStage: "awaiting_review" });
      // The first two students have accounts (one with a name, one without): they get mail too.
      if (index < 2) {
        for (const s of [one, bulk]) {
          const student = await createUser(t.db, "student", {
            indexNumber: s.indexNumber,
            name: "Named Student",
          });
          // Without a name on the account, the greeting uses the submission's.
          if (index === 1) {
            await t.db
              .updateTable("users")
              .set({ name: null })
              .where("id", "=", student.id)
              .execute();
          }
        }
      }
      pairs.push({ one, bulk, to: { ...fieldsOf(one), ...change } });
    }
    const at = nowIso();
    const firstMessage = await maxId("messages");
    const firstMail = await maxId("outbox");
    for (const { one, to } of pairs) {
      const changes = diffFields(fieldsOf(one), to);
      await notifyWorkflowChanges(t.db, config, one, changes, admin.id, at);
    }
    const middleMessage = await maxId("messages");
    const middleMail = await maxId("outbox");
    await notifyWorkflowChangesInBulk(
      t.db,
      config,
      pairs.map(({ bulk, to }) => ({
        submission: bulk,
        changes: diffFields(fieldsOf(bulk), { ...to, indexNumber: bulk.indexNumber }),
      })),
      admin.id,
      at,
    );
    const messages = await t.db
      .selectFrom("messages")
      .select(["submission_id", "title", "body", "created_by", "created_at"])
      .where("id", ">", firstMessage)
      .orderBy("id")
      .execute();
    const sameWords = (text: string) =>
      pairs.reduce((out, p) => out.replaceAll(p.bulk.indexNumber, p.one.indexNumber), text);
    const singles = messages.slice(0, messages.length / 2);
    const bulks = messages.slice(messages.length / 2);
    expect(singles).toHaveLength(3);
    expect(bulks.map((m) => ({ ...m, submission_id: 0, body: sameWords(m.body) }))).toEqual(
      singles.map((m) => ({ ...m, submission_id: 0 })),
    );
    expect(bulks.map((m) => m.submission_id)).toEqual([0, 1, 3].map((i) => pairs[i]?.bulk.id));
    expect(middleMessage).toBeGreaterThan(firstMessage);

    const mails = await t.db
      .selectFrom("outbox")
      .select(["id", "to_address", "subject", "text_body", "template", "status", "attempts"])
      .where("id", ">", firstMail)
      .orderBy("id")
      .execute();
    const oneMails = mails.filter((m) => m.id <= middleMail);
    const bulkMails = mails.filter((m) => m.id > middleMail);
    expect(oneMails).toHaveLength(2);
    expect(bulkMails).toHaveLength(2);
    const plain = (m: (typeof mails)[number]) => ({
      subject: m.subject,
      text: sameWords(m.text_body),
      template: sameWords(m.template),
      status: m.status,
      attempts: m.attempts,
    });
    expect(bulkMails.map(plain)).toEqual(oneMails.map(plain));
    expect(bulkMails[0]?.text_body).toContain("Dear Named Student,");
    expect(bulkMails[1]?.text_body).toContain("Dear Notified 1,");
  });
});

async function maxId(table: "messages" | "outbox"): Promise<number> {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

describe("an import failing in its third chunk", () => {
  it("leaves every submission, event and message as it was", async () => {
    const admin = await createUser(t.db, "admin");
    const made = await insertSubmissions(
      t.db,
      Array.from({ length: 1200 }, (_, i) => ({
        ...plainFields(`Chunked ${i}`, `63${String(i).padStart(6, "0")}`),
        sgsStage: "awaiting_review" as const,
      })),
      nowIso(),
    );
    // Row 1,100 (the third chunk of 500) hits a real database error when written.
    await installWriteTrap(t.db, "submissions", "contact", "Trap Contact");
    const header = ["StudentName", "IndexNumber", "Programme", "SGSAdmin", "Contact"];
    const rows = made.map((s, i) => [
      s.studentName,
      s.indexNumber,
      s.programme,
      // Every row moves its stage, so each has events and a notice to roll back.
      "Sent to Department",
      i === 1100 ? "Trap Contact" : `055 ${i}`,
    ]);
    const file = [header, ...rows].map((row) => csvLine(row)).join("");
    const counts = async () => ({
      events: await count("submission_events"),
      messages: await count("messages"),
      outbox: await count("outbox"),
    });
    const before = await counts();
    const rowsBefore = await t.db
      .selectFrom("submissions")
      .selectAll()
      .where("index_number", "like", "63%")
      .orderBy("id")
      .execute();

    const boundary = "----etsbulkwrite";
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/import/apply",
      headers: { ...admin.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
            "Content-Type: text/csv\r\n\r\n",
        ),
        Buffer.from(file),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(res.statusCode).toBe(500);
    expect(await counts()).toEqual(before);
    const rowsAfter = await t.db
      .selectFrom("submissions")
      .selectAll()
      .where("index_number", "like", "63%")
      .orderBy("id")
      .execute();
    expect(rowsAfter).toEqual(rowsBefore);
  });
});

async function count(table: "submission_events" | "messages" | "outbox"): Promise<number> {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installWriteTrap } from "../../testing/write-trap.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin", { name: "Efua Registrar" });
});
afterAll(async () => {
  await t.close();
});

const eventsOf = (submissionId: number) =>
  t.db
    .selectFrom("submission_events")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .orderBy("id")
    .execute();
const messagesOf = (submissionId: number) =>
  t.db.selectFrom("messages").selectAll().where("submission_id", "=", submissionId).execute();
const stored = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

function patch(id: number, payload: object) {
  return t.app.inject({
    method: "PATCH",
    url: `/api/admin/submissions/${id}`,
    headers: admin.headers,
    payload,
  });
}

describe("POST /api/submissions", () => {
  const valid = {
    studentName: "Kofi Adjei",
    indexNumber: "10567890",
    programme: "MPhil Sociology",
    contact: "024 555 1234",
    documents: { thesis: { submitted: true, receivedOn: "2025-03-01" } },
    sgsStage: "awaiting_review",
  };

  it("creates a submission and records a create event by the administrator", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: valid,
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      studentName: "Kofi Adjei",
      indexNumber: "10567890",
      contact: "024 555 1234",
      sgsStage: "awaiting_review",
      internalExaminer: null,
      version: 1,
      documents: {
        thesis: { submitted: true, receivedOn: "2025-03-01" },
        turnitinReport: { submitted: false, receivedOn: null },
      },
    });
    const events = await eventsOf(data.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "create",
      actor_user_id: admin.id,
      to_value: "10567890",
    });
  });

  it("answers 409 naming the index number field when the index number is taken", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: { ...valid, studentName: "Someone Else" },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      code: "conflict",
      fields: [{ field: "indexNumber" }],
    });
    const count = await t.db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("index_number", "=", "10567890")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("requires name, index number and programme, naming each missing field", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: { studentName: " ", indexNumber: "ab", programme: "" },
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(["indexNumber", "programme", "studentName"]);
  });

  it("refuses a received date on a document that is not submitted", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/submissions",
      headers: admin.headers,
      payload: {
        ...valid,
        indexNumber: "10567891",
        documents: { thesis: { submitted: false, receivedOn: "2025-03-01" } },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe("documents.thesis.receivedOn");
  });
});

describe("GET and PATCH /api/admin/submissions/:id", () => {
  it("returns one submission with its version, and 404 for an unknown id", async () => {
    const s = await makeSubmission(t.db, { studentName: "Esi Darko" });
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${s.id}`,
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: s.id, studentName: "Esi Darko", version: 1 });
    const missing = await t.app.inject({
      method: "GET",
      url: "/api/admin/submissions/999999",
      headers: admin.bearer,
    });
    expect(missing.statusCode).toBe(404);
  });

  it("saves edits, raises the version and records one event per changed field", async () => {
    const s = await makeSubmission(t.db, { studentName: "Yaw Osei", contact: "020 111 2222" });
    const res = await patch(s.id, {
      version: 1,
      changes: {
        studentName: "Yaw Osei-Bonsu",
        contact: "020 111 2222",
        studentEmail: "Yaw.Osei@St.School.test",
        effectiveDate: "2025-04-01",
        thesisStatus: "Initial Submission",
        documents: { thesis: { submitted: true, receivedOn: "2025-03-15" } },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      studentName: "Yaw Osei-Bonsu",
      studentEmail: "yaw.osei@st.school.test",
      effectiveDate: "2025-04-01",
      version: 2,
      documents: { thesis: { submitted: true, receivedOn: "2025-03-15" } },
    });
    const events = await eventsOf(s.id);
    expect(events.map((e) => [e.field, e.from_value, e.to_value, e.kind])).toEqual([
      ["studentName", "Yaw Osei", "Yaw Osei-Bonsu", "edit"],
      ["studentEmail", null, "yaw.osei@st.school.test", "edit"],
      ["thesisStatus", null, "Initial Submission", "edit"],
      ["effectiveDate", null, "2025-04-01", "edit"],
      ["documents.thesis", null, "2025-03-15", "edit"],
    ]);
    expect(events.every((e) => e.actor_user_id === admin.id)).toBe(true);
    // Nothing about the workflow moved, so the student is not notified.
    expect(await messagesOf(s.id)).toHaveLength(0);
  });

  it("refuses a stale version with the current record and writes nothing", async () => {
    const s = await makeSubmission(t.db, { studentName: "Adwoa Kyei" });
    expect(
      (await patch(s.id, { version: 1, changes: { programme: "MA English" } })).statusCode,
    ).toBe(200);
    const stale = await patch(s.id, {
      version: 1,
      changes: { studentName: "Overwritten", sgsStage: "awaiting_review" },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      success: false,
      code: "conflict",
      current: { id: s.id, programme: "MA English", studentName: "Adwoa Kyei", version: 2 },
    });
    const row = await stored(s.id);
    expect(row.student_name).toBe("Adwoa Kyei");
    expect(row.sgs_stage).toBeNull();
    expect(row.version).toBe(2);
    expect((await eventsOf(s.id)).map((e) => e.field)).toEqual(["programme"]);
  });

  it("lets only one of two simultaneous saves of the same version through", async () => {
    const s = await makeSubmission(t.db, { studentName: "Race Condition" });
    const [a, b] = await Promise.all([
      patch(s.id, { version: 1, changes: { contact: "first" } }),
      patch(s.id, { version: 1, changes: { contact: "second" } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const row = await stored(s.id);
    expect(row.version).toBe(2);
    expect(await eventsOf(s.id)).toHaveLength(1);
  });

  it("applies a one-step move without asking and records it as next", async () => {
    const s = await makeSubmission(t.db);
    const res = await patch(s.id, { version: 1, changes: { sgsStage: "awaiting_review" } });
    expect(res.statusCode).toBe(200);
    const [event] = await eventsOf(s.id);
    expect(event).toMatchObject({
      field: "sgsStage",
      from_value: null,
      to_value: "awaiting_review",
      kind: "next",
      confirmed_out_of_order: 0,
    });
  });

  it("asks for confirmation before a move that skips or reverses, writing nothing", async () => {
    const s = await makeSubmission(t.db, {
      sgsStage: "awaiting_review",
      internalExaminer: "received",
    });
    const res = await patch(s.id, {
      version: 1,
      changes: { sgsStage: "sent_to_examiners", internalExaminer: "awaiting", contact: "x" },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      code: "confirmation_required",
      moves: [
        {
          submissionId: s.id,
          field: "sgsStage",
          from: "awaiting_review",
          to: "sent_to_examiners",
          kind: "skip",
        },
        {
          submissionId: s.id,
          field: "internalExaminer",
          from: "received",
          to: "awaiting",
          kind: "reverse",
        },
      ],
    });
    const row = await stored(s.id);
    expect([row.sgs_stage, row.internal_examiner, row.contact, row.version]).toEqual([
      "awaiting_review",
      "received",
      null,
      1,
    ]);
    expect(await eventsOf(s.id)).toHaveLength(0);
    expect(await messagesOf(s.id)).toHaveLength(0);
  });

  it("applies confirmed out-of-order moves and records them as confirmed", async () => {
    const s = await makeSubmission(t.db, {
      sgsStage: "awaiting_review",
      internalExaminer: "received",
    });
    const res = await patch(s.id, {
      version: 1,
      confirmOutOfOrder: true,
      changes: { sgsStage: "sent_to_examiners", internalExaminer: "awaiting", contact: "x" },
    });
    expect(res.statusCode).toBe(200);
    const events = await eventsOf(s.id);
    expect(events.map((e) => [e.field, e.kind, e.confirmed_out_of_order])).toEqual([
      ["contact", "edit", 0],
      ["sgsStage", "skip", 1],
      ["internalExaminer", "reverse", 1],
    ]);
  });

  it("refuses changing the index number and unknown fields", async () => {
    const s = await makeSubmission(t.db);
    const res = await patch(s.id, { version: 1, changes: { indexNumber: "12345678" } });
    expect(res.statusCode).toBe(400);
    expect((await stored(s.id)).index_number).toBe(s.indexNumber);
  });

  it("keeps the version when nothing changes", async () => {
    const s = await makeSubmission(t.db, { contact: "same" });
    const res = await patch(s.id, { version: 1, changes: { contact: "same" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.version).toBe(1);
    expect(await eventsOf(s.id)).toHaveLength(0);
  });
});

describe("notifying the student", () => {
  it("writes a message and queues an email when the student has an account", async () => {
    const s = await makeSubmission(t.db, {
      indexNumber: "30100001",
      sgsStage: "nominations_ready",
    });
    const student = await createUser(t.db, "student", {
      indexNumber: "30100001",
      email: "ama.student@st.school.test",
      name: "Ama Student",
    });
    const res = await patch(s.id, {
      version: 1,
      changes: { sgsStage: "sent_to_examiners", internalExaminer: "awaiting" },
      confirmOutOfOrder: true,
    });
    expect(res.statusCode).toBe(200);
    const messages = await messagesOf(s.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.body).toContain("Sent to Examiners");
    expect(messages[0]?.body).toContain("Internal examiner: Awaiting");
    expect(messages[0]?.created_by).toBe(admin.id);
    const mail = await t.db
      .selectFrom("outbox")
      .selectAll()
      .where("to_address", "=", "ama.student@st.school.test")
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text_body).toContain("Internal examiner: Awaiting");
    expect(mail[0]?.text_body).toContain("Dear Ama Student");
    expect(student.id).toBeGreaterThan(0);
  });

  it("writes the message but no email when the student has no account yet", async () => {
    const s = await makeSubmission(t.db, { indexNumber: "30100002" });
    const before = await t.db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(
      (await patch(s.id, { version: 1, changes: { sgsStage: "awaiting_review" } })).statusCode,
    ).toBe(200);
    expect(await messagesOf(s.id)).toHaveLength(1);
    const after = await t.db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("rolls the change back when the notice cannot be written", async () => {
    const s = await makeSubmission(t.db, { indexNumber: "30100003" });
    await createUser(t.db, "student", { indexNumber: "30100003", email: "trap@st.school.test" });
    await installWriteTrap(t.db, "outbox", "to_address", "trap@st.school.test");
    const res = await patch(s.id, { version: 1, changes: { sgsStage: "awaiting_review" } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      code: "internal",
      message: "Something went wrong on our side. Please try again.",
    });
    const row = await stored(s.id);
    expect([row.sgs_stage, row.version]).toEqual([null, 1]);
    expect(await eventsOf(s.id)).toHaveLength(0);
    expect(await messagesOf(s.id)).toHaveLength(0);
  });
});

describe("history", () => {
  it("lists every event with who made it", async () => {
    const s = await makeSubmission(t.db);
    await patch(s.id, { version: 1, changes: { sgsStage: "awaiting_review" } });
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/submissions/${s.id}/events`,
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        actor: { id: admin.id, email: admin.email, name: "Efua Registrar" },
        field: "sgsStage",
        from: null,
        to: "awaiting_review",
        kind: "next",
        confirmedOutOfOrder: false,
      },
    ]);
  });

  it("gives the student a timeline of dated milestones in plain words", async () => {
    const s = await makeSubmission(
      t.db,
      { indexNumber: "30200001", sgsStage: "nominations_ready" },
      "2025-01-10T09:00:00.000Z",
    );
    const owner = await createUser(t.db, "student", { indexNumber: "30200001" });
    const other = await createUser(t.db, "student", { indexNumber: "30200002" });
    await patch(s.id, {
      version: 1,
      changes: {
        sgsStage: "sent_to_examiners",
        documents: { thesis: { submitted: true, receivedOn: "2025-01-05" } },
      },
    });
    await patch(s.id, { version: 2, changes: { internalExaminer: "awaiting" } });
    await patch(s.id, { version: 3, changes: { internalExaminer: "received" } });
    await patch(s.id, {
      version: 4,
      changes: { internalExaminer: "report_submitted" },
    });

    const res = await t.app.inject({
      method: "GET",
      url: "/api/submissions/30200001/timeline",
      headers: owner.bearer,
    });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { at: string; label: string }[];
    expect(items.map((i) => i.label)).toEqual([
      "Thesis received",
      "Submission recorded",
      "Nominations Ready",
      "Sent to Examiners",
      "Internal examiner: Awaiting",
      "Internal examiner: Received",
      "Internal examiner: Report Submitted",
    ]);
    expect(items[0]?.at).toBe("2025-01-05");
    expect(items[1]?.at).toBe("2025-01-10T09:00:00.000Z");

    const forbidden = await t.app.inject({
      method: "GET",
      url: "/api/submissions/30200001/timeline",
      headers: other.bearer,
    });
    expect(forbidden.statusCode).toBe(403);
    const asAdmin = await t.app.inject({
      method: "GET",
      url: "/api/submissions/30200001/timeline",
      headers: admin.bearer,
    });
    expect(asAdmin.json().items).toEqual(items);
    const none = await t.app.inject({
      method: "GET",
      url: "/api/submissions/30200002/timeline",
      headers: other.bearer,
    });
    expect(none.statusCode).toBe(404);
  });
});

describe("POST /api/admin/submissions/bulk", () => {
  function bulk(payload: object) {
    return t.app.inject({
      method: "POST",
      url: "/api/admin/submissions/bulk",
      headers: admin.headers,
      payload,
    });
  }

  it("moves many submissions at once, with events and a notice for each", async () => {
    const a = await makeSubmission(t.db, { sgsStage: "nominations_ready" });
    const b = await makeSubmission(t.db, { sgsStage: "nominations_ready" });
    const c = await makeSubmission(t.db, { sgsStage: "sent_to_examiners" });
    const res = await bulk({ ids: [a.id, b.id, c.id], set: { sgsStage: "sent_to_examiners" } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.updated).toBe(2);
    expect(body.items.map((s: { sgsStage: string }) => s.sgsStage)).toEqual([
      "sent_to_examiners",
      "sent_to_examiners",
      "sent_to_examiners",
    ]);
    for (const s of [a, b]) {
      const events = await eventsOf(s.id);
      expect(events.map((e) => [e.field, e.to_value, e.kind])).toEqual([
        ["sgsStage", "sent_to_examiners", "bulk"],
      ]);
      expect((await stored(s.id)).version).toBe(2);
      expect(await messagesOf(s.id)).toHaveLength(1);
    }
    expect(await eventsOf(c.id)).toHaveLength(0);
    expect((await stored(c.id)).version).toBe(1);
  });

  it("asks for confirmation when any move skips or reverses, and changes nothing", async () => {
    const a = await makeSubmission(t.db, { internalExaminer: "awaiting" });
    const b = await makeSubmission(t.db, { internalExaminer: null });
    const res = await bulk({ ids: [a.id, b.id], set: { internalExaminer: "received" } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "confirmation_required",
      moves: [
        { submissionId: b.id, field: "internalExaminer", from: null, to: "received", kind: "skip" },
      ],
    });
    expect((await stored(a.id)).internal_examiner).toBe("awaiting");

    const confirmed = await bulk({
      ids: [a.id, b.id],
      set: { internalExaminer: "received" },
      confirmOutOfOrder: true,
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await eventsOf(a.id))[0]?.confirmed_out_of_order).toBe(0);
    expect((await eventsOf(b.id))[0]?.confirmed_out_of_order).toBe(1);
  });

  it("changes nothing when an id is unknown", async () => {
    const a = await makeSubmission(t.db);
    const res = await bulk({ ids: [a.id, 987654], set: { sgsStage: "awaiting_review" } });
    expect(res.statusCode).toBe(404);
    expect((await stored(a.id)).sgs_stage).toBeNull();
  });

  it("leaves every submission as it was when a write fails in the middle", async () => {
    const a = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    const b = await makeSubmission(t.db, { sgsStage: "awaiting_review", indexNumber: "40400404" });
    const c = await makeSubmission(t.db, { sgsStage: "awaiting_review" });
    await installWriteTrap(t.db, "submissions", "index_number", "40400404");
    const res = await bulk({ ids: [a.id, b.id, c.id], set: { sgsStage: "sent_to_department" } });
    expect(res.statusCode).toBe(500);
    for (const s of [a, b, c]) {
      const row = await stored(s.id);
      expect([row.sgs_stage, row.version]).toEqual(["awaiting_review", 1]);
      expect(await eventsOf(s.id)).toHaveLength(0);
      expect(await messagesOf(s.id)).toHaveLength(0);
    }
  });

  it("needs at least one field to set", async () => {
    const res = await bulk({ ids: [1], set: {} });
    expect(res.statusCode).toBe(400);
  });
});

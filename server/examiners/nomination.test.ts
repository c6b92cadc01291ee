import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminExaminationResponse } from "../../common/examiners.js";
import { hashToken } from "../auth/tokens.js";
import {
  createExaminer,
  examinerLinksOf,
  readyToSend,
  sendAndGetTokens,
  submissionWithThesis,
} from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const nominate = (
  indexNumber: string,
  role: string,
  payload: unknown,
  headers: Record<string, string> = admin.headers,
) =>
  t.app.inject({
    method: "PUT",
    url: `/api/admin/submissions/${indexNumber}/examiners/${role}`,
    headers,
    payload: payload as object,
  });
const view = async (indexNumber: string) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/admin/submissions/${indexNumber}/examination`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json<AdminExaminationResponse>().data;
};
const record = (id: number) =>
  t.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const eventsOf = (submissionId: number, prefix: string) =>
  t.db
    .selectFrom("submission_events")
    .selectAll()
    .where("submission_id", "=", submissionId)
    .where("field", "like", `${prefix}%`)
    .orderBy("id")
    .execute();

describe("PUT /api/admin/submissions/:indexNumber/examiners/:role", () => {
  it("nominates one examiner per role; with both, Sent to Department moves to Nominations Ready", async () => {
    const { submission } = await submissionWithThesis(t);
    const internal = await createExaminer(t.db, { kind: "internal", name: "Dr Inner" });
    const external = await createExaminer(t.db, { kind: "external", name: "Prof Outer" });

    const first = await nominate(submission.indexNumber, "internal", { examinerId: internal.id });
    expect(first.statusCode).toBe(200);
    const afterFirst = first.json<AdminExaminationResponse>().data;
    expect(afterFirst.internal).toMatchObject({
      state: "nominated",
      examiner: { id: internal.id, name: "Dr Inner" },
      sentAt: null,
      dueOn: null,
    });
    expect(afterFirst.external).toBeNull();
    expect(afterFirst.canSend).toBe(false);
    expect(afterFirst.sendBlockedReason).toMatch(/external examiner/);
    expect((await record(submission.id)).sgs_stage).toBe("sent_to_department");

    const second = await nominate(submission.indexNumber, "external", { examinerId: external.id });
    expect(second.statusCode).toBe(200);
    const afterSecond = second.json<AdminExaminationResponse>().data;
    expect(afterSecond.external?.examiner.name).toBe("Prof Outer");
    expect(afterSecond.canSend).toBe(true);
    expect(afterSecond.sendBlockedReason).toBeNull();
    expect((await record(submission.id)).sgs_stage).toBe("nominations_ready");

    const events = await eventsOf(submission.id, "examination.");
    expect(events.map((e) => [e.field, e.kind, e.to_value])).toEqual([
      ["examination.internal", "nominate", "Dr Inner"],
      ["examination.external", "nominate", "Prof Outer"],
    ]);
    const stage = await eventsOf(submission.id, "sgsStage");
    expect(stage.map((e) => e.to_value)).toEqual(["nominations_ready"]);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("event", "=", "examiner.nominated")
      .where("subject", "in", [internal.email, external.email])
      .execute();
    expect(audit).toHaveLength(2);
  });

  it("leaves an earlier stage alone when both are nominated (only Sent to Department moves on)", async () => {
    const { submission } = await submissionWithThesis(t, { sgsStage: "awaiting_review" });
    const internal = await createExaminer(t.db, { kind: "internal" });
    const external = await createExaminer(t.db, { kind: "external" });
    await nominate(submission.indexNumber, "internal", { examinerId: internal.id });
    await nominate(submission.indexNumber, "external", { examinerId: external.id });
    expect((await record(submission.id)).sgs_stage).toBe("awaiting_review");
  });

  it("refuses an examiner of the other kind, saying which kind the role takes", async () => {
    const { submission } = await submissionWithThesis(t);
    const external = await createExaminer(t.db, { kind: "external", name: "Prof Away" });
    const res = await nominate(submission.indexNumber, "internal", { examinerId: external.id });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; fields: { field: string }[] }>();
    expect(body.fields[0]?.field).toBe("examinerId");
    expect(body.message).toMatch(/Prof Away is an external examiner/);
    expect(body.message).toMatch(/internal examiner must be an internal examiner/);
  });

  it("refuses an inactive examiner and one that does not exist", async () => {
    const { submission } = await submissionWithThesis(t);
    const inactive = await createExaminer(t.db, { kind: "internal", active: false });
    const res = await nominate(submission.indexNumber, "internal", { examinerId: inactive.id });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/inactive/);
    const missing = await nominate(submission.indexNumber, "internal", { examinerId: 999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toMatch(/no examiner with id 999999/);
  });

  it("refuses the same examiner for both roles", async () => {
    const { submission } = await submissionWithThesis(t);
    const examiner = await createExaminer(t.db, { kind: "internal", name: "Dr Both" });
    await nominate(submission.indexNumber, "internal", { examinerId: examiner.id });
    // Their kind changed after the first nomination: the role check alone would let this pass.
    await t.db
      .updateTable("examiners")
      .set({ kind: "external" })
      .where("id", "=", examiner.id)
      .execute();
    const res = await nominate(submission.indexNumber, "external", { examinerId: examiner.id });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/cannot hold both roles/);
  });

  it("answers 404 for an unknown index number and 400 for an unknown role", async () => {
    const examiner = await createExaminer(t.db, { kind: "internal" });
    expect((await nominate("00000000", "internal", { examinerId: examiner.id })).statusCode).toBe(
      404,
    );
    expect((await nominate("00000000", "chair", { examinerId: examiner.id })).statusCode).toBe(400);
  });

  it("replacing a sent examiner ends their examination and their link stops at once", async () => {
    const ready = await readyToSend(t, { admin });
    const { tokens, examinationIds } = await sendAndGetTokens(
      t,
      ready.submission.indexNumber,
      admin,
    );
    const oldHash = hashToken(tokens.internal ?? "");
    const replacement = await createExaminer(t.db, { kind: "internal", name: "Dr Second" });

    const res = await nominate(ready.submission.indexNumber, "internal", {
      examinerId: replacement.id,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<AdminExaminationResponse>().data;
    expect(data.internal).toMatchObject({ state: "nominated", examiner: { id: replacement.id } });
    expect(data.replaced).toHaveLength(1);
    expect(data.replaced[0]).toMatchObject({
      id: examinationIds.internal,
      state: "replaced",
      examiner: { id: ready.internal.id },
    });
    expect(data.replaced[0]?.replacedAt).not.toBeNull();
    expect(data.replaced[0]?.linkRevokedAt).not.toBeNull();

    // The old token's link is revoked with its examination.
    const links = await examinerLinksOf(t.db, examinationIds.internal);
    expect(links.map((link) => link.token_hash)).toEqual([oldHash]);
    expect(links[0]?.revoked_at).not.toBeNull();
    const old = await t.db
      .selectFrom("examinations")
      .selectAll()
      .where("id", "=", examinationIds.internal)
      .executeTakeFirstOrThrow();
    expect(old).toMatchObject({ state: "replaced", replaced_by: admin.id });

    // The record no longer says the internal examiner is awaiting: the new one has nothing yet.
    expect((await record(ready.submission.id)).internal_examiner).toBeNull();
    const events = await eventsOf(ready.submission.id, "examination.internal");
    expect(events.at(-1)).toMatchObject({ kind: "replace", to_value: "Dr Second" });
    const current = await t.db
      .selectFrom("examinations")
      .select("id")
      .where("submission_id", "=", ready.submission.id)
      .where("role", "=", "internal")
      .where("state", "<>", "replaced")
      .execute();
    expect(current).toHaveLength(1);
  });

  it("refuses nominating the examiner who already holds the role", async () => {
    const ready = await readyToSend(t, { admin });
    const res = await nominate(ready.submission.indexNumber, "external", {
      examinerId: ready.external.id,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/already the external examiner/);
  });

  it("caps the replaced history at 20, newest first", async () => {
    const { submission } = await submissionWithThesis(t);
    const names: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      const examiner = await createExaminer(t.db, { kind: "external", name: `Dr R${i}` });
      names.push(examiner.name);
      expect(
        (await nominate(submission.indexNumber, "external", { examinerId: examiner.id }))
          .statusCode,
      ).toBe(200);
    }
    const data = await view(submission.indexNumber);
    expect(data.external?.examiner.name).toBe("Dr R22");
    expect(data.replaced).toHaveLength(20);
    expect(data.replaced[0]?.examiner.name).toBe("Dr R21");
  });

  it("answers 401 and 403 to anonymous callers and students", async () => {
    const ready = await readyToSend(t, { admin });
    const examiner = await createExaminer(t.db, { kind: "internal" });
    const anonymous = await nominate(
      ready.submission.indexNumber,
      "internal",
      { examinerId: examiner.id },
      { origin: "http://localhost:3000" },
    );
    expect(anonymous.statusCode).toBe(401);
    const asStudent = await nominate(
      ready.submission.indexNumber,
      "internal",
      { examinerId: examiner.id },
      ready.student.headers,
    );
    expect(asStudent.statusCode).toBe(403);
    for (const headers of [{ origin: "http://localhost:3000" }, ready.student.headers]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/admin/submissions/${ready.submission.indexNumber}/examination`,
        headers,
      });
      expect([401, 403]).toContain(res.statusCode);
    }
    expect((await view(ready.submission.indexNumber)).internal?.examiner.id).toBe(
      ready.internal.id,
    );
  });
});

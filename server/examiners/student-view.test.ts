import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudentExamination } from "../../common/examiners.js";

type StudentExaminationResponse = { data: StudentExamination };
import {
  readyToSend,
  sendAndGetTokens,
  simulateReport,
  submissionWithThesis,
} from "../../testing/examiners.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { releaseOutcome } from "./service.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

const read = (indexNumber: string, headers: Record<string, string>) =>
  t.app.inject({
    method: "GET",
    url: `/api/submissions/${indexNumber}/examination`,
    headers,
  });

describe("GET /api/submissions/:indexNumber/examination", () => {
  it("before nomination: nothing sent, no outcome", async () => {
    const { submission, student } = await submissionWithThesis(t);
    const res = await read(submission.indexNumber, student.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json<StudentExaminationResponse>().data).toEqual({
      internal: { sentOn: null, reportReceivedOn: null },
      external: { sentOn: null, reportReceivedOn: null },
      outcome: null,
    });
  });

  it("shows the dates each report went out and came in, and the outcome, never who examines", async () => {
    const s = await readyToSend(t, { admin });
    await sendAndGetTokens(t, s.submission.indexNumber, admin, {
      now: new Date("2030-03-01T09:00:00.000Z"),
    });
    await simulateReport(t, s.submission.id, "external", {
      at: "2030-03-20T15:30:00.000Z",
      recommendation: "major_corrections",
      note: "A private note to the school.",
    });

    const midway = await read(s.submission.indexNumber, s.student.headers);
    expect(midway.json<StudentExaminationResponse>().data).toEqual({
      internal: { sentOn: "2030-03-01", reportReceivedOn: null },
      external: { sentOn: "2030-03-01", reportReceivedOn: "2030-03-20" },
      outcome: null,
    });

    await simulateReport(t, s.submission.id, "internal", { at: "2030-03-25T08:00:00.000Z" });
    await releaseOutcome(
      t,
      admin,
      s.submission.indexNumber,
      { decision: "minor_corrections", corrections: "Renumber the figures." },
      new Date("2030-04-02T10:00:00.000Z"),
    );
    const res = await read(s.submission.indexNumber, s.student.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json<StudentExaminationResponse>().data).toEqual({
      internal: { sentOn: "2030-03-01", reportReceivedOn: "2030-03-25" },
      external: { sentOn: "2030-03-01", reportReceivedOn: "2030-03-20" },
      outcome: {
        decision: "minor_corrections",
        label: "Minor corrections",
        corrections: "Renumber the figures.",
        releasedOn: "2030-04-02",
        correctionState: "to_upload",
        correctionsApprovedOn: null,
      },
    });
    for (const secret of [
      s.internal.name,
      s.internal.email,
      s.external.name,
      s.external.email,
      s.internal.institution,
      "A private note to the school.",
      "report.pdf",
      "major_corrections",
    ]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it("an administrator reads it too", async () => {
    const { submission } = await submissionWithThesis(t);
    expect((await read(submission.indexNumber, admin.headers)).statusCode).toBe(200);
  });

  it("a student cannot read another student's examination, nor learn whether it exists", async () => {
    const mine = await submissionWithThesis(t);
    const theirs = await submissionWithThesis(t);
    const other = await read(theirs.submission.indexNumber, mine.student.headers);
    expect(other.statusCode).toBe(403);
    const missing = await read("00000000", mine.student.headers);
    expect(missing.statusCode).toBe(403);
    // The same rule as the status read.
    const status = await t.app.inject({
      method: "GET",
      url: `/api/submissions/${theirs.submission.indexNumber}`,
      headers: mine.student.headers,
    });
    expect(status.statusCode).toBe(other.statusCode);
  });

  it("answers 401 without a session and 404 to an administrator for an unknown index number", async () => {
    const { submission } = await submissionWithThesis(t);
    expect((await read(submission.indexNumber, {})).statusCode).toBe(401);
    expect((await read("00000000", admin.headers)).statusCode).toBe(404);
  });
});

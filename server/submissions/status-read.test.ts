import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStatusView } from "../../common/submission.js";
import { findSessionUser } from "../auth/session.js";
import { runHotQuery, runNamedStatementsOn, type NamedStatementRunner } from "../db/dialect.js";
import { createTestDatabase, type TestDatabase } from "../testing/test-app.js";
import { createUser, makeSubmission } from "../testing/factories.js";
import { findSubmissionByIndexNumber } from "./repository.js";
import { readSubmissionStatus, submissionByIndexNumber } from "./status-read.js";

// Runs on the suite's database: SQLite by default, PostgreSQL (named statements on the pool)
// with TEST_DATABASE_URL.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("the compiled status read", () => {
  it("gives the same status as the repository's Kysely query", async () => {
    const submission = await makeSubmission(database.db, {
      studentName: "Efua Asante",
      sgsStage: "sent_to_examiners",
      internalExaminer: "received",
      thesisStatus: "Minor corrections",
    });
    const viaKysely = await findSubmissionByIndexNumber(database.db, submission.indexNumber);
    expect(viaKysely).not.toBeNull();
    const status = await readSubmissionStatus(database.db, submission.indexNumber);
    expect(status).toEqual(toStatusView(viaKysely!));
    expect(status?.studentName).toBe("Efua Asante");
  });

  it("gives the same row, column for column, as Kysely does", async () => {
    const submission = await makeSubmission(database.db);
    const [compiled] = await runHotQuery(database.db, submissionByIndexNumber, [
      submission.indexNumber,
    ]);
    const kysely = await database.db
      .selectFrom("submissions")
      .selectAll()
      .where("index_number", "=", submission.indexNumber)
      .executeTakeFirst();
    expect(compiled).toEqual(kysely);
  });

  it("answers null for an index number nobody has, and runs again with new values", async () => {
    const first = await makeSubmission(database.db);
    const second = await makeSubmission(database.db);
    expect(await readSubmissionStatus(database.db, "no-such-number")).toBeNull();
    expect((await readSubmissionStatus(database.db, first.indexNumber))?.indexNumber).toBe(
      first.indexNumber,
    );
    expect((await readSubmissionStatus(database.db, second.indexNumber))?.indexNumber).toBe(
      second.indexNumber,
    );
  });

  it("treats the index number as a value, never as SQL", async () => {
    await makeSubmission(database.db);
    expect(await readSubmissionStatus(database.db, "' or '1'='1")).toBeNull();
  });

  it("refuses to run with the wrong number of parameters", async () => {
    await expect(runHotQuery(database.db, submissionByIndexNumber, [])).rejects.toThrow(
      /takes 1 parameters, not 0/,
    );
  });
});

describe("the compiled session lookup", () => {
  it("finds the signed-in user by token and nobody for an unknown token", async () => {
    const student = await createUser(database.db, "student", {
      email: "compiled-session@st.school.test",
      indexNumber: "55500001",
    });
    const token = (student.bearer.authorization ?? "").replace(/^Bearer /, "");
    const user = await findSessionUser(database.db, token);
    expect(user).toMatchObject({
      email: "compiled-session@st.school.test",
      role: "student",
      indexNumber: "55500001",
    });
    expect(await findSessionUser(database.db, `${token}x`)).toBeNull();
  });
});

describe("named statements", () => {
  it("go to the registered pool with the name, the compiled SQL and the request's values", async () => {
    // A stand-in that records what it is asked and answers like the database would: proves the
    // named path's contract on either database (the real pool is used on PostgreSQL above).
    const scratch = await createTestDatabase();
    try {
      const submission = await makeSubmission(scratch.db);
      const expected = await runHotQuery(scratch.db, submissionByIndexNumber, [
        submission.indexNumber,
      ]);
      const asked: { name: string; text: string; values: unknown[] }[] = [];
      const runner: NamedStatementRunner = {
        query: async (config) => {
          asked.push(config);
          return { rows: expected as Record<string, unknown>[] };
        },
      };
      runNamedStatementsOn(scratch.db, runner);
      const status = await readSubmissionStatus(scratch.db, submission.indexNumber);
      expect(status?.indexNumber).toBe(submission.indexNumber);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.name).toBe("submission_by_index_number");
      expect(asked[0]?.text).toMatch(/from "submissions" where "index_number" = (\?|\$1)$/);
      expect(asked[0]?.values).toEqual([submission.indexNumber]);
    } finally {
      await scratch.drop();
    }
  });
});

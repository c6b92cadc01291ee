import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { toStatusView } from "../../common/submission.js";
import { findSessionUser } from "../auth/session.js";
import { runHotQuery, runNamedStatementsOn, type NamedStatementRunner } from "../db/dialect.js";
import {
  createTestApp,
  createTestDatabase,
  testConfig,
  type TestApp,
  type TestDatabase,
} from "../../testing/test-app.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { findSubmissionByIndexNumber } from "./repository.js";
import { createSqliteDatabase, migrateToLatest, nowIso } from "../db/database.js";
import {
  readStatusForSession,
  readSubmissionStatus,
  submissionByIndexNumber,
} from "./status-read.js";

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

const tokenOf = (user: { bearer: Record<string, string> }) =>
  (user.bearer.authorization ?? "").replace(/^Bearer /, "");

describe("the status read with its session, in one statement", () => {
  it("finds the same user and status as the two separate reads", async () => {
    const submission = await makeSubmission(database.db, { studentName: "Kofi Boateng" });
    const student = await createUser(database.db, "student", {
      indexNumber: submission.indexNumber,
    });
    const token = tokenOf(student);
    const read = await readStatusForSession(database.db, token, submission.indexNumber);
    expect(read.user).toEqual(await findSessionUser(database.db, token));
    expect(read.user?.indexNumber).toBe(submission.indexNumber);
    expect(read.status).toEqual(await readSubmissionStatus(database.db, submission.indexNumber));
    expect(read.status?.studentName).toBe("Kofi Boateng");
  });

  it("finds the user when no submission has the index number", async () => {
    const student = await createUser(database.db, "student", { indexNumber: "55500077" });
    const read = await readStatusForSession(database.db, tokenOf(student), "55500077");
    expect(read.user?.id).toBe(student.id);
    expect(read.status).toBeNull();
  });

  it("finds nobody, and no status, for an unknown token", async () => {
    const submission = await makeSubmission(database.db);
    const read = await readStatusForSession(database.db, "not-a-token", submission.indexNumber);
    expect(read).toEqual({ user: null, status: null });
  });

  it("refuses an expired session, deletes it, and gives no status", async () => {
    const submission = await makeSubmission(database.db);
    const student = await createUser(database.db, "student", {
      indexNumber: submission.indexNumber,
    });
    await database.db
      .updateTable("sessions")
      .set({ expires_at: nowIso(new Date(Date.now() - 1000)) })
      .where("user_id", "=", student.id)
      .execute();
    const read = await readStatusForSession(database.db, tokenOf(student), submission.indexNumber);
    expect(read).toEqual({ user: null, status: null });
    const left = await database.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", student.id)
      .execute();
    expect(left).toEqual([]);
  });

  it("refuses the session of a deactivated user", async () => {
    const submission = await makeSubmission(database.db);
    const student = await createUser(database.db, "student", {
      indexNumber: submission.indexNumber,
    });
    await database.db
      .updateTable("users")
      .set({ active: 0 })
      .where("id", "=", student.id)
      .execute();
    const read = await readStatusForSession(database.db, tokenOf(student), submission.indexNumber);
    expect(read).toEqual({ user: null, status: null });
  });

  it("touches last_seen_at when the session was last seen over a minute ago", async () => {
    const student = await createUser(database.db, "student", { indexNumber: "55500078" });
    const longAgo = nowIso(new Date(Date.now() - 5 * 60 * 1000));
    await database.db
      .updateTable("sessions")
      .set({ last_seen_at: longAgo })
      .where("user_id", "=", student.id)
      .execute();
    const now = new Date();
    await readStatusForSession(database.db, tokenOf(student), "55500078", now);
    const session = await database.db
      .selectFrom("sessions")
      .select("last_seen_at")
      .where("user_id", "=", student.id)
      .executeTakeFirstOrThrow();
    expect(session.last_seen_at).toBe(nowIso(now));
  });
});

describe("GET /api/submissions/:indexNumber, which reads its session itself", () => {
  let t: TestApp;
  let student: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    student = await createUser(t.db, "student", { indexNumber: "81000001" });
    await makeSubmission(t.db, { indexNumber: "81000001", studentName: "Ama Owusu" });
    await makeSubmission(t.db, { indexNumber: "81000002", studentName: "Someone Else" });
  });
  afterAll(async () => {
    await t.close();
  });
  const read = (indexNumber: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: `/api/submissions/${indexNumber}`, headers });

  it("answers the student's own status by bearer token and by cookie", async () => {
    for (const headers of [student.bearer, student.headers]) {
      const res = await read("81000001", headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        data: { indexNumber: "81000001", studentName: "Ama Owusu" },
      });
    }
  });

  it("gives another student's index number 403 whether or not it exists", async () => {
    for (const other of ["81000002", "81009999"]) {
      const res = await read(other, student.bearer);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: "forbidden" });
    }
  });

  it("gives a student with no submission yet 404, and an administrator every status", async () => {
    const newcomer = await createUser(t.db, "student", { indexNumber: "81000003" });
    const missing = await read("81000003", newcomer.bearer);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "not_found" });
    const admin = await createUser(t.db, "admin");
    const res = await read("81000002", admin.bearer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { studentName: "Someone Else" } });
  });

  it("answers 401 with no session, an unknown or overlong token, or an expired session", async () => {
    const expiring = await createUser(t.db, "student", { indexNumber: "81000004" });
    await t.db
      .updateTable("sessions")
      .set({ expires_at: nowIso(new Date(Date.now() - 1000)) })
      .where("user_id", "=", expiring.id)
      .execute();
    for (const headers of [
      {},
      { authorization: "Bearer unknown-token" },
      { authorization: `Bearer ${"x".repeat(201)}` },
      expiring.bearer,
    ]) {
      const res = await read("81000004", headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: "unauthorized" });
    }
  });

  it("still validates the index number before it answers", async () => {
    const res = await read("x".repeat(41), student.bearer);
    expect(res.statusCode).toBe(400);
  });
});

describe("the status read's statements", () => {
  it("runs one statement per request on SQLite: the session and the submission together", async () => {
    // SQLite's statement cache counts every statement run, whichever database the suite uses.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-status-statements-"));
    const { db, statements } = createSqliteDatabase(path.join(dir, "test.sqlite"));
    const app = await buildApp(testConfig({ DATABASE_URL: `sqlite:${dir}/test.sqlite` }), {
      db,
      webRoot: path.join(os.tmpdir(), "ets-no-web"),
    });
    try {
      await migrateToLatest(db);
      await makeSubmission(db, { indexNumber: "83000001" });
      const student = await createUser(db, "student", { indexNumber: "83000001" });
      const read = () =>
        app.inject({ method: "GET", url: "/api/submissions/83000001", headers: student.bearer });
      expect((await read()).statusCode).toBe(200);
      const before = statements.stats();
      expect((await read()).statusCode).toBe(200);
      const after = statements.stats();
      expect(after.hits + after.misses - (before.hits + before.misses)).toBe(1);
    } finally {
      await app.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
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

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import pg from "pg";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { migrateToLatest } from "./database.js";
import { isUniqueViolation } from "./dialect.js";
import { loadSampleData, readSampleRecords, sampleContextForFolder } from "../sample-data.js";
import {
  countSubmissions,
  findSubmissionById,
  findSubmissionByIndexNumber,
  insertSubmission,
} from "../submissions/repository.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const fields = (indexNumber: string): SubmissionFields => ({
  studentName: "Kwame Owusu-Ansah",
  indexNumber,
  programme: "PhD Chemistry",
  contact: "024 000 0000",
  studentEmail: "kwame@st.school.edu",
  documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: "2025-01-15" } },
  sgsStage: "sent_to_examiners",
  internalExaminer: "received",
  externalExaminer: null,
  thesisStatus: "Initial Submission",
  effectiveDate: "2025-02-01",
});

describe("database", () => {
  it("applies migrations once; running them again changes nothing", async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it("round-trips a submission with every field", async () => {
    const created = await insertSubmission(
      database.db,
      fields("20000001"),
      "2025-03-01T10:00:00.000Z",
    );
    expect(created.version).toBe(1);
    const found = await findSubmissionByIndexNumber(database.db, "20000001");
    expect(found).toEqual(created);
    expect(found).toMatchObject({ ...fields("20000001"), createdAt: "2025-03-01T10:00:00.000Z" });
    expect(await findSubmissionById(database.db, created.id)).toEqual(created);
  });

  it("refuses a second submission with the same index number", async () => {
    await insertSubmission(database.db, fields("20000002"), "2025-03-01T10:00:00.000Z");
    const error = await insertSubmission(
      database.db,
      fields("20000002"),
      "2025-03-01T10:00:00.000Z",
    ).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("enforces foreign keys", async () => {
    const insert = database.db
      .insertInto("submission_events")
      .values({
        submission_id: 999999,
        at: "x",
        field: "f",
        kind: "edit",
        confirmed_out_of_order: 0,
        actor_user_id: null,
        from_value: null,
        to_value: null,
      })
      .execute();
    await expect(insert).rejects.toThrow();
  });

  it("uses WAL and foreign keys on SQLite", async () => {
    if (database.kind !== "sqlite") return expect(database.kind).toBe("postgres");
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
    expect(journal.rows[0]?.journal_mode).toBe("wal");
    expect(fk.rows[0]?.foreign_keys).toBe(1);
  });

  it("keeps serving after PostgreSQL closes an idle connection (a restart, a terminate)", async () => {
    if (database.kind !== "postgres") return expect(database.kind).toBe("sqlite");
    const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    const pid = before.rows[0]?.pid;
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await admin.end();
    // The idle client learns of it asynchronously; an unhandled pool error would end the process.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    expect(after.rows[0]?.pid).not.toBe(pid);
  });
});

describe("sample data", () => {
  it("loads every record into an empty database, keeping ids, and loads nothing the second time", async () => {
    const fresh = await createTestDatabase();
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sample-files-"));
    const ctx = sampleContextForFolder(filesDir);
    try {
      const records = readSampleRecords();
      expect(await loadSampleData(fresh.db, ctx)).toBe(records.length);
      expect(await countSubmissions(fresh.db)).toBe(records.length);
      expect(await loadSampleData(fresh.db, ctx)).toBe(0);
      expect(await countSubmissions(fresh.db)).toBe(records.length);

      const first = await findSubmissionById(fresh.db, 1);
      expect(first?.indexNumber).toBe(records[0]?.IndexNumber);
      expect(first?.thesisStatus).toBe("Initial Submission");
      const last = records[records.length - 1];
      expect((await findSubmissionById(fresh.db, 479))?.indexNumber).toBe(last?.IndexNumber);

      // New submissions continue after the sample ids on both dialects.
      const next = await insertSubmission(fresh.db, fields("30000001"), new Date().toISOString());
      expect(next.id).toBeGreaterThan(479);
    } finally {
      await fresh.drop();
      fs.rmSync(filesDir, { recursive: true, force: true });
    }
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import { submissionListQuerySchema } from "../../common/submissions-api.js";
import {
  findSubmissionByIndexNumber,
  insertSubmission,
  listSubmissions,
  updateSubmissionFields,
} from "../submissions/repository.js";
import { createSqliteDatabase, migrateToLatest, type Db } from "./database.js";
import { StatementCache } from "./statement-cache.js";

// The cache is SQLite's own (PostgreSQL prepares on the server), so these tests open a SQLite file
// of their own whichever database the rest of the suite runs on.
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-statement-cache-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(capacity?: number): { sqlite: SQLite.Database; cache: StatementCache } {
  const sqlite = new SQLite(":memory:");
  sqlite.exec("create table t (id integer primary key, x text)");
  return { sqlite, cache: new StatementCache(sqlite, capacity) };
}

const fields = (indexNumber: string, studentName: string): SubmissionFields => ({
  studentName,
  indexNumber,
  programme: "MPhil Physics",
  contact: "024 000 0000",
  studentEmail: null,
  documents: emptyDocuments(),
  sgsStage: null,
  internalExaminer: null,
  externalExaminer: null,
  thesisStatus: "Initial Submission",
  effectiveDate: null,
});

describe("the prepared statement cache", () => {
  it("answers the same SQL with the same statement, and counts the hit", () => {
    const { cache } = scratch();
    const first = cache.prepare("select x from t where id = ?");
    const second = cache.prepare("select x from t where id = ?");
    expect(second).toBe(first);
    expect(cache.prepare("select id from t")).not.toBe(first);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, size: 2 });
    cache.close();
  });

  it("runs a cached statement again with new parameters", () => {
    const { cache } = scratch();
    const insert = "insert into t (x) values (?)";
    expect(cache.prepare(insert).run(["a"]).changes).toBe(1);
    expect(cache.prepare(insert).run(["b"]).changes).toBe(1);
    const select = "select x from t where x = ?";
    expect(cache.prepare(select).all(["a"])).toEqual([{ x: "a" }]);
    expect(cache.prepare(select).all(["b"])).toEqual([{ x: "b" }]);
    expect(cache.prepare(select).reader).toBe(true);
    expect(cache.prepare(insert).reader).toBe(false);
    cache.close();
  });

  it("stays within its capacity, dropping the least recently used statement", () => {
    const { cache } = scratch(3);
    const a = cache.prepare("select 1");
    cache.prepare("select 2");
    cache.prepare("select 3");
    expect(cache.prepare("select 1")).toBe(a); // now the most recently used
    cache.prepare("select 4"); // drops "select 2"
    expect(cache.stats().size).toBe(3);
    expect(cache.prepare("select 1")).toBe(a);
    const misses = cache.stats().misses;
    cache.prepare("select 2");
    expect(cache.stats().misses).toBe(misses + 1);
    for (let i = 0; i < 50; i += 1) cache.prepare(`select ${i + 10}`);
    expect(cache.stats().size).toBe(3);
    cache.close();
  });

  it("gives a fresh statement while the cached one is still iterating", () => {
    const { sqlite, cache } = scratch();
    sqlite.exec("insert into t (x) values ('a'), ('b')");
    const sql = "select x from t order by id";
    const streaming = cache.prepare(sql);
    const rows = streaming.iterate([]);
    expect(rows.next().value).toEqual({ x: "a" });
    const inner = cache.prepare(sql);
    expect(inner).not.toBe(streaming);
    expect(inner.all([])).toEqual([{ x: "a" }, { x: "b" }]);
    expect(rows.next().value).toEqual({ x: "b" });
    expect(rows.next().done).toBe(true);
    // Once the iteration is over the cached statement serves again.
    expect(cache.prepare(sql)).toBe(streaming);
    cache.close();
  });

  it("builds every reading statement's rows as better-sqlite3's own row objects would be", () => {
    const { sqlite, cache } = scratch();
    sqlite.exec(
      `create table u (id integer primary key, t_id integer, "odd ""name""" text, n real, b blob);
       insert into t (x) values ('a'), (null), ('c');
       insert into u (t_id, "odd ""name""", n, b) values
         (1, 'q', 1.5, x'00ff'), (3, null, -2, null)`,
    );
    const reads: [string, unknown[]][] = [
      ["select * from t order by id", []],
      ["select * from u order by id", []],
      // Two columns named id: the later one wins, in both modes.
      ["select t.*, u.* from t left join u on u.t_id = t.id order by t.id", []],
      ['select x, x as y, count(*) as "count(*)", 1 + 1 from t where id > ? group by x', [1]],
      ["select * from u where id = ?", [404]],
      ["insert into t (x) values (?) returning id, x", ["d"]],
    ];
    for (const [sql, parameters] of reads) {
      const plain = sqlite.prepare(sql);
      // The insert runs once only: its returned row is compared with the row it wrote.
      const expected = sql.startsWith("insert")
        ? null
        : (plain.all(...parameters) as Record<string, unknown>[]);
      const actual = cache.prepare(sql).all(parameters) as Record<string, unknown>[];
      const compared =
        expected ??
        (sqlite.prepare("select id, x from t order by id desc limit 1").all() as unknown[]);
      expect(actual).toEqual(compared);
      // Own fields only, in the same order, with nothing on the prototype.
      for (const [i, row] of actual.entries()) {
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        expect(Object.keys(row)).toEqual(Object.keys(compared[i] as object));
      }
    }
    const iterated = [...cache.prepare("select * from u order by id").iterate([])];
    expect(iterated).toEqual(sqlite.prepare("select * from u order by id").all());
    // A column named __proto__ is an own field of the row, not its prototype (better-sqlite3's
    // own objects drop it: a string cannot be a prototype).
    const [odd] = cache.prepare(`select 'p' as "__proto__", 1 as one`).all([]) as object[];
    expect(Object.getOwnPropertyDescriptor(odd, "__proto__")?.value).toBe("p");
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    cache.close();
  });

  it("names the columns anew when a statement run through it changes the schema", () => {
    const { sqlite, cache } = scratch();
    sqlite.exec("insert into t (x) values ('a')");
    const all = "select * from t";
    expect(cache.prepare(all).all([])).toEqual([{ id: 1, x: "a" }]);
    // A renamed column: as many values as before, under another name.
    cache.prepare("alter table t rename column x to label").run([]);
    expect(cache.prepare(all).all([])).toEqual([{ id: 1, label: "a" }]);
    cache.prepare("alter table t add column extra text default 'e'").run([]);
    expect(cache.prepare(all).all([])).toEqual([{ id: 1, label: "a", extra: "e" }]);
    cache.close();
  });

  it("refuses a capacity below one", () => {
    const sqlite = new SQLite(":memory:");
    expect(() => new StatementCache(sqlite, 0)).toThrow(/at least one/);
    sqlite.close();
  });
});

describe("the SQLite database behind Kysely", () => {
  let db: Db;
  let statements: StatementCache;
  beforeAll(async () => {
    ({ db, statements } = createSqliteDatabase(path.join(dir, "app.sqlite")));
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it("serves repeated repository reads from cached statements, with the right answers", async () => {
    const created = await insertSubmission(
      db,
      fields("30000001", "Ama Mensah"),
      "2025-01-01T00:00:00.000Z",
    );
    await insertSubmission(db, fields("30000002", "Kofi Boateng"), "2025-01-02T00:00:00.000Z");
    const before = statements.stats();
    for (let i = 0; i < 5; i += 1) {
      expect(await findSubmissionByIndexNumber(db, "30000001")).toEqual(created);
    }
    expect(await findSubmissionByIndexNumber(db, "30000009")).toBeNull();
    const after = statements.stats();
    // One SQL text for all six reads: prepared at most once, then reused.
    expect(after.misses - before.misses).toBeLessThanOrEqual(1);
    expect(after.hits - before.hits).toBeGreaterThanOrEqual(5);
  });

  it("sees writes between two runs of the same cached statement", async () => {
    const query = submissionListQuerySchema.parse({});
    const first = await listSubmissions(db, query);
    const kofi = await findSubmissionByIndexNumber(db, "30000002");
    if (!kofi) throw new Error("Kofi's submission is missing");
    await updateSubmissionFields(
      db,
      kofi.id,
      { ...fields("30000002", "Abena Kofi"), sgsStage: "awaiting_review" },
      "2025-01-03T00:00:00.000Z",
      kofi.version,
    );
    const hits = statements.stats().hits;
    const second = await listSubmissions(db, query);
    expect(statements.stats().hits).toBeGreaterThan(hits);
    expect(first.items.map((s) => s.studentName)).toEqual(["Ama Mensah", "Kofi Boateng"]);
    expect(second.items.map((s) => s.studentName)).toEqual(["Abena Kofi", "Ama Mensah"]);
    expect(second.total).toBe(2);
    expect(second.items[0]?.sgsStage).toBe("awaiting_review");
  });

  it("rolls back a failed transaction through cached statements", async () => {
    const error = await db
      .transaction()
      .execute(async (trx) => {
        await insertSubmission(trx, fields("30000003", "Yaw Asante"), "2025-01-04T00:00:00.000Z");
        throw new Error("halfway");
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(await findSubmissionByIndexNumber(db, "30000003")).toBeNull();
    // The same insert, through the same cached statement, works once the transaction is gone.
    await insertSubmission(db, fields("30000003", "Yaw Asante"), "2025-01-04T00:00:00.000Z");
    expect((await findSubmissionByIndexNumber(db, "30000003"))?.studentName).toBe("Yaw Asante");
  });
});

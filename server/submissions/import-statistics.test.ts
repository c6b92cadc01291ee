import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectOf } from "../db/dialect.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { csvLine } from "./csv.js";

/**
 * An import's apply leaves the planner's statistics describing the table it changed, when it
 * changed enough of it (docs/decisions/018-statistics-after-imports.md): searched right after a
 * bulk import, a database whose statistics predate it plans the search for a table that is gone.
 */

let t: TestApp;
let admin: TestUser;
let nextIndexNumber = 30_000_000;

beforeAll(async () => {
  // The server's synchronous_commit: VACUUM's visibility map, checked here, waits for commits to
  // reach the disk (testing/test-app.ts, TestDatabaseOptions).
  t = await createTestApp({}, {}, { synchronousCommit: true });
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

async function importNew(rows: number): Promise<void> {
  const lines = [csvLine(["StudentName", "IndexNumber", "Programme"])];
  for (let i = 0; i < rows; i += 1) {
    nextIndexNumber += 1;
    lines.push(csvLine([`Ama Student ${nextIndexNumber}`, String(nextIndexNumber), "MA English"]));
  }
  const head = Buffer.from(
    '--b\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n' +
      "Content-Type: text/csv\r\n\r\n",
  );
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/import/apply",
    headers: { ...admin.headers, "content-type": "multipart/form-data; boundary=b" },
    payload: Buffer.concat([head, Buffer.from(lines.join("")), Buffer.from("\r\n--b--\r\n")]),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ inserted: rows });
}

interface Statistics {
  /** The rows the planner believes the table holds, from its last statistics. */
  rows: number;
  /** When they were gathered (PostgreSQL), or a fingerprint of them (SQLite). */
  version: string | null;
}

/** What the planner knows of a table: PostgreSQL's pg_class and pg_stat, SQLite's sqlite_stat1. */
async function statisticsOf(table: string): Promise<Statistics> {
  if (dialectOf(t.db) === "postgres") {
    const { rows } = await sql<{
      reltuples: number;
      last_analyze: Date | null;
      columns: number | string;
    }>`
      select c.reltuples, s.last_analyze,
        (select count(*) from pg_stats p where p.tablename = c.relname) as columns
      from pg_class c join pg_stat_user_tables s on s.relid = c.oid
      where c.relname = ${table}`.execute(t.db);
    const row = rows[0];
    if (row === undefined) throw new Error(`no table ${table}`);
    // Analyzed means both: the time recorded and the columns' statistics written.
    const analyzed = row.last_analyze !== null && Number(row.columns) > 0;
    return {
      rows: Math.max(0, Number(row.reltuples)),
      version: analyzed ? (row.last_analyze?.toISOString() ?? null) : null,
    };
  }
  const { rows: exists } = await sql<{ n: number }>`
    select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(t.db);
  if (Number(exists[0]?.n) === 0) return { rows: 0, version: null };
  const { rows } = await sql<{ stat: string }>`
    select stat from sqlite_stat1 where tbl = ${table} order by idx`.execute(t.db);
  if (rows.length === 0) return { rows: 0, version: null };
  return {
    rows: Math.max(...rows.map((row) => Number.parseInt(row.stat, 10))),
    version: rows.map((row) => row.stat).join("|"),
  };
}

async function countOf(table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from ${sql.table(table)}`.execute(t.db);
  return Number(rows[0]?.n);
}

describe("planner statistics after an import", () => {
  it("an apply of many new records leaves fresh statistics (and on PostgreSQL a visibility map) on submissions and their search postings", async () => {
    for (const table of ["submissions", "submission_search_grams"]) {
      expect((await statisticsOf(table)).version, table).toBeNull();
    }
    await importNew(300);
    const submissions = await statisticsOf("submissions");
    expect(submissions.version).not.toBeNull();
    expect(submissions.rows).toBe(await countOf("submissions"));
    const postings = await statisticsOf("submission_search_grams");
    expect(postings.version).not.toBeNull();
    expect(postings.rows).toBe(await countOf("submission_search_grams"));
    expect((await statisticsOf("submission_search_vocabulary")).version).not.toBeNull();
    if (dialectOf(t.db) === "postgres") {
      // VACUUM's visibility map too: without it a count over the term postings' key visits the
      // table for every posting.
      const { rows } = await sql<{ relname: string; relpages: number; relallvisible: number }>`
        select relname, relpages, relallvisible from pg_class
        where relname in ('submissions', 'submission_search_grams')`.execute(t.db);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.relpages, row.relname).toBeGreaterThan(0);
        expect(row.relallvisible, row.relname).toBe(row.relpages);
      }
    }
  });

  it("an apply of a few records leaves the statistics as they were", async () => {
    const before = await statisticsOf("submissions");
    await importNew(10);
    expect(await statisticsOf("submissions")).toEqual(before);
  });

  it("changes add up: the statistics are refreshed once enough rows changed since the last time", async () => {
    const before = await statisticsOf("submissions");
    expect(before.rows).toBe(300);
    // 300 rows analyzed: 50 + 10 % of them is 80 changed rows; 10 are already counted.
    await importNew(30);
    expect(await statisticsOf("submissions")).toEqual(before);
    // 45 alone are not enough, 85 in all are.
    await importNew(45);
    const after = await statisticsOf("submissions");
    expect(after.version).not.toEqual(before.version);
    expect(after.rows).toBe(await countOf("submissions"));
  });
});

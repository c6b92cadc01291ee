import Database from "better-sqlite3";
import { CompiledQuery, Kysely, SqliteDialect, sql, type LogEvent } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SUBMISSION_SORTS,
  submissionListQuerySchema,
  type SubmissionListQuery,
} from "../../common/submissions-api.js";
import type { Database as Schema } from "../db/schema.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { generateSubmissions } from "../../scripts/bench-data.js";
import { insertWithTiedCreationTimes } from "../../testing/factories.js";
import { listSubmissions, type ListLimits } from "./repository.js";

// The list at scale finds its page in several ways (a count capped at LIST_TOTAL_CAP, the matches
// first, a walk along the sort index, a fallback); every way must give the rows, in the order, of
// the plain definition: filter every submission, sort by (column, id), take the page. The reference
// below is that definition, computed from the whole table in the database's own sort order.

let t: TestDatabase;
const SIZE = 600;

interface Reference {
  id: number;
  student_name: string;
  index_number: string;
  sgs_stage: string | null;
  internal_examiner: string | null;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const rows = generateSubmissions(SIZE, new Date("2026-01-01T00:00:00Z"));
  // Values shorter than a trigram, which one- and two-letter terms find through their own posting:
  // a name of one letter and of two, an index number of one character and of two.
  const short = (at: number, change: { studentName?: string; indexNumber?: string }) => {
    const row = rows[at];
    if (row === undefined) throw new Error(`No generated row ${at}.`);
    row.fields = { ...row.fields, ...change };
  };
  short(0, { studentName: "Q" });
  short(1, { studentName: "Qo" });
  short(SIZE - 1, { indexNumber: "Z" });
  short(SIZE - 2, { indexNumber: "zq" });
  await insertWithTiedCreationTimes(
    t.db,
    rows.map((r) => r.fields),
  );
});
afterAll(async () => {
  await t.drop();
});

const COLUMNS = {
  name: "student_name",
  indexNumber: "index_number",
  programme: "programme",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const;

/**
 * Every submission, in the list's order, as the database itself sorts them. Read once per sort and
 * order: no test here writes after the rows are loaded, and the thousands of queries the tests
 * check would otherwise read the whole table again each (most of this file's time on PostgreSQL).
 */
const rowsInOrder = new Map<string, Promise<Reference[]>>();
function everyRowInOrder(query: SubmissionListQuery): Promise<Reference[]> {
  const key = `${query.sort} ${query.order}`;
  let rows = rowsInOrder.get(key);
  if (rows === undefined) {
    rows = t.db
      .selectFrom("submissions")
      .select(["id", "student_name", "index_number", "sgs_stage", "internal_examiner"])
      .orderBy(COLUMNS[query.sort], query.order)
      .orderBy("id", query.order)
      .execute() as Promise<Reference[]>;
    rowsInOrder.set(key, rows);
  }
  return rows;
}

async function expected(query: SubmissionListQuery) {
  const term = query.q?.trim().toLowerCase();
  const matching = (await everyRowInOrder(query)).filter(
    (row) =>
      (term === undefined ||
        row.student_name.toLowerCase().includes(term) ||
        row.index_number.toLowerCase().includes(term)) &&
      (query.sgsStage === undefined ||
        row.sgs_stage === (query.sgsStage === "none" ? null : query.sgsStage)) &&
      (query.internalExaminer === undefined || row.internal_examiner === query.internalExaminer),
  );
  const offset = (query.page - 1) * query.pageSize;
  return {
    ids: matching.slice(offset, offset + query.pageSize).map((r) => r.id),
    total: matching.length,
  };
}

// Sorted by name, terms of three ASCII characters or more read the term postings
// (search-postings.test.ts covers their upkeep): "ama", "KWA" and "a m" from one gram, "mensah" and
// "yaa a" walking one gram's postings. One- and two-letter terms alone are counted (and, when
// few or when the walk fails, found) through the postings of the grams containing them: common
// ("a", "ma"), rare ("q", "qo", "zq", "Z", "wu"), digits ("1", "10").
const TERMS = [
  "q",
  "Qo",
  "zq",
  "Z",
  "wu",
  "mf",
  "%",
  "_a",
  "a",
  "ma",
  "ama",
  "mensah",
  "kwa",
  "KWA",
  "yaa",
  "yaa a",
  "a m",
  "1",
  "10",
  "zzq",
  "Ab",
  "ah",
  "x",
];

// Limits that force each way of finding the page, and the production ones.
// The forced ways merge no short term's page from its grams' postings (mergedPostings 0), which
// would otherwise find the page by name on PostgreSQL before them; one variant merges always.
const VARIANTS: Record<string, Partial<ListLimits>> = {
  production: {},
  "matches first always": { fewMatches: 1_000_000, mergedPostings: 0 },
  "walk always": { fewMatches: 0, walkRows: 1_000_000, mergedPostings: 0 },
  "walk too short, fallback": { fewMatches: 0, walkRows: 1, mergedPostings: 0 },
  "short walk, later pages fall back": { fewMatches: 0, walkRows: 25, mergedPostings: 0 },
  "short terms merged from their grams always": { fewMatches: 0, mergedPostings: 1_000_000 },
};

describe("listSubmissions: the same rows in the same order, whichever way finds them", () => {
  for (const [variant, limits] of Object.entries(VARIANTS)) {
    it(`terms, every sort, pages 1 and 3 (${variant})`, async () => {
      for (const q of TERMS) {
        for (const sort of SUBMISSION_SORTS) {
          for (const order of ["asc", "desc"]) {
            for (const page of ["1", "3"]) {
              const query = submissionListQuerySchema.parse({
                q,
                sort,
                order,
                page,
                pageSize: "10",
              });
              const got = await listSubmissions(t.db, query, limits);
              const want = await expected(query);
              expect({ q, sort, order, page, ids: got.items.map((s) => s.id) }).toEqual({
                q,
                sort,
                order,
                page,
                ids: want.ids,
              });
              expect(got.total).toBe(want.total);
              expect(got.totalCapped).toBe(false);
            }
          }
        }
      }
    });

    it(`filters with and without a term (${variant})`, async () => {
      const queries = [
        { sgsStage: "sent_to_examiners" },
        { sgsStage: "none", sort: "updatedAt", order: "desc" },
        { internalExaminer: "received", sort: "programme" },
        { q: "ama", sgsStage: "sent_to_examiners", sort: "updatedAt", order: "desc" },
        { q: "a", internalExaminer: "awaiting", sort: "createdAt", page: "2", pageSize: "5" },
        // Sorted by name with a filter: the postings walked, the filter tested row by row.
        { q: "ama", sgsStage: "sent_to_examiners" },
        { q: "kwa", sgsStage: "none", order: "desc", page: "2", pageSize: "5" },
        { q: "mensah", internalExaminer: "received", pageSize: "5" },
      ];
      for (const raw of queries) {
        const query = submissionListQuerySchema.parse(raw);
        const got = await listSubmissions(t.db, query, limits);
        const want = await expected(query);
        expect({ raw, ids: got.items.map((s) => s.id), total: got.total }).toEqual({
          raw,
          ids: want.ids,
          total: want.total,
        });
      }
    });
  }
});

describe("listSubmissions: the total is capped", () => {
  it("counts exactly up to the cap and says when more match", async () => {
    const all = submissionListQuerySchema.parse({});
    expect(await listSubmissions(t.db, all, { totalCap: SIZE })).toMatchObject({
      total: SIZE,
      totalCapped: false,
    });
    expect(await listSubmissions(t.db, all, { totalCap: SIZE - 1 })).toMatchObject({
      total: SIZE - 1,
      totalCapped: true,
    });
    const capped = await listSubmissions(t.db, all, { totalCap: 5 });
    expect(capped).toMatchObject({ total: 5, totalCapped: true });
    // The page is still a full page of the right rows: only the total stops at the cap.
    expect(capped.items.map((s) => s.id)).toEqual((await expected(all)).ids);
  });

  it("caps a term's count, through the search index and without it", async () => {
    // "a" and "ma" alone through their grams' postings (SQLite), with a filter from the rows.
    for (const raw of [{ q: "ama" }, { q: "a" }, { q: "ma" }, { q: "ma", sort: "programme" }]) {
      const query = submissionListQuerySchema.parse(raw);
      const { total } = await expected(query);
      expect(total).toBeGreaterThan(3);
      expect(await listSubmissions(t.db, query, { totalCap: 3 })).toMatchObject({
        total: 3,
        totalCapped: true,
      });
      expect(await listSubmissions(t.db, query, { totalCap: total })).toMatchObject({
        total,
        totalCapped: false,
      });
      expect(await listSubmissions(t.db, query, { totalCap: total - 1 })).toMatchObject({
        total: total - 1,
        totalCapped: true,
      });
    }
  });

  it("gives no rows past the last match, and none for a term nothing matches", async () => {
    const past = submissionListQuerySchema.parse({ q: "mensah", page: "1000" });
    expect((await listSubmissions(t.db, past)).items).toEqual([]);
    const none = await listSubmissions(t.db, submissionListQuerySchema.parse({ q: "zzq" }));
    expect(none).toMatchObject({ items: [], total: 0, totalCapped: false });
  });
});

describe("every sort of the list has its index", () => {
  it("has an index ordered by (column, id), or a unique one on the column", async () => {
    for (const sort of SUBMISSION_SORTS) {
      const column = COLUMNS[sort];
      const indexes =
        t.kind === "postgres"
          ? (
              await sql<{ definition: string }>`
                select indexdef as definition from pg_indexes where tablename = 'submissions'`.execute(
                t.db,
              )
            ).rows.map((r) => r.definition)
          : (
              await sql<{ definition: string }>`
                select sql as definition from sqlite_master
                where tbl_name = 'submissions' and type = 'index' and sql is not null`.execute(t.db)
            ).rows.map((r) => r.definition);
      const served = indexes.some(
        (definition) =>
          new RegExp(`\\(\\s*"?${column}"?\\s*,\\s*"?id"?\\s*\\)`).test(definition) ||
          (/unique/i.test(definition) &&
            new RegExp(`\\(\\s*"?${column}"?\\s*\\)`).test(definition)),
      );
      // SQLite's unique index on the index number is the table's own constraint (autoindex).
      const constraint = t.kind === "sqlite" && column === "index_number";
      expect({ sort, served: served || constraint }).toEqual({ sort, served: true });
    }
  });

  it("reads the first page with no term from the sort index, never a temporary sort (SQLite)", async () => {
    if (t.kind !== "sqlite") {
      // PostgreSQL's plan on a table this small is a sequential scan whatever the indexes; the
      // index test above and the benchmark cover it.
      expect(t.kind).toBe("postgres");
      return;
    }
    const file = t.url.replace(/^sqlite:/, "");
    const logged: CompiledQuery[] = [];
    const spy = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new Database(file) }),
      log: (event: LogEvent) => {
        if (event.level === "query") logged.push(event.query);
      },
    });
    try {
      for (const sort of SUBMISSION_SORTS) {
        for (const order of ["asc", "desc"]) {
          logged.length = 0;
          await listSubmissions(spy, submissionListQuerySchema.parse({ sort, order }));
          const page = logged.find((q) => /order by/i.test(q.sql));
          expect(page).toBeDefined();
          const plan = await spy.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${page?.sql ?? ""}`, [
              ...(page?.parameters ?? []),
            ]),
          );
          const details = plan.rows.map((r) => r.detail).join(" | ");
          expect({ sort, order, details }).toEqual({
            sort,
            order,
            details: expect.not.stringMatching(/TEMP B-TREE/) as unknown,
          });
          expect(details).toMatch(/USING (COVERING )?INDEX/);
        }
      }
    } finally {
      await spy.destroy();
    }
  });
});

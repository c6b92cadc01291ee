import Database from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import {
  submissionListQuerySchema,
  type SubmissionListQuery,
} from "../../common/submissions-api.js";
import type { Database as Schema } from "../db/schema.js";
import { createTestDatabase, testPool, type TestDatabase } from "../../testing/test-app.js";
import { generateSubmissions } from "../../scripts/bench-data.js";
import {
  insertSubmission,
  insertSubmissions,
  listSubmissions,
  updateSubmissionFields,
  type ListLimits,
} from "./repository.js";

// The term postings (migration 010_search_postings): each distinct trigram of a submission's
// lower-cased name and, apart, of its lower-cased index number, kept by database triggers. Two
// things must hold whatever writes the table: the postings are exactly those grams, and the list
// sorted by name (which reads them) gives the rows of the plain definition, filter every
// submission, sort by (student_name, id), take the page.

let t: TestDatabase;
const GENERATED = 300;
const AT = "2025-03-01T00:00:00.000Z";

function fields(studentName: string, indexNumber: string): SubmissionFields {
  return {
    studentName,
    indexNumber,
    programme: "MPhil Chemistry",
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

// Mixed case, a gram repeated within a name ("Anaana" holds "ana" twice), a gram in both the name
// and the index number ("ana" again), names that differ only in case, and names with letters
// outside ASCII.
const SPECIAL = [
  fields("Anaana Ana", "ANA-0001"),
  fields("ANAANA Mensah", "10999001"),
  fields("anaana mensah", "10999002"),
  fields("Kwabena Anaana", "AN/A-77"),
  fields("Ésí Ámá Kwàme", "10999003"),
  fields("Yaa Ɛsi Asantewaa", "10999004"),
  fields("Zoë Kwaku", "10999005"),
  // Values shorter than a trigram: each is its own posting, so a one- or two-letter term finds it.
  fields("Q", "10999006"),
  fields("Ab", "Z"),
  fields("Él", "é9"),
];

beforeAll(async () => {
  t = await createTestDatabase();
  const rows = generateSubmissions(GENERATED, new Date("2026-01-01T00:00:00Z"));
  await insertSubmissions(
    t.db,
    rows.map((r) => r.fields),
    AT,
  );
  for (const special of SPECIAL) await insertSubmission(t.db, special, AT);
});
afterAll(async () => {
  await t.drop();
});

/** Every posting, as "gram|name|id" lines, sorted. */
async function postings(): Promise<string[]> {
  const { rows } = await sql<{ gram: string; student_name: string; submission_id: number }>`
    select gram, student_name, submission_id from submission_search_grams`.execute(t.db);
  return rows.map((r) => `${r.gram}|${r.student_name}|${Number(r.submission_id)}`).sort();
}

/**
 * The postings there should be: computed here from the values the database's own lower() gives
 * (so the case folding of letters outside ASCII is the database's, as in its triggers).
 */
async function expectedPostings(): Promise<string[]> {
  const { rows } = await sql<{ id: number; name: string; lname: string; lindex: string }>`
    select id, student_name as name, lower(student_name) as lname, lower(index_number) as lindex
    from submissions`.execute(t.db);
  const out: string[] = [];
  for (const row of rows) {
    const grams = new Set<string>();
    for (const value of [row.lname, row.lindex]) {
      const chars = [...value];
      for (let i = 0; i + 3 <= chars.length; i += 1) grams.add(chars.slice(i, i + 3).join(""));
      if (chars.length > 0 && chars.length < 3) grams.add(value);
    }
    for (const gram of grams) out.push(`${gram}|${row.name}|${Number(row.id)}`);
  }
  return out.sort();
}

async function vocabulary(): Promise<string[]> {
  const { rows } = await sql<{ gram: string }>`
    select gram from submission_search_vocabulary`.execute(t.db);
  return rows.map((r) => r.gram).sort();
}

/**
 * The postings are exactly the grams of every row, and the vocabulary holds every gram they hold
 * (it may keep a gram whose last posting went: a lookup for nothing, never a wrong match).
 */
async function expectPostingsRight(): Promise<void> {
  const [got, want, words] = await Promise.all([postings(), expectedPostings(), vocabulary()]);
  expect(got.length).toBe(want.length);
  expect(got).toEqual(want);
  const inPostings = [...new Set(got.map((line) => line.split("|")[0] ?? ""))];
  const known = new Set(words);
  expect(inPostings.filter((gram) => !known.has(gram))).toEqual([]);
  expect(new Set(words).size).toBe(words.length);
}

interface NamedRow {
  id: number;
  student_name: string;
  index_number: string;
}

/** Every row, sorted by name as the database itself sorts them. */
function rowsByName(order: "asc" | "desc"): Promise<NamedRow[]> {
  return t.db
    .selectFrom("submissions")
    .select(["id", "student_name", "index_number"])
    .orderBy("student_name", order)
    .orderBy("id", order)
    .execute();
}

/**
 * The plain definition, computed from every row in the database's own sort order: the rows given,
 * read for the query's order since the last write, or read now.
 */
async function expected(
  query: SubmissionListQuery,
  rows?: NamedRow[],
): Promise<{ ids: number[]; total: number }> {
  const term = query.q?.trim().toLowerCase();
  const matching = (rows ?? (await rowsByName(query.order))).filter(
    (row) =>
      term === undefined ||
      row.student_name.toLowerCase().includes(term) ||
      row.index_number.toLowerCase().includes(term),
  );
  const offset = (query.page - 1) * query.pageSize;
  return {
    ids: matching.slice(offset, offset + query.pageSize).map((r) => r.id),
    total: matching.length,
  };
}

const TERMS = [
  "ana",
  "ANA",
  "aNaA",
  "anaana",
  "naan",
  "kwa",
  "yaa",
  "yaa a",
  "a a",
  "mensah",
  "ana-",
  "an/a",
  "109",
  "10999",
  "ésí",
  "ÉSÍ",
  "zoë",
  "zzq",
  // One- and two-letter terms: through the grams containing them, names and index numbers of one
  // and two characters among the matches.
  "q",
  "Q",
  "ab",
  "z",
  "a",
  "an",
  "9",
];

// Limits that force each way of finding a page sorted by name, and the production ones.
// The forced ways merge no short term's page from its grams' postings (mergedPostings 0); one
// variant merges always (PostgreSQL; SQLite has no such page and walks).
const VARIANTS: Record<string, Partial<ListLimits>> = {
  production: {},
  "walk the postings always": { fewMatches: 0, walkRows: 1_000_000, mergedPostings: 0 },
  "walk too short, fallback": { fewMatches: 0, walkRows: 1, mergedPostings: 0 },
  "short walk, later pages fall back": { fewMatches: 0, walkRows: 15, mergedPostings: 0 },
  "short terms merged from their grams always": { fewMatches: 0, mergedPostings: 1_000_000 },
};

async function expectListRight(terms: readonly string[] = TERMS): Promise<void> {
  // Read once for the hundreds of queries below, which write nothing.
  const byName = { asc: await rowsByName("asc"), desc: await rowsByName("desc") };
  for (const [variant, limits] of Object.entries(VARIANTS)) {
    for (const q of terms) {
      for (const order of ["asc", "desc"]) {
        for (const page of ["1", "2", "4"]) {
          const query = submissionListQuerySchema.parse({ q, order, page, pageSize: "7" });
          const got = await listSubmissions(t.db, query, limits);
          const want = await expected(query, byName[query.order]);
          expect({ variant, q, order, page, ids: got.items.map((s) => s.id) }).toEqual({
            variant,
            q,
            order,
            page,
            ids: want.ids,
          });
          expect({ variant, q, total: got.total }).toEqual({ variant, q, total: want.total });
        }
      }
    }
  }
}

async function idOf(indexNumber: string): Promise<number> {
  const row = await t.db
    .selectFrom("submissions")
    .select("id")
    .where("index_number", "=", indexNumber)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("term postings", () => {
  it("have a vocabulary of exactly their grams after inserts", async () => {
    const grams = [...new Set((await postings()).map((line) => line.split("|")[0] ?? ""))].sort();
    expect(await vocabulary()).toEqual(grams);
    expect(grams).toEqual(expect.arrayContaining(["q", "ab", "z"]));
  });

  it("hold each distinct gram of the name and of the index number, from the migration on", async () => {
    await expectPostingsRight();
    // "Anaana Ana" / "ANA-0001": "ana" three times in the name and once in the index number,
    // one posting.
    const id = await idOf("ANA-0001");
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from submission_search_grams where gram = 'ana' and submission_id = ${id}`.execute(
      t.db,
    );
    expect(Number(rows[0]?.n)).toBe(1);
    // No gram spans the name and the index number.
    const spanning = await sql<{ n: number }>`
      select count(*) as n from submission_search_grams where submission_id = ${id} and gram like '%n%a%n%'`.execute(
      t.db,
    );
    expect(Number(spanning.rows[0]?.n)).toBe(0);
  });

  it("list sorted by name gives the plain definition's rows, every way, asc and desc, later pages", async () => {
    await expectListRight();
  });

  it("follow a name change, an index-number change and a delete", async () => {
    // The app's edit path writes every editable column at once, the name among them.
    const renamed = await idOf("10999001");
    await updateSubmissionFields(t.db, renamed, fields("Yaa Kwakye Anaana", "10999001"), AT, null);
    const set = (indexNumber: string, change: { index_number?: string; programme?: string }) =>
      t.db.updateTable("submissions").set(change).where("index_number", "=", indexNumber).execute();
    await set("10999002", { index_number: "YAA-0002" });
    // An update of neither column leaves the postings alone.
    await set("10999003", { programme: "MA History" });
    await t.db.deleteFrom("submissions").where("index_number", "=", "AN/A-77").execute();
    await expectPostingsRight();
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from submission_search_grams where student_name = 'ANAANA Mensah'`.execute(
      t.db,
    );
    expect(Number(rows[0]?.n)).toBe(0);
    await expectListRight(["ana", "yaa", "anaana", "yaa-", "kwa", "an/a", "109"]);
  });

  it("follow an import-sized batch insert and a bulk update and delete", async () => {
    const batch = generateSubmissions(GENERATED + 1_000, new Date("2026-01-01T00:00:00Z"))
      .slice(GENERATED)
      .map((r) => r.fields);
    await insertSubmissions(t.db, batch, AT);
    await expectPostingsRight();
    // One statement renaming many rows at once, then one deleting many (PostgreSQL's statement
    // triggers see them together).
    await t.db
      .updateTable("submissions")
      .set({ student_name: sql<string>`student_name || ' Anaana'` })
      .where("id", "<=", 200)
      .execute();
    await t.db.deleteFrom("submissions").where("id", ">", 1_100).execute();
    await expectPostingsRight();
    await expectListRight(["ana", "anaana", "kwa", "yaa", "mensah", "ésí"]);
  });

  it("count a one- or two-letter term from the postings, never a scan of submissions", async () => {
    const logged: CompiledQuery[] = [];
    const log = (event: LogEvent) => {
      if (event.level === "query") logged.push(event.query);
    };
    const spy =
      t.kind === "sqlite"
        ? new Kysely<Schema>({
            dialect: new SqliteDialect({ database: new Database(t.url.replace(/^sqlite:/, "")) }),
            log,
          })
        : new Kysely<Schema>({
            dialect: new PostgresDialect({
              pool: testPool(t.url, { max: 1 }),
            }),
            log,
          });
    try {
      // No match and a few: the count, then (for "q") the matches first from the postings.
      for (const q of ["zq", "q", "Ab"]) {
        logged.length = 0;
        const query = submissionListQuerySchema.parse({ q, sort: "createdAt" });
        const got = await listSubmissions(spy, query);
        expect(got.total).toBe((await expected(query)).total);
        expect(logged.some((l) => /submission_search_vocabulary/.test(l.sql))).toBe(true);
        if (t.kind === "postgres") {
          // The plan on a table this small says little; the queries say the term was never tested
          // on the submissions' own text (search_text, or the walk's lower(...) like).
          expect({ q, sql: logged.map((l) => l.sql) }).toEqual({
            q,
            sql: expect.not.arrayContaining([expect.stringMatching(/like lower/)]) as unknown,
          });
          continue;
        }
        // A copy: the spy logs the plans asked for below too.
        for (const run of logged.filter((l) => /^\s*(select|with)\b/i.test(l.sql))) {
          const plan = await spy.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${run.sql}`, [...run.parameters]),
          );
          const details = plan.rows.map((r) => r.detail).join(" | ");
          expect({ q, sql: run.sql, details }).toEqual({
            q,
            sql: run.sql,
            details: expect.not.stringMatching(/SCAN submissions\b/) as unknown,
          });
        }
      }
      // Sorted by name, a short term's page merged from its grams' postings (PostgreSQL: a
      // lateral join; SQLite: one limited subquery per gram): nothing else read.
      for (const q of ["q", "an"]) {
        logged.length = 0;
        const query = submissionListQuerySchema.parse({ q, page: "2", pageSize: "5" });
        const got = await listSubmissions(spy, query);
        expect(got.items.map((s) => s.id)).toEqual((await expected(query)).ids);
        const merged = t.kind === "postgres" ? /cross join lateral/ : /union all/;
        expect(logged.some((l) => merged.test(l.sql))).toBe(true);
        expect(logged.some((l) => /like lower|student_name like/.test(l.sql))).toBe(false);
      }
    } finally {
      await spy.destroy();
    }
  });

  it("serve a three-letter term's page by name from the postings' key, without sorting the matches (SQLite)", async () => {
    if (t.kind !== "sqlite") {
      // The plan is SQLite's; PostgreSQL's on a table this small says little (the benchmark does).
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
      for (const order of ["asc", "desc"]) {
        logged.length = 0;
        const query = submissionListQuerySchema.parse({ q: "Kwa", order, page: "2" });
        const got = await listSubmissions(spy, query);
        expect(got.items.map((s) => s.id)).toEqual((await expected(query)).ids);
        const page = logged.find((q) => /submission_search_grams/.test(q.sql));
        expect(page).toBeDefined();
        const plan = await spy.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${page?.sql ?? ""}`, [...(page?.parameters ?? [])]),
        );
        const details = plan.rows.map((r) => r.detail).join(" | ");
        // The gram's postings by their key; submissions only by id; no scan of either.
        expect(details).toMatch(/SEARCH submission_search_grams USING PRIMARY KEY \(gram=\?\)/);
        expect(details).toMatch(/SEARCH submissions USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(details).not.toMatch(/SCAN submissions/);
      }
    } finally {
      await spy.destroy();
    }
  });
});

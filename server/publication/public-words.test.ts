import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { publishThesis } from "../../testing/public-theses.js";
import { createUser } from "../../testing/factories.js";
import { dialectOf, publicSearchWords } from "../db/dialect.js";
import { listPublicTheses, type PublicListLimits } from "./public-repository.js";

/**
 * The public list's word postings (migration 028, PostgreSQL only): kept equal to the listed
 * theses' words by every write, and the term searches they answer equal to the list's definition.
 * On SQLite the migration does nothing and the searches take the FTS5 path: the same oracle.
 */

let t: TestApp;
let postgres: boolean;
const ids: number[] = [];

const names = ["Ama Mensah", "Kofi Owusu", "Yaa Mensah-Bonsu", "Kwame O'Brien", "Adwoa Ɔsei"];
const titles = [
  "Cocoa prices and smallholder farmers",
  "Mobile money: 50% of savings",
  "Groundwater_recharge in the Volta basin",
  'The "informal" economy of Kumasi',
  "Drainage, flooding and cocoa-farming",
];
const keywordSets = [["cocoa", "price risk"], ["mobile money"], ["ghana", "water"], ["policy"]];

beforeAll(async () => {
  t = await createTestApp({});
  postgres = dialectOf(t.db) === "postgres";
  for (let i = 0; i < 15; i++) {
    ids.push(
      await publishThesis(t, {
        studentName: names[i % names.length] as string,
        title: `${titles[i % titles.length] as string} ${i}`,
        keywords: keywordSets[i % keywordSets.length] as string[],
        // Two theses share each moment: the submission id breaks the tie.
        publishedAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 2))).toISOString(),
      }),
    );
  }
});
afterAll(async () => {
  await t.close();
});

/** A text's words: split at every ASCII character that is not a letter or a digit. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  let word = "";
  for (const c of text) {
    if (c < "\u0080" && !/[a-z0-9]/i.test(c)) {
      if (word !== "") words.push(word);
      word = "";
    } else word += c;
  }
  if (word !== "") words.push(word);
  return words;
}

/** The listed theses, read from the tables by the list's definition. */
async function listedTheses() {
  const rows = await t.db
    .selectFrom("publications as p")
    .innerJoin("submissions as s", "s.id", "p.submission_id")
    .select(["p.submission_id", "p.published_at", "p.keywords", "s.thesis_title", "s.student_name"])
    .where("p.published_at", "is not", null)
    .where("p.withdrawn_at", "is", null)
    .where("p.award_date", "is not", null)
    .where("p.embargo_choice", "is not", null)
    .where("p.licence_version", "is not", null)
    .where("p.degree_id", "is not", null)
    .execute();
  return rows.map((r) => ({
    id: Number(r.submission_id),
    publishedAt: String(r.published_at),
    text: [r.thesis_title ?? "", r.student_name, ...(JSON.parse(r.keywords) as string[])]
      .join("\u001f")
      .toLowerCase(),
  }));
}

/** The postings as they should be, recomputed here: each distinct word of each listed thesis. */
async function recomputedPostings(): Promise<string[]> {
  const out = new Set<string>();
  for (const thesis of await listedTheses()) {
    for (const word of wordsOf(thesis.text)) out.add(`${word} ${thesis.publishedAt} ${thesis.id}`);
  }
  return [...out].sort();
}

async function storedPostings(): Promise<string[]> {
  const { rows } = await sql<{ word: string; published_at: string; submission_id: number }>`
    select word, published_at, submission_id from publication_word_postings`.execute(t.db);
  return rows.map((r) => `${r.word} ${r.published_at} ${Number(r.submission_id)}`).sort();
}

/** Every posted word is in the vocabulary (stale words may stay). */
async function unknownWords(): Promise<string[]> {
  const { rows } = await sql<{ word: string }>`
    select distinct p.word from publication_word_postings p
    where not exists (select 1 from publication_search_words w where w.word = p.word)`.execute(
    t.db,
  );
  return rows.map((r) => r.word);
}

async function expectPostingsInStep(step: string): Promise<void> {
  if (!postgres) return;
  const want = await recomputedPostings();
  expect(want.length).toBeGreaterThan(0);
  expect({ step, postings: await storedPostings() }).toEqual({ step, postings: want });
  expect(await unknownWords()).toEqual([]);
}

/** The list of a term by its definition: a substring of the text, newest first. */
async function expected(q: string): Promise<number[]> {
  const term = q.trim().toLowerCase();
  return (await listedTheses())
    .filter((r) => r.text.includes(term))
    .sort((a, b) =>
      a.publishedAt === b.publishedAt ? b.id - a.id : a.publishedAt < b.publishedAt ? 1 : -1,
    )
    .map((r) => r.id);
}

async function allPages(q: string, limits: Partial<PublicListLimits>) {
  const found: number[] = [];
  let total = -1;
  for (let page = 1; page <= 30; page++) {
    const result = await listPublicTheses(t.db, { q, page }, 3, limits);
    total = result.total;
    found.push(...result.items.map((i) => i.submissionId));
    if (result.items.length < 3) break;
  }
  return { found, total };
}

describe("the word postings (PostgreSQL)", () => {
  it("are created on PostgreSQL only", async () => {
    const { rows } = postgres
      ? await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
          where table_name in ('publication_word_postings', 'publication_search_words')`.execute(
          t.db,
        )
      : await sql<{ n: number }>`select count(*) as n from sqlite_master
          where name in ('publication_word_postings', 'publication_search_words')`.execute(t.db);
    expect(Number(rows[0]?.n)).toBe(postgres ? 2 : 0);
  });

  it("hold each listed thesis's words after publication", async () => {
    await expectPostingsInStep("published");
    if (postgres) {
      // Words split at punctuation, the hyphen and chr(31); a non-ASCII letter is part of a word.
      const words = await storedPostings();
      for (const word of ["mensah", "bonsu", "o", "brien", "ɔsei", "groundwater", "recharge"]) {
        expect(words.some((p) => p.startsWith(`${word} `))).toBe(true);
      }
      expect(words.some((p) => p.startsWith("mensah-bonsu "))).toBe(false);
    }
  });

  it("follow every write to a thesis's text or its place on the list", async () => {
    const id = ids[3] as number;
    const other = ids[4] as number;
    const admin = await createUser(t.db, "admin", { name: "Efua Registrar" });
    const publication = t.db.updateTable("publications");

    await publication
      .set({ keywords: JSON.stringify(["haemoglobin", "sickle cell"]) })
      .where("submission_id", "=", id)
      .execute();
    await expectPostingsInStep("keywords edited");

    await publication
      .set({ withdrawn_at: "2026-09-01T00:00:00.000Z", withdrawn_reason: "Duplicate" })
      .where("submission_id", "=", id)
      .execute();
    await expectPostingsInStep("withdrawn");
    await publication
      .set({ withdrawn_at: null, withdrawn_reason: null })
      .where("submission_id", "=", id)
      .execute();
    await expectPostingsInStep("withdrawal undone");

    await publication.set({ award_date: null }).where("submission_id", "=", other).execute();
    await expectPostingsInStep("a listing condition cleared");
    await publication
      .set({ award_date: "2026-07-30" })
      .where("submission_id", "=", other)
      .execute();
    await expectPostingsInStep("a listing condition restored");

    await publication
      .set({ published_at: "2026-10-05T00:00:00.000Z" })
      .where("submission_id", "=", id)
      .execute();
    await expectPostingsInStep("published_at changed");

    // The submission's title (as a metadata correction writes it), then the student's name
    // through the administrators' form.
    await t.db
      .updateTable("submissions")
      .set({ thesis_title: "Sickle-cell screening in Accra" })
      .where("id", "=", id)
      .execute();
    await expectPostingsInStep("title changed");
    const { version } = await t.db
      .selectFrom("submissions")
      .select("version")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const response = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${id}`,
      headers: admin.headers,
      payload: { version, changes: { studentName: "Adjoa Quaye" } },
    });
    expect(response.statusCode).toBe(200);
    await expectPostingsInStep("student name changed");
    expect(await expected("quaye")).toEqual([id]);

    // A write that changes neither the text nor the date leaves the postings as they are.
    const before = postgres ? await storedPostings() : [];
    await publication.set({ department: "Department of Biochemistry" }).execute();
    if (postgres) expect(await storedPostings()).toEqual(before);

    // One statement over many theses (the triggers work on the statement's rows together).
    await publication
      .set({ published_at: sql`replace(published_at, '2026-01', '2025-01')` })
      .where("submission_id", "in", ids.slice(0, 6))
      .execute();
    await expectPostingsInStep("many theses' dates in one statement");

    await t.db.deleteFrom("submissions").where("id", "=", other).execute();
    await expectPostingsInStep("deleted");

    // A fresh thesis published after all that.
    ids.push(await publishThesis(t, { studentName: "Esi Ghartey", title: "Tro-tro routes" }));
    await expectPostingsInStep("published later");
  });
});

describe("a term searched through the word postings", () => {
  // The word postings with the default number of words; with one word at most (a term in several
  // words falls back); never (the search index's paths).
  const ways: Partial<PublicListLimits>[] = [{}, { termWords: 1 }, { termWords: 0 }];
  const terms = [
    "mensah", // a whole word
    "MENSAH", // in another case
    "coc", // a prefix, of one word
    "oco", // an infix
    "ama", // a whole word (the name Ama)
    "in", // in several words, two of them in one title ("in", "basin"): kept once
    "ing",
    "a", // one letter, in most words
    "ɔsei", // beyond ASCII
    "mensah-bonsu", // a hyphen: a separator, the search index's path
    "o'brien",
    '"informal"',
    "50%",
    "%",
    "_",
    "r_c",
    "zzzz", // no word
    "quaye",
    "haemoglobin",
  ];

  it("finds exactly the list's matches, in its order, every way", async () => {
    for (const q of terms) {
      const want = await expected(q);
      for (const limits of ways) {
        const { found, total } = await allPages(q, limits);
        expect({ q, limits, found }).toEqual({ q, limits, found: want });
        expect(total).toBe(want.length);
      }
    }
    expect((await expected("mensah")).length).toBeGreaterThan(3);
    expect((await expected("oco")).length).toBeGreaterThan(3);
    expect((await expected("in")).length).toBeGreaterThan(6);
    expect((await expected("ɔsei")).length).toBeGreaterThan(0);
  });

  it("is taken on PostgreSQL for a term without a separator, not for one with", async () => {
    const words = async (q: string) => publicSearchWords(t.db, q, 20);
    if (!postgres) {
      expect(await words("mensah")).toBeUndefined();
      return;
    }
    expect(await words("MENSAH")).toEqual(["mensah"]);
    expect((await words("coc"))?.sort()).toEqual(["cocoa"]);
    expect((await words("oco"))?.sort()).toEqual(["cocoa"]);
    expect(await words("zzzz")).toEqual([]);
    // Several words, a thesis having two of them: the merge keeps it once.
    expect(await words("in")).toEqual(expect.arrayContaining(["in", "basin", "informal"]));
    expect(await words("ɔsei")).toEqual(["ɔsei"]);
    for (const q of ["mensah-bonsu", "o'brien", "50%", "%", "_", '"informal"', "price risk"]) {
      expect({ q, words: await words(q) }).toEqual({ q, words: undefined });
    }
    // More words than allowed: the search index's path.
    expect(await publicSearchWords(t.db, "a", 2)).toBeUndefined();
  });

  it("caps the total", async () => {
    const want = await expected("mensah");
    for (const limits of ways) {
      const result = await listPublicTheses(t.db, { q: "mensah", page: 2 }, 2, {
        ...limits,
        totalCap: 3,
      });
      expect({ limits, total: result.total, capped: result.totalCapped }).toEqual({
        limits,
        total: 3,
        capped: true,
      });
      expect(result.items.map((i) => i.submissionId)).toEqual(want.slice(2, 4));
    }
  });
});

import { sql, type Compilable, type RawBuilder, type SqlBool } from "kysely";
import { LIST_TOTAL_CAP } from "../../common/submissions-constants.js";
import type { Executor } from "../db/database.js";
import {
  countPublicSearchMatches,
  countPublicSearchWithKeyword,
  countPublicWordMatches,
  countPublicWordWithKeyword,
  isAsciiTerm,
  publicSearchCondition,
  publicSearchConditionAll,
  publicSearchInRange,
  publicListedInOrder,
  publicSearchRowByRow,
  publicSearchWords,
  publicWordMatchesPage,
} from "../db/dialect.js";

/**
 * What the public pages read (docs/decisions/027-oai-pmh-and-public-pages.md): the list of
 * published theses, searched with the administrators' list's own machinery (a trigram index, its
 * literal LIKE patterns, its capped total and its ways of finding a page; docs/decisions/006),
 * here over each listed thesis's title, author and keywords (migration 023_public_search), and the
 * sitemap's pages. Withdrawn theses keep their page but leave the list and the sitemap.
 */

export const PUBLIC_PAGE_SIZE = 20;
/** The sitemap protocol's limit of URLs per file: past it, a sitemap index. */
export const SITEMAP_PAGE_SIZE = 50_000;

export interface PublicListQuery {
  /** Matches the title, the author's name or a keyword (case-insensitive substring). */
  q?: string;
  /** Exactly this programme. */
  programme?: string;
  /** Exactly this keyword (the page's keyword links). */
  keyword?: string;
  /** 1-based. */
  page: number;
}

export interface PublicListItem {
  submissionId: number;
  title: string;
  author: string;
  programme: string;
  degreeName: string;
  awardDate: string;
}

export interface PublicListPage {
  items: PublicListItem[];
  /** Exact up to LIST_TOTAL_CAP. */
  total: number;
  totalCapped: boolean;
}

/** How the list chooses its way of finding a page (the admin list's ListLimits); tests pass small ones. */
export interface PublicListLimits {
  /** The total is counted up to this many; past it, totalCapped. */
  totalCap: number;
  /** At most this many matches are collected first, then sorted. */
  fewMatches: number;
  /** How many theses of the list's order a dense search walks before taking its matches first. */
  walkRows: number;
  /**
   * A term alone is counted and paged from the word postings (PostgreSQL, a term without a
   * separator) when it is in no more than this many of the vocabulary's words; 0: never.
   */
  termWords: number;
}

const PUBLIC_LIST_LIMITS: PublicListLimits = {
  totalCap: LIST_TOTAL_CAP,
  fewMatches: 2_000,
  walkRows: 5_000,
  termWords: 20,
};

/**
 * The listed publications alone: the conditions under which a thesis is on the list (the same as
 * the search index's, server/db/dialect.ts). A publication always has its submission (the key
 * cascades) and its degree when degree_id is set, so counts need no join.
 *
 * Within a programme, the list entry's programme alone: `list_programme` is set exactly when the
 * thesis is listed (migration 023's triggers), so it is the whole condition, and the programme's
 * theses are one range of publications_programme_order, read without visiting the table (the
 * listed conditions beside it would have SQLite read each row to test them).
 */
function listedPublications(db: Executor, programme?: string) {
  if (programme) {
    return db.selectFrom("publications as p").where("p.list_programme", "=", programme);
  }
  return db
    .selectFrom("publications as p")
    .where("p.published_at", "is not", null)
    .where("p.withdrawn_at", "is", null)
    .where("p.award_date", "is not", null)
    .where("p.embargo_choice", "is not", null)
    .where("p.licence_version", "is not", null)
    .where("p.degree_id", "is not", null);
}

/**
 * The same publications for a read in the list's order (a page, a walk and its bound): within a
 * programme its range as above; otherwise the listed condition as the dialect's list-order index
 * states it (publicListedInOrder), so the read is that index's range and no row is read to test
 * the conditions (at 1,000,000 the walk's bound, 5,000 theses in, took 7 to 40 ms that way on
 * SQLite, 0.1 ms from the index).
 */
function listedInOrder(db: Executor, programme?: string) {
  if (programme) return listedPublications(db, programme);
  return db.selectFrom("publications as p").where(publicListedInOrder(db));
}

/**
 * The same publications for a count with no other condition: `list_programme` set is the whole
 * listed condition (migration 023), which SQLite counts in the programme index and PostgreSQL in
 * its narrow partial index (migration 026), their entries alone.
 */
function countListed(db: Executor, programme?: string) {
  if (programme) return listedPublications(db, programme);
  return db.selectFrom("publications as p").where("p.list_programme", "is not", null);
}

// `submissions` is not aliased: the admin list's conditions name the table.
function listed(db: Executor, programme?: string) {
  return joinedForPage(listedPublications(db, programme));
}

function joinedForPage(q: ReturnType<typeof listedPublications>) {
  return q
    .innerJoin("submissions", "submissions.id", "p.submission_id")
    .innerJoin("degrees as d", "d.id", "p.degree_id");
}

type Listed = ReturnType<typeof listed>;

/**
 * A programme's theses read in its index range cost a fraction of a term's match looked up in the
 * table: at 1,000,000, "mensah" in a programme of 40,630 theses was counted in 26 ms (SQLite) and
 * 17 ms (PostgreSQL) by the range, 72 and 45 ms by its 14,634 matches. The range is read when the
 * programme has fewer than this many times the term's matches, and no more than
 * PROGRAMME_RANGE_LIMIT theses.
 */
const RANGE_PER_MATCH = 4;
const PROGRAMME_RANGE_LIMIT = 200_000;

/**
 * How the term is tested: through the index, on each row as the list's order is walked, or on
 * each thesis of a programme smaller than the term's matches (publicSearchInRange).
 */
type TermTest = "index" | "row" | "range";

/**
 * The query's term as a condition on the publication, beside the programme (listedPublications).
 * `term`: through the search index, or row by row (a walk; a term without a trigram is always
 * tested row by row). A keyword link is not here: listByKeyword reads it from its own table.
 */
function conditions(db: Executor, query: PublicListQuery, term: TermTest): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  const text = query.q?.trim();
  if (text) {
    out.push(
      term === "index"
        ? publicSearchCondition(db, text)
        : term === "range"
          ? publicSearchInRange(db, text)
          : publicSearchRowByRow(db, text),
    );
  }
  return out;
}

/** The listed theses (of the programme) meeting the conditions, joined for a page. */
function matching(
  db: Executor,
  programme: string | undefined,
  where: RawBuilder<SqlBool>[],
): Listed {
  return where.reduce((q, c) => q.where(c), listed(db, programme));
}

/**
 * A page found by collecting the matches first (through the index), in a materialized common
 * table expression, then sorting them: the way for a few matches, and when a walk falls short.
 */
function matchesFirstPage(
  db: Executor,
  programme: string | undefined,
  where: RawBuilder<SqlBool>[],
  pageSize: number,
  offset: number,
): Promise<PageRow[]> {
  return db
    .with(
      (cte) => cte("matches").materialized(),
      () => pageColumns(matching(db, programme, where)),
    )
    .selectFrom("matches")
    .selectAll()
    .orderBy("published_at", "desc")
    .orderBy("submission_id", "desc")
    .limit(pageSize)
    .offset(offset)
    .execute();
}

/** What a page shows of each thesis, and its place in the list's order. */
function pageColumns(q: Listed) {
  return q.select([
    "p.submission_id",
    "submissions.thesis_title",
    "submissions.student_name",
    "submissions.programme",
    "d.name as degree_name",
    "p.award_date",
    "p.published_at",
  ]);
}

interface PageRow {
  submission_id: number;
  thesis_title: string | null;
  student_name: string;
  programme: string;
  degree_name: string;
  award_date: string | null;
}

/** The list's order: newest first, the submission id breaking ties (index publications_list_order). */
function inListOrder(q: ReturnType<typeof pageColumns>) {
  return q.orderBy("p.published_at", "desc").orderBy("p.submission_id", "desc");
}

/**
 * One page of the public list and its total, capped as the admin list's
 * (docs/decisions/006-search.md). The rows and their order are always those of
 * `where listed and … order by published_at desc, submission_id desc limit … offset …`; how they
 * are found depends on how many match:
 * - none, or no more than the offset: no page query;
 * - a few (fewMatches): the matches first, through the search index when the term has a trigram,
 *   in a materialized common table expression, then sorted;
 * - many: the list's order walked (publications_list_order), each thesis tested row by row, within
 *   walkRows + offset theses; the matches are dense, so a page is found within a few hundred. When
 *   it is not, the matches first as above.
 * A term alone with a trigram is counted in the index itself (countPublicSearchMatches), which
 * holds listed theses only. On PostgreSQL, a term alone without a separator character, found in
 * no more than termWords of the vocabulary's words, is counted and paged from those words'
 * postings instead (migration 028: the postings merged in the list's order, index-only, stopping
 * at the cap or the page), then the page's columns read by id. A non-ASCII term is never walked (SQLite's LIKE folds ASCII case only,
 * its FTS5 index every letter's), as in the admin list.
 */
export async function listPublicTheses(
  db: Executor,
  query: PublicListQuery,
  pageSize = PUBLIC_PAGE_SIZE,
  limits: Partial<PublicListLimits> = {},
): Promise<PublicListPage> {
  const { totalCap, fewMatches, walkRows, termWords } = { ...PUBLIC_LIST_LIMITS, ...limits };
  const text = query.q?.trim() || undefined;
  const offset = (query.page - 1) * pageSize;
  if (query.keyword !== undefined) {
    return listByKeyword(db, query.keyword.trim(), text, query.programme, {
      pageSize,
      offset,
      totalCap,
      fewMatches,
      walkRows,
      termWords,
    });
  }
  const filtered = query.programme !== undefined;
  const unfiltered = text === undefined && !filtered;
  const page = (q: Listed): Promise<PageRow[]> =>
    inListOrder(pageColumns(q)).limit(pageSize).offset(offset).execute();

  // A term alone, on PostgreSQL, in a few words: their postings merged in the list's order.
  const words =
    text !== undefined && !filtered && termWords > 0
      ? await publicSearchWords(db, text, termWords)
      : undefined;
  if (words !== undefined) {
    const matched = await countPublicWordMatches(db, words, totalCap + 1);
    const ids = matched > offset ? await publicWordMatchesPage(db, words, pageSize, offset) : [];
    return pageOf(await pageByIds(db, ids), matched, totalCap);
  }

  // Within a programme, a common term: when the programme's theses (counted in its index range,
  // up to PROGRAMME_RANGE_LIMIT) are fewer than RANGE_PER_MATCH times the term's matches, its
  // theses are tested rather than the term's matches looked up; the term is counted far enough
  // to tell.
  const programmeSize =
    query.programme && text !== undefined
      ? await countRows(db, listedPublications(db, query.programme), PROGRAMME_RANGE_LIMIT + 1)
      : undefined;
  const rangeServes = programmeSize !== undefined && programmeSize <= PROGRAMME_RANGE_LIMIT;
  const termCount =
    text !== undefined
      ? await countPublicSearchMatches(
          db,
          text,
          Math.max(totalCap + 1, rangeServes ? Math.floor(programmeSize / RANGE_PER_MATCH) + 1 : 0),
        )
      : undefined;
  const inRange =
    rangeServes &&
    termCount !== undefined &&
    termCount > fewMatches &&
    programmeSize < RANGE_PER_MATCH * termCount;
  const indexed = conditions(db, query, inRange ? "range" : "index");
  // The capped count: a term alone is its index count, the index holding listed theses only.
  // With the programme, the matching rows are counted through the index (a common term's matches
  // are fewer than a programme's theses), or in the programme's range (inRange).
  const counted = text !== undefined && !filtered ? termCount : undefined;
  const countConditions =
    termCount !== undefined && termCount > fewMatches && query.programme === undefined
      ? conditions(db, query, "row")
      : indexed;
  // With no condition at all (the plain list, a programme's), the list-order index's range is
  // counted, its entries alone; with conditions, the listed conditions as they are (see
  // publicListedInOrder).
  const countBase = countConditions.reduce(
    (q, c) => q.where(c),
    countConditions.length === 0
      ? countListed(db, query.programme)
      : listedPublications(db, query.programme),
  );
  const matched = counted ?? (await countRows(db, countBase, totalCap + 1));
  const totalCapped = matched > totalCap;
  const expected = totalCapped ? pageSize : Math.max(0, Math.min(pageSize, matched - offset));

  const matchesFirst = () => matchesFirstPage(db, query.programme, indexed, pageSize, offset);

  let rows: PageRow[];
  if (expected === 0) rows = [];
  else if (unfiltered) rows = await page(joinedForPage(listedInOrder(db)));
  else if (inRange) {
    // The programme's range read in the list's order, its theses tested, to the page: no bound
    // needed, the range being smaller than the term's matches; the page's columns after, by id.
    rows = await pageByIds(
      db,
      await walkListOrder(db, query, undefined, pageSize, offset, "range"),
    );
  } else if (matched <= fewMatches) rows = await matchesFirst();
  else if (text !== undefined && !isAsciiTerm(text))
    rows = await page(matching(db, query.programme, indexed));
  else {
    const walked = await walkListOrder(db, query, walkRows + offset, pageSize, offset, "row");
    rows = walked.length >= expected ? await pageByIds(db, walked) : await matchesFirst();
  }
  return pageOf(rows, matched, totalCap);
}

function pageOf(rows: PageRow[], matched: number, totalCap: number): PublicListPage {
  return {
    items: rows.map(listItem),
    total: Math.min(matched, totalCap),
    totalCapped: matched > totalCap,
  };
}

function listItem(r: PageRow): PublicListItem {
  return {
    submissionId: Number(r.submission_id),
    title: r.thesis_title ?? "",
    author: r.student_name,
    programme: r.programme,
    degreeName: r.degree_name,
    awardDate: r.award_date ?? "",
  };
}

/** The page's columns for the ids found, in the list's order. */
async function pageByIds(db: Executor, ids: number[]): Promise<PageRow[]> {
  if (ids.length === 0) return [];
  return inListOrder(pageColumns(listed(db).where("p.submission_id", "in", ids))).execute();
}

/**
 * A keyword's listed theses (within the programme): one range of publication_keywords
 * (migration 025), in the list's order when read backwards, the keyword lower-cased by the
 * database on both sides (as it was when stored).
 */
function keywordRange(db: Executor, keyword: string, programme: string | undefined) {
  const range = db
    .selectFrom("publication_keywords as k")
    .where("k.keyword", "=", sql<string>`lower(${keyword})`);
  return programme ? range.where("k.list_programme", "=", programme) : range;
}

/**
 * The keyword's range, each thesis's text tested for the term row by row, in a scalar subquery:
 * planners do not turn that into a join, so the range drives (PostgreSQL, given a join, scanned
 * the table for the term and probed the keyword's key for each match). The listed conditions
 * beside the key let PostgreSQL read the text from the list's order index
 * (publications_list_order, partial, holding it) instead of the table.
 */
function keywordRangeWithTerm(
  db: Executor,
  keyword: string,
  programme: string | undefined,
  text: string,
) {
  const hit = listedPublications(db)
    .select(publicSearchRowByRow(db, text).as("hit"))
    .where(sql<SqlBool>`p.published_at = k.published_at and p.submission_id = k.submission_id`);
  return keywordRange(db, keyword, programme).where(sql<SqlBool>`${hit}`);
}

/**
 * "The thesis has this keyword", on `publications as p`: one seek of publication_keywords by
 * thesis (migration 027).
 */
function keywordHeld(keyword: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from publication_keywords as kh
    where kh.submission_id = p.submission_id and kh.keyword = lower(${keyword}))`;
}

/** How many rows the query has, counted no further than `limit`. */
async function countUpTo(
  db: Executor,
  q: { limit(limit: number): Compilable },
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from ${q.limit(limit)} as capped`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

interface PageWindow extends PublicListLimits {
  pageSize: number;
  offset: number;
}

/**
 * A keyword link (a thesis page's "exactly this keyword", case-insensitive), alone, within a
 * programme or with a term; the rows and their order those of the list's definition, as
 * listPublicTheses's:
 * - alone or within a programme: the capped count of its range, the page from the range in the
 *   list's order (index-only), then the page's columns by id;
 * - with a term the index finds few of (fewMatches), or a non-ASCII term (never tested row by
 *   row: SQLite's LIKE and its FTS5 index fold case differently): the term's matches through the
 *   index, each checked against the keyword by its key;
 * - with a common term, or one without a trigram: the keyword's range walked in the list's order,
 *   each thesis's text tested, within walkRows + offset of the range; the count the same test up
 *   to the cap. The matches first if the walk falls short.
 */
async function listByKeyword(
  db: Executor,
  keyword: string,
  text: string | undefined,
  programme: string | undefined,
  { pageSize, offset, totalCap, fewMatches, walkRows, termWords }: PageWindow,
): Promise<PublicListPage> {
  const expectedOf = (matched: number) =>
    matched > totalCap ? pageSize : Math.max(0, Math.min(pageSize, matched - offset));
  if (text === undefined) {
    const range = keywordRange(db, keyword, programme);
    const matched = await countUpTo(db, range.select("k.submission_id"), totalCap + 1);
    if (expectedOf(matched) === 0) return pageOf([], matched, totalCap);
    const ids = await range
      .select("k.submission_id")
      .orderBy("k.published_at", "desc")
      .orderBy("k.submission_id", "desc")
      .limit(pageSize)
      .offset(offset)
      .execute();
    return pageOf(
      await pageByIds(
        db,
        ids.map((r) => Number(r.submission_id)),
      ),
      matched,
      totalCap,
    );
  }

  // The term's matches, or (both having trigrams) the theses whose text holds the term and the
  // keyword, from one search of the index: the keyword held exactly implies its text, so this
  // only narrows what keywordHeld checks. A keyword with a control character is not in the text
  // as typed (the index's terms drop them), so it is checked on the term's matches alone.
  const both = /\p{Cc}/u.test(keyword) ? undefined : publicSearchConditionAll(db, [text, keyword]);
  const indexed = [both ?? publicSearchCondition(db, text), keywordHeld(keyword)];
  const matchesFirst = () => matchesFirstPage(db, programme, indexed, pageSize, offset);
  const termCount = await countPublicSearchMatches(db, text, fewMatches + 1);
  if (termCount !== undefined && (termCount <= fewMatches || !isAsciiTerm(text))) {
    const counted = indexed.reduce((q, c) => q.where(c), listedPublications(db, programme));
    const matched = await countUpTo(db, counted.select("p.submission_id"), totalCap + 1);
    const rows =
      expectedOf(matched) === 0
        ? []
        : matched <= fewMatches
          ? await matchesFirst()
          : await inListOrder(pageColumns(matching(db, programme, indexed)))
              .limit(pageSize)
              .offset(offset)
              .execute();
    return pageOf(rows, matched, totalCap);
  }

  // A common term: counted from the index's theses holding both texts, each checked for the
  // keyword, when the index can search both; otherwise along the keyword's range, testing the term.
  const tested = keywordRangeWithTerm(db, keyword, programme, text);
  // On PostgreSQL a term in one word: that word's postings merged with the keyword's range.
  const words = termWords > 0 ? await publicSearchWords(db, text, 1) : undefined;
  const matched =
    words?.length === 1
      ? await countPublicWordWithKeyword(db, words[0] as string, keyword, programme, totalCap + 1)
      : ((both === undefined
          ? undefined
          : await countPublicSearchWithKeyword(db, text, keyword, programme, totalCap + 1)) ??
        (await countUpTo(db, tested.select("k.submission_id"), totalCap + 1)));
  const expected = expectedOf(matched);
  if (expected === 0) return pageOf([], matched, totalCap);
  // The bound: the (published_at, submission_id) of the last entry of the range walked, read
  // from the range alone; undefined when the range is shorter, so the walk reads all of it.
  const bound = await keywordRange(db, keyword, programme)
    .select(["k.published_at", "k.submission_id"])
    .orderBy("k.published_at", "desc")
    .orderBy("k.submission_id", "desc")
    .limit(1)
    .offset(walkRows + offset - 1)
    .executeTakeFirst();
  const walked = await tested
    .$if(bound !== undefined, (q) =>
      q.where(
        sql<SqlBool>`(k.published_at, k.submission_id) >= (${bound?.published_at ?? ""}, ${bound?.submission_id ?? 0})`,
      ),
    )
    .select("k.submission_id")
    .orderBy("k.published_at", "desc")
    .orderBy("k.submission_id", "desc")
    .limit(pageSize)
    .offset(offset)
    .execute();
  const rows =
    bound === undefined || walked.length >= expected
      ? await pageByIds(
          db,
          walked.map((r) => Number(r.submission_id)),
        )
      : await matchesFirst();
  return pageOf(rows, matched, totalCap);
}

/**
 * The page's submission ids found by walking the list's order (within a programme, the
 * programme's) for at most `rows` listed publications (undefined: the whole programme, when it is
 * smaller than the term's matches), testing each (`term`: "row", or "range" for a whole
 * programme). The bound is the (published_at, submission_id) of the last publication walked, read first from the
 * order's index alone; a range on it keeps both planners on that index and stops the walk there. The walk reads
 * the publications alone (on PostgreSQL the order's index holds all it tests, so it never visits
 * the table); the page's columns are read after, for its ids only. Fewer ids than the page expects
 * means: not found within the bound.
 */
async function walkListOrder(
  db: Executor,
  query: PublicListQuery,
  rows: number | undefined,
  pageSize: number,
  offset: number,
  term: TermTest,
): Promise<number[]> {
  const bound =
    rows === undefined
      ? undefined
      : await listedInOrder(db, query.programme)
          .select(["p.published_at", "p.submission_id"])
          .orderBy("p.published_at", "desc")
          .orderBy("p.submission_id", "desc")
          .limit(1)
          .offset(rows - 1)
          .executeTakeFirst();
  let q = conditions(db, query, term).reduce(
    (acc, c) => acc.where(c),
    listedInOrder(db, query.programme),
  );
  if (bound !== undefined) {
    q = q.where(
      sql<SqlBool>`(p.published_at, p.submission_id) >= (${bound.published_at}, ${bound.submission_id})`,
    );
  }
  const found = await q
    .select("p.submission_id")
    .orderBy("p.published_at", "desc")
    .orderBy("p.submission_id", "desc")
    .limit(pageSize)
    .offset(offset)
    .execute();
  return found.map((r) => Number(r.submission_id));
}

/** How many publications the query has, counted no further than `limit`. */
async function countRows(
  db: Executor,
  q: ReturnType<typeof listedPublications>,
  limit: number,
): Promise<number> {
  const row = await db
    .selectFrom(q.select("p.submission_id").limit(limit).as("matches"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const PROGRAMMES_CACHE_MS = 60_000;
const programmesCache = new WeakMap<object, { at: number; names: Promise<string[]> }>();

/**
 * The programmes with a listed thesis, for the list's filter: one distinct pass over the published
 * theses, kept a minute per database handle, since every view of the list shows them.
 */
export function listedProgrammes(db: Executor, nowMs = Date.now()): Promise<string[]> {
  const cached = programmesCache.get(db);
  if (cached && nowMs - cached.at <= PROGRAMMES_CACHE_MS) return cached.names;
  const names = listed(db)
    .select("submissions.programme")
    .distinct()
    .orderBy("submissions.programme")
    .execute()
    .then((rows) => rows.map((r) => r.programme));
  programmesCache.set(db, { at: nowMs, names });
  // A failed read is not kept: the next view tries again.
  names.catch(() => programmesCache.delete(db));
  return names;
}

/** How many theses the sitemap lists. */
export async function countSitemapEntries(db: Executor): Promise<number> {
  const row = await listed(db)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One sitemap file's theses (1-based `page`), in submission id order, with their last change. */
export async function sitemapEntries(
  db: Executor,
  page: number,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<{ submissionId: number; datestamp: string }[]> {
  const rows = await listed(db)
    .select(["p.submission_id", "p.datestamp"])
    .orderBy("p.submission_id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return rows.map((r) => ({ submissionId: Number(r.submission_id), datestamp: r.datestamp }));
}

import { sql, type SqlBool } from "kysely";
import { LIST_TOTAL_CAP } from "../../common/submissions-constants.js";
import type { Executor } from "../db/database.js";
import {
  containsPattern,
  isAsciiTerm,
  searchConditionRowByRow,
  submissionSearchCondition,
} from "../db/dialect.js";

/**
 * What the public pages read (docs/decisions/027-oai-pmh-and-public-pages.md): the list of
 * published theses, searched with the administrators' list's own machinery (the search index's
 * condition on the student's name, `submissionSearchCondition`, its literal LIKE patterns and its
 * capped total), and the sitemap's pages. Withdrawn theses keep their page but leave the list and
 * the sitemap.
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

// `submissions` is not aliased: the search index's condition names the table.
function listed(db: Executor) {
  return db
    .selectFrom("publications as p")
    .innerJoin("submissions", "submissions.id", "p.submission_id")
    .innerJoin("degrees as d", "d.id", "p.degree_id")
    .where("p.published_at", "is not", null)
    .where("p.withdrawn_at", "is", null)
    .where("p.award_date", "is not", null)
    .where("p.embargo_choice", "is not", null)
    .where("p.licence_version", "is not", null);
}

function conditions(db: Executor, query: PublicListQuery) {
  return <Q extends ReturnType<typeof listed>>(q: Q): Q => {
    let out = q;
    const term = query.q?.trim();
    if (term) {
      const pattern = containsPattern(term);
      // The title and keywords have no index, so the rows are read in the page's order and
      // tested one by one, which stops at the page (and the count at its cap) for a common term.
      // The name is tested the same way (the admin list's row-by-row condition, which gives the
      // search index's matches for ASCII terms); through the index, SQLite first collected every
      // match of a common name (1.9 s for "mensah" at 1,000,000, docs/benchmarks.md).
      const byName = isAsciiTerm(term)
        ? searchConditionRowByRow(term)
        : submissionSearchCondition(db, term);
      out = out.where(
        sql<SqlBool>`(${byName}
          or lower(submissions.thesis_title) like lower(${pattern}) escape '\\'
          or lower(p.keywords) like lower(${pattern}) escape '\\')`,
      ) as Q;
    }
    if (query.programme) out = out.where("submissions.programme", "=", query.programme) as Q;
    if (query.keyword) {
      // Keywords are a JSON array: the keyword with its quotes is one whole element.
      const element = containsPattern(JSON.stringify(query.keyword.trim()));
      out = out.where(sql<SqlBool>`lower(p.keywords) like lower(${element}) escape '\\'`) as Q;
    }
    return out;
  };
}

export async function listPublicTheses(
  db: Executor,
  query: PublicListQuery,
  pageSize = PUBLIC_PAGE_SIZE,
  totalCap = LIST_TOTAL_CAP,
): Promise<PublicListPage> {
  const where = conditions(db, query);
  const [rows, counted] = await Promise.all([
    where(listed(db))
      .select([
        "p.submission_id",
        "submissions.thesis_title",
        "submissions.student_name",
        "submissions.programme",
        "d.name as degree_name",
        "p.award_date",
      ])
      .orderBy("p.published_at", "desc")
      .orderBy("p.submission_id", "desc")
      .limit(pageSize)
      .offset((query.page - 1) * pageSize)
      .execute(),
    // The admin list's capped total: counting stops one past the cap.
    db
      .selectFrom(
        where(listed(db))
          .select("p.submission_id")
          .limit(totalCap + 1)
          .as("matches"),
      )
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const n = Number(counted.n);
  return {
    items: rows.map((r) => ({
      submissionId: Number(r.submission_id),
      title: r.thesis_title ?? "",
      author: r.student_name,
      programme: r.programme,
      degreeName: r.degree_name,
      awardDate: r.award_date ?? "",
    })),
    total: Math.min(n, totalCap),
    totalCapped: n > totalCap,
  };
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

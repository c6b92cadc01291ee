import { sql } from "kysely";
import type { Executor } from "../db/database.js";
import { setSlug, type DatestampBound, type SetKind } from "./oai-protocol.js";

/**
 * What OAI-PMH reads from the database (docs/decisions/027-oai-pmh-and-public-pages.md): the
 * published records' headers a page at a time, by keyset on the submission id, and the sets.
 * A record is in the repository exactly when pub-core's `readPublishedRecord` returns it:
 * `published_at` set (with its award date, embargo choice, degree and licence).
 */

export interface OaiHeaderRow {
  submissionId: number;
  datestamp: string;
  withdrawn: boolean;
  programme: string;
  degreeName: string;
}

export interface OaiListQuery {
  /** The last submission id already sent (0 at the start). */
  after: number;
  /** The harvest's upper bound: records published after it are not part of this list. */
  bound: string;
  from: DatestampBound | null;
  until: DatestampBound | null;
  /** Only these programmes (a programme set), or these degrees (a degree set). */
  programmes: string[] | null;
  degreeIds: number[] | null;
}

function published(db: Executor) {
  return db
    .selectFrom("publications as p")
    .innerJoin("submissions as s", "s.id", "p.submission_id")
    .innerJoin("degrees as d", "d.id", "p.degree_id")
    .where("p.published_at", "is not", null)
    .where("p.award_date", "is not", null)
    .where("p.embargo_choice", "is not", null)
    .where("p.licence_version", "is not", null);
}

/**
 * Up to `limit` headers after `query.after`, in submission id order. A record changed during a
 * harvest keeps its place (its id), so every record published when the harvest began is sent
 * exactly once, in its state when its page is read.
 *
 * Without a programme set the page is found in `publications` alone, walking its primary key
 * (the conditions a published record meets are all on its row: a degree and a licence are foreign
 * keys), and the page's programme and degree names are read for its ids after. Joined first,
 * PostgreSQL planned the whole table's join before the limit (a page took 80 ms at 200,000).
 */
export async function listOaiHeaders(
  db: Executor,
  query: OaiListQuery,
  limit: number,
): Promise<OaiHeaderRow[]> {
  if (query.programmes) {
    let q = published(db)
      .select([
        "p.submission_id",
        "p.datestamp",
        "p.withdrawn_at",
        "s.programme",
        "d.name as degree_name",
      ])
      .where("p.submission_id", ">", query.after)
      .where("p.published_at", "<=", query.bound)
      .where("s.programme", "in", query.programmes);
    if (query.from) q = q.where("p.datestamp", ">=", query.from.start);
    if (query.until) q = q.where("p.datestamp", "<", query.until.next);
    if (query.degreeIds) q = q.where("p.degree_id", "in", query.degreeIds);
    const rows = await q.orderBy("p.submission_id").limit(limit).execute();
    return rows.map((r) => ({
      submissionId: Number(r.submission_id),
      datestamp: r.datestamp,
      withdrawn: r.withdrawn_at !== null,
      programme: r.programme,
      degreeName: r.degree_name,
    }));
  }
  let q = db
    .selectFrom("publications as p")
    .select(["p.submission_id", "p.datestamp", "p.withdrawn_at", "p.degree_id"])
    .where("p.published_at", "is not", null)
    .where("p.award_date", "is not", null)
    .where("p.embargo_choice", "is not", null)
    .where("p.licence_version", "is not", null)
    .where("p.degree_id", "is not", null)
    .where("p.submission_id", ">", query.after)
    .where("p.published_at", "<=", query.bound);
  if (query.from) q = q.where("p.datestamp", ">=", query.from.start);
  if (query.until) q = q.where("p.datestamp", "<", query.until.next);
  if (query.degreeIds) q = q.where("p.degree_id", "in", query.degreeIds);
  const rows = await q.orderBy("p.submission_id").limit(limit).execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.submission_id));
  const degreeIds = [...new Set(rows.map((r) => Number(r.degree_id)))];
  const [programmes, degrees] = await Promise.all([
    db.selectFrom("submissions").select(["id", "programme"]).where("id", "in", ids).execute(),
    db.selectFrom("degrees").select(["id", "name"]).where("id", "in", degreeIds).execute(),
  ]);
  const programmeOf = new Map(programmes.map((r) => [Number(r.id), r.programme]));
  const degreeOf = new Map(degrees.map((r) => [Number(r.id), r.name]));
  return rows.map((r) => ({
    submissionId: Number(r.submission_id),
    datestamp: r.datestamp,
    withdrawn: r.withdrawn_at !== null,
    programme: programmeOf.get(Number(r.submission_id)) ?? "",
    degreeName: degreeOf.get(Number(r.degree_id)) ?? "",
  }));
}

/** One record's header, or null when it is not in the repository. */
export async function findOaiHeader(
  db: Executor,
  submissionId: number,
): Promise<OaiHeaderRow | null> {
  const r = await published(db)
    .select([
      "p.submission_id",
      "p.datestamp",
      "p.withdrawn_at",
      "s.programme",
      "d.name as degree_name",
    ])
    .where("p.submission_id", "=", submissionId)
    .executeTakeFirst();
  return r
    ? {
        submissionId: Number(r.submission_id),
        datestamp: r.datestamp,
        withdrawn: r.withdrawn_at !== null,
        programme: r.programme,
        degreeName: r.degree_name,
      }
    : null;
}

/** The earliest datestamp in the repository; null when it holds nothing yet. */
export async function earliestDatestamp(db: Executor): Promise<string | null> {
  const row = await published(db)
    .select("p.datestamp")
    .orderBy("p.datestamp")
    .orderBy("p.submission_id")
    .limit(1)
    .executeTakeFirst();
  return row?.datestamp ?? null;
}

export interface OaiSet {
  kind: SetKind;
  name: string;
}

/**
 * The programmes and degrees that have a published record: each is a set. One distinct scan of
 * the published records, so ListSets (asked once per harvest, if at all) costs one pass.
 */
export async function listOaiSets(db: Executor): Promise<OaiSet[]> {
  const [programmes, degrees] = await Promise.all([
    published(db).select("s.programme").distinct().orderBy("s.programme").execute(),
    db
      .selectFrom("degrees as d")
      .select("d.name")
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("publications as p")
            .select(sql`1`.as("one"))
            .whereRef("p.degree_id", "=", "d.id")
            .where("p.published_at", "is not", null),
        ),
      )
      .orderBy("d.name")
      .execute(),
  ]);
  return [
    ...programmes.map((r) => ({ kind: "programme" as const, name: r.programme })),
    ...degrees.map((r) => ({ kind: "degree" as const, name: r.name })),
  ];
}

const PROGRAMME_CACHE_MS = 60_000;
const programmeCache = new WeakMap<object, { at: number; names: string[] }>();

/**
 * The programme names whose slug is `slug`. The names are read from the submissions' programme
 * index (distinct) at most once a minute per database handle, since every page of a set's harvest
 * asks; a slug the cached names do not have reads them again at once (a programme new this minute).
 */
export async function programmesWithSlug(
  db: Executor,
  slug: string,
  nowMs: number,
): Promise<string[]> {
  const read = async () => {
    const rows = await db.selectFrom("submissions").select("programme").distinct().execute();
    const fresh = { at: nowMs, names: rows.map((r) => r.programme) };
    programmeCache.set(db, fresh);
    return fresh;
  };
  let cached = programmeCache.get(db);
  if (!cached || nowMs - cached.at > PROGRAMME_CACHE_MS) cached = await read();
  let names = cached.names.filter((name) => setSlug(name) === slug);
  if (names.length === 0 && cached.at !== nowMs) {
    names = (await read()).names.filter((name) => setSlug(name) === slug);
  }
  return names;
}

/** The ids of the degrees whose slug is `slug`. */
export async function degreesWithSlug(db: Executor, slug: string): Promise<number[]> {
  const rows = await db.selectFrom("degrees").select(["id", "name"]).execute();
  return rows.filter((r) => setSlug(r.name) === slug).map((r) => Number(r.id));
}

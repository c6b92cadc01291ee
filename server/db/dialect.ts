import {
  CompiledQuery,
  PostgresAdapter,
  sql,
  type AliasedRawBuilder,
  type ColumnDefinitionBuilder,
  type Compilable,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";

/**
 * Every difference between SQLite and PostgreSQL lives here. Shared code never branches on the
 * dialect itself; it calls one of these functions.
 */

export type DialectName = "sqlite" | "postgres";

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** An auto-incrementing integer primary key column type for the dialect. */
export function idColumnType(db: Kysely<any>): "integer" | "serial" {
  return dialectOf(db) === "postgres" ? "serial" : "integer";
}

export function idColumn(db: Kysely<any>) {
  const postgres = dialectOf(db) === "postgres";
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
}

/** Unique-constraint violations: SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "23505"
  );
}

/**
 * SQLite's "database is locked" (SQLITE_BUSY and its extended codes): another connection to the
 * same file (a second server process, a backup, the admin command line) held the write lock past
 * busy_timeout. Nothing is wrong with the request or the data, and the same request succeeds once
 * the lock is released, so it is answered like a database that cannot be reached for a moment:
 * 503 with Retry-After, not a 500. PostgreSQL waits for row and table locks instead of failing
 * (no lock_timeout is set), so it has no counterpart here.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^SQLITE_BUSY(_[A-Z]+)?$/.test(code);
}

/** After inserting rows with explicit ids, PostgreSQL's sequence must move past them. */
export async function resetIdSequence(db: Kysely<any>, table: string): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
    db,
  );
}

// ---------------------------------------------------------------------------------------------
// Hot queries: built and compiled once, prepared once by the database (docs/benchmarks.md,
// "API hot path")

/** What a PostgreSQL pool offers for a named statement (pg's Pool, or a test's stand-in). */
export interface NamedStatementRunner {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: Record<string, unknown>[] }>;
}

// Kysely<any>, as in the rest of this module: hot queries run on the app's database, its
// transactions and tests' databases with extra tables (withTables), which share no one type.
const namedStatementRunners = new WeakMap<Kysely<any>, NamedStatementRunner>();

/**
 * Lets hot queries on this PostgreSQL database run as named statements on its pool (pg then
 * prepares each one once per connection and only binds and executes it after). Called by
 * createDatabase; a database opened without it runs them as plain queries through Kysely.
 */
export function runNamedStatementsOn(db: Kysely<any>, pool: NamedStatementRunner): void {
  namedStatementRunners.set(db, pool);
}

/**
 * A query that runs on every request: built with Kysely once per database (so its SQL is the
 * dialect's own and its types are checked like every other query), then reused as compiled SQL
 * with the request's parameters. Building a query costs more than running a cached statement
 * (issue 11's profile: about 18 % of a status read went to building Kysely queries).
 */
export interface HotQuery<Row> {
  /** Unique across the app: PostgreSQL's name for the prepared statement. */
  readonly name: string;
  /** Builds the query with placeholder values, one per parameter, in the order they are given. */
  readonly build: (db: Kysely<any>) => Compilable<Row>;
  readonly compiled: WeakMap<Kysely<any>, CompiledQuery<Row>>;
}

export function hotQuery<Row>(
  name: string,
  build: (db: Kysely<any>) => Compilable<Row>,
): HotQuery<Row> {
  return { name, build, compiled: new WeakMap() };
}

/**
 * Runs a hot query with these parameters, in the order the builder's placeholders appear.
 * PostgreSQL: a named statement on the database's pool. Given a transaction (never registered
 * with a pool), it runs through Kysely on the transaction's own connection instead, unnamed.
 * SQLite: the compiled SQL goes through Kysely to the statement cache (statement-cache.ts), which
 * prepared it on first use; Kysely's connection lock is kept, so the query never runs in the
 * middle of another request's transaction on the one connection.
 */
export async function runHotQuery<Row>(
  db: Kysely<any>,
  query: HotQuery<Row>,
  parameters: readonly unknown[],
): Promise<Row[]> {
  let compiled = query.compiled.get(db);
  if (compiled === undefined) {
    compiled = query.build(db).compile();
    query.compiled.set(db, compiled);
  }
  if (compiled.parameters.length !== parameters.length) {
    throw new Error(
      `The hot query ${query.name} takes ${compiled.parameters.length} parameters, not ${parameters.length}.`,
    );
  }
  const pool = namedStatementRunners.get(db);
  if (pool !== undefined) {
    const result = await pool.query({
      name: query.name,
      text: compiled.sql,
      values: [...parameters],
    });
    return result.rows as Row[];
  }
  const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, [...parameters]));
  return [...result.rows];
}

// ---------------------------------------------------------------------------------------------
// Work queues: claiming a row when several servers share the database (docs/decisions/008)

/**
 * How a worker claims a queued row (the outbox) so that no two workers take the same one.
 * - "skip-locked" (PostgreSQL): select the row FOR UPDATE SKIP LOCKED and mark it claimed in one
 *   short transaction; concurrent claimers each get a different row and none waits on another.
 * - "conditional-update" (SQLite): one writer at a time and no row locks; an UPDATE that only
 *   succeeds while the row is still unclaimed is the claim.
 */
export type QueueClaim = "skip-locked" | "conditional-update";

export function queueClaimOf(db: Kysely<any>): QueueClaim {
  return dialectOf(db) === "postgres" ? "skip-locked" : "conditional-update";
}

/**
 * The query, locking the rows it returns until its transaction ends and passing over rows another
 * transaction has locked. PostgreSQL only: use it where queueClaimOf(db) is "skip-locked".
 */
export function selectSkippingLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return query.forUpdate().skipLocked();
}

// ---------------------------------------------------------------------------------------------
// Searching submissions by name or index number (docs/decisions/006-search.md)

/**
 * Terms this long or longer go through the trigram index; shorter terms have no trigram to look
 * up and fall back to a plain LIKE scan.
 */
export const TRIGRAM_MIN_LENGTH = 3;

/**
 * The search index. SQLite: an FTS5 trigram table over name and index number, kept in step with
 * `submissions` by triggers. PostgreSQL: a stored generated column holding both, lower-cased and
 * joined by a control character no search term contains, with a pg_trgm GIN index that LIKE uses.
 * (One column rather than two indexed ones: one LIKE per row when the planner scans, and real
 * column statistics for its estimates; docs/decisions/006-search.md.)
 */
export async function createSubmissionSearchIndex(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`alter table submissions add column search_text text generated always as (lower(student_name || chr(31) || index_number)) stored`.execute(
      db,
    );
    // fastupdate off: a bulk import's rows go straight into the index instead of a pending list
    // that every search would scan (and that makes the planner avoid the index) until vacuum.
    await sql`create index submissions_search_text_trgm on submissions using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    );
    return;
  }
  // External content: the FTS table stores only the index, the text stays in submissions.
  await sql`create virtual table submissions_search using fts5(student_name, index_number, content='submissions', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`create trigger submissions_search_insert after insert on submissions begin
    insert into submissions_search(rowid, student_name, index_number)
      values (new.id, new.student_name, new.index_number);
  end`.execute(db);
  await sql`create trigger submissions_search_delete after delete on submissions begin
    insert into submissions_search(submissions_search, rowid, student_name, index_number)
      values ('delete', old.id, old.student_name, old.index_number);
  end`.execute(db);
  await sql`create trigger submissions_search_update after update of student_name, index_number on submissions begin
    insert into submissions_search(submissions_search, rowid, student_name, index_number)
      values ('delete', old.id, old.student_name, old.index_number);
    insert into submissions_search(rowid, student_name, index_number)
      values (new.id, new.student_name, new.index_number);
  end`.execute(db);
  await sql`insert into submissions_search(submissions_search) values ('rebuild')`.execute(db);
}

export async function dropSubmissionSearchIndex(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop index if exists submissions_search_text_trgm`.execute(db);
    await sql`alter table submissions drop column if exists search_text`.execute(db);
    return;
  }
  for (const trigger of ["insert", "delete", "update"]) {
    await sql`drop trigger if exists ${sql.raw(`submissions_search_${trigger}`)}`.execute(db);
  }
  await sql`drop table if exists submissions_search`.execute(db);
}

/** A LIKE pattern matching `term` anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The term as searched: control characters never belong in a name or an index number. */
function searchableText(term: string): string {
  return term.replace(/\p{Cc}/gu, "");
}

/**
 * SQLite: the term as one FTS5 phrase, its double quotes doubled, so FTS5's query syntax is taken
 * literally; over the trigram tokenizer a phrase matches the term as a substring, case-folded.
 */
function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Whether the search index answers this term (it has a trigram), rather than a table scan. */
export function searchIndexServes(term: string): boolean {
  return [...searchableText(term).trim()].length >= TRIGRAM_MIN_LENGTH;
}

/**
 * The condition "the submission's student name or index number contains `term`, ignoring case",
 * on the `submissions` table. Uses the search index when the term has a trigram.
 */
export function submissionSearchCondition(db: Kysely<any>, term: string): RawBuilder<SqlBool> {
  // Dropping control characters also keeps a term from spanning PostgreSQL's separator between
  // name and index number.
  const text = searchableText(term);
  if (dialectOf(db) === "postgres") {
    // pg_trgm serves LIKE from the GIN index for terms of three or more characters.
    return sql<SqlBool>`submissions.search_text like lower(${containsPattern(text)}) escape '\\'`;
  }
  if (searchIndexServes(text)) {
    // An FTS5 phrase over the trigram tokenizer matches the term as a substring, case-folded.
    const phrase = ftsPhrase(text);
    return sql<SqlBool>`submissions.id in (select rowid from submissions_search where submissions_search match ${phrase})`;
  }
  // SQLite's LIKE ignores case (for ASCII letters, which is what names and index numbers use).
  const pattern = containsPattern(text);
  return sql<SqlBool>`(submissions.student_name like ${pattern} escape '\\' or submissions.index_number like ${pattern} escape '\\')`;
}

/**
 * Whether a term is plain ASCII (printable), the terms for which a test on the submission's own
 * columns (searchConditionRowByRow) and the term postings (below) give exactly the search index's
 * matches: SQLite's LIKE and lower() fold ASCII case only, its FTS5 index folds every letter's.
 */
export function isAsciiTerm(term: string): boolean {
  return /^[\x20-\x7e]*$/.test(term);
}

/**
 * The term tested row by row on the submission's own columns, never through the search index:
 * what a walk along the sort index checks. The same matches as the search index's for ASCII terms
 * (isAsciiTerm): SQLite's LIKE ignores ASCII case, and on PostgreSQL lower() on both sides is what
 * the search_text column holds.
 */
export function searchConditionRowByRow(term: string): RawBuilder<SqlBool> {
  const pattern = containsPattern(searchableText(term));
  return sql<SqlBool>`(lower(submissions.student_name) like lower(${pattern}) escape '\\' or lower(submissions.index_number) like lower(${pattern}) escape '\\')`;
}

/**
 * How many submissions the term alone matches, counted no further than `limit`, when the index
 * can count them without visiting the rows; undefined when it cannot (the caller then counts
 * matching rows). SQLite: the FTS5 index reads its doclist and stops (through `id in (…)` it would
 * first collect every match, 80,000 for "ama" in a million). PostgreSQL: a three-letter ASCII term
 * is one gram of the term postings, each of its postings one matching submission, counted from
 * the primary key alone (the GIN index's bitmap has to collect every match before the count can
 * stop).
 */
export async function countSearchIndexMatches(
  db: Kysely<any>,
  term: string,
  limit: number,
): Promise<number | undefined> {
  const text = searchableText(term).trim();
  if (dialectOf(db) === "sqlite") {
    if (!searchIndexServes(text)) return undefined;
    const phrase = ftsPhrase(text);
    const { rows } = await sql<{ count: number }>`
      select count(*) as count from (
        select rowid from submissions_search where submissions_search match ${phrase} limit ${limit}
      )`.execute(db);
    return Number(rows[0]?.count ?? 0);
  }
  const grams = searchTermGrams(text);
  if (grams === undefined || text.length !== SEARCH_GRAM_LENGTH) return undefined;
  const { rows } = await sql<{ count: string | number }>`
    select count(*) as count from (
      select 1 from submission_search_grams where gram = ${grams[0]} limit ${limit}
    ) as capped`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Term postings ordered by the name (migration 010_search_postings, docs/decisions/006-search.md)
//
// submission_search_grams holds one row per distinct three-character gram of a submission's
// lower-cased student name and, separately, of its lower-cased index number (no gram spans the
// two), with the student name beside it, keyed (gram, student_name, submission_id). A gram's
// postings are thus already in the list's name order: the page of a three-letter term sorted by
// name is a range of that key, with no sort and no walk through non-matching rows. Database
// triggers keep it in step with every write to submissions, imports included.

/**
 * PostgreSQL: the four statement-level triggers that keep a derived table in step with `table`,
 * `<prefix>_insert`, `_delete`, `_update` and `_truncate`, each calling the function
 * `<prefix>_inserted`, `_deleted`, `_updated` or `_truncated`, which read the statement's rows
 * from the transition tables `new_rows` and `old_rows`.
 */
async function createStatementTriggers(
  db: Kysely<any>,
  table: string,
  prefix: string,
): Promise<void> {
  const events = [
    ["insert", "inserted", "referencing new table as new_rows"],
    ["delete", "deleted", "referencing old table as old_rows"],
    ["update", "updated", "referencing old table as old_rows new table as new_rows"],
    ["truncate", "truncated", ""],
  ] as const;
  for (const [event, fn, transition] of events) {
    await sql
      .raw(
        `create trigger ${prefix}_${event} after ${event} on ${table}
      ${transition} for each statement execute function ${prefix}_${fn}()`,
      )
      .execute(db);
  }
}

/** The postings' gram length: a trigram, as the search index's. */
export const SEARCH_GRAM_LENGTH = 3;

/**
 * The longest name or index number the SQLite triggers cut into grams: their positions table
 * holds 1 to this (triggers cannot use WITH to count). Names are at most 200 characters and
 * index numbers 20 (common/submissions-api.ts, common/submission.ts); the margin is for data
 * written outside the app.
 */
export const SEARCH_POSITIONS = 1000;

/**
 * The distinct grams of a term, lower-cased as the postings hold them, when the postings can
 * answer it: an ASCII term (isAsciiTerm: the database's lower() and the term's agree) of at least
 * three characters. Undefined otherwise.
 */
export function searchTermGrams(term: string): string[] | undefined {
  const text = searchableText(term).trim();
  if (!isAsciiTerm(text) || text.length < SEARCH_GRAM_LENGTH) return undefined;
  const lower = text.toLowerCase();
  const grams = new Set<string>();
  for (let i = 0; i + SEARCH_GRAM_LENGTH <= lower.length; i += 1) {
    grams.add(lower.slice(i, i + SEARCH_GRAM_LENGTH));
  }
  return [...grams];
}

/**
 * The lower-cased term when the postings answer it although it is shorter than a gram: an ASCII
 * term (isAsciiTerm) of one or two characters. Its matches are the postings of every gram that
 * contains it (a value shorter than a gram is its own gram), found through the gram vocabulary.
 * Undefined otherwise.
 */
export function shortSearchTerm(term: string): string | undefined {
  const text = searchableText(term).trim();
  if (!isAsciiTerm(text) || text.length === 0 || text.length >= SEARCH_GRAM_LENGTH)
    return undefined;
  return text.toLowerCase();
}

/**
 * The grams of the vocabulary that contain a short term (shortSearchTerm): a scan of the
 * vocabulary (1,899 grams at 1,000,000 bench submissions), the term taken literally.
 */
function vocabularyGramsContaining(term: string): RawBuilder<string> {
  return sql<string>`select gram from submission_search_vocabulary where gram like ${containsPattern(term)} escape '\\'`;
}

/** The submissions whose postings hold a gram containing a short term: exactly its matches. */
export function shortTermMatchCondition(term: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`submissions.id in (select submission_id from submission_search_grams where gram in (${vocabularyGramsContaining(term)}))`;
}

/**
 * How many submissions a short term (shortSearchTerm) matches, counted no further than `limit`:
 * the distinct submissions among the postings of the grams containing it, read gram by gram and
 * stopping as soon as `limit` distinct ones are seen.
 * - SQLite checks each posting against the ones seen so far and stops at the limit (about 3.5 ms
 *   CPU for 10,001 at 1,000,000 submissions, where counting rows read them all for a rare term).
 * - PostgreSQL's DISTINCT (hash or sort) reads every posting before it returns the first (millions
 *   for "a"). The one streaming distinct it has is a recursive UNION, which emits each row the
 *   first time it sees it: the non-recursive part reads the postings, the recursive part adds
 *   nothing, and the outer limit stops the walk at `limit` distinct submissions (6 to 19 ms at
 *   1,000,000 where counting rows took 50 to 500 ms). The grams are walked one at a time through
 *   a lateral join with a limit of its own, which keeps the plan a nested loop over the postings'
 *   key and its cost estimate small: estimated over every posting of "a", the plan cost enough to
 *   be compiled by JIT first (some 15 ms). Within one gram each submission has one posting, so a
 *   gram never needs more than `limit` of them read.
 */
export async function countShortTermMatches(
  db: Kysely<any>,
  term: string,
  limit: number,
): Promise<ShortTermCount> {
  // How many grams contain the term, beside the count: it tells the list whether a page merged
  // from the grams' postings (shortTermNamePage) is cheap.
  const grams = sql<number>`(select count(*) from (${vocabularyGramsContaining(term)}) as containing)`;
  if (dialectOf(db) === "postgres") {
    const { rows } = await sql<{ count: number | string; grams: number | string }>`
      select count(*) as count, ${grams} as grams from (
        with recursive seen(submission_id) as (
          select p.submission_id
            from unnest(array(${vocabularyGramsContaining(term)})) as v(gram)
            cross join lateral (
              select g.submission_id from submission_search_grams g where g.gram = v.gram
              limit ${limit}
            ) as p
          union
          select submission_id from seen where false
        )
        select submission_id from seen limit ${limit}
      ) as capped`.execute(db);
    return { matched: Number(rows[0]?.count ?? 0), grams: Number(rows[0]?.grams ?? 0) };
  }
  const { rows } = await sql<{ count: number; grams: number }>`
    select count(*) as count, ${grams} as grams from (
      select distinct submission_id from submission_search_grams
      where gram in (${vocabularyGramsContaining(term)}) limit ${limit}
    )`.execute(db);
  return { matched: Number(rows[0]?.count ?? 0), grams: Number(rows[0]?.grams ?? 0) };
}

export interface ShortTermCount {
  /** Distinct matching submissions, counted no further than the limit. */
  matched: number;
  /** The vocabulary's grams that contain the term. */
  grams: number;
}

/**
 * The ids of one page of a short term's (shortSearchTerm) matches sorted by name, as a subquery
 * aliased `page`: the first `offset + limit` postings of each gram containing the term, in the
 * postings' (student_name, submission_id) key order, merged, each submission once, sorted and cut
 * to the page. Exact: a submission's postings all carry its name, and within one gram it ranks no
 * later than among all the matches, so the page's rows are among each gram's first ones. The cost
 * is (grams × (offset + limit)) postings read from the key, whatever the count and wherever the
 * matches sort ("wu" by name, page 1: 0.5 ms, where the walk of the name index failed and the plain
 * query's walk followed, 15 ms; page 40: 5 ms against 130). The caller bounds that product.
 * PostgreSQL: a lateral join with a limit per gram. SQLite has no lateral join: the grams are
 * read from the vocabulary first, and each becomes one limited subquery of a UNION ALL (the
 * caller's bound keeps them to a few hundred). Issue 23: on SQLite the walk of the name index for
 * a sparse two-letter term sorting late ("wa", "wu", "q") was the p95 of short terms (30 to 39 ms
 * CPU at 1,000,000).
 */
export async function shortTermNamePage(
  db: Kysely<any>,
  term: string,
  direction: "asc" | "desc",
  limit: number,
  offset: number,
): Promise<AliasedRawBuilder<{ submission_id: number }, "page">> {
  const order = sql.raw(direction === "asc" ? "asc" : "desc");
  if (dialectOf(db) === "sqlite") {
    const { rows } = await sql<{ gram: string }>`${vocabularyGramsContaining(term)}`.execute(db);
    // No gram contains the term: a subquery that returns nothing (a compound needs one member).
    const perGram =
      rows.length === 0
        ? [sql`select null as student_name, null as submission_id where 0`]
        : rows.map(
            ({ gram }) => sql`select * from (
              select g.student_name, g.submission_id from submission_search_grams g
              where g.gram = ${gram}
              order by g.student_name ${order}, g.submission_id ${order}
              limit ${offset + limit}
            )`,
          );
    return sql<{ submission_id: number }>`(
      select p.submission_id from (${sql.join(perGram, sql` union all `)}) as p
      group by p.student_name, p.submission_id
      order by p.student_name ${order}, p.submission_id ${order}
      limit ${limit} offset ${offset}
    )`.as("page");
  }
  return sql<{ submission_id: number }>`(
    select p.submission_id
      from unnest(array(${vocabularyGramsContaining(term)})) as v(gram)
      cross join lateral (
        select g.student_name, g.submission_id from submission_search_grams g
        where g.gram = v.gram
        order by g.student_name ${order}, g.submission_id ${order}
        limit ${offset + limit}
      ) as p
    group by p.student_name, p.submission_id
    order by p.student_name ${order}, p.submission_id ${order}
    limit ${limit} offset ${offset}
  )`.as("page");
}

/**
 * The SQLite select of the distinct grams of one submission row (`new`, `old` or an alias): each
 * trigram of each value, or the whole value when it is shorter than a trigram (so that a one- or
 * two-letter term finds it).
 */
function sqliteGramsOf(row: string): string {
  return ["student_name", "index_number"]
    .map(
      (column) =>
        `select substr(lower(${row}.${column}), p.n, ${SEARCH_GRAM_LENGTH}) as gram from search_positions p where p.n <= length(${row}.${column}) - ${SEARCH_GRAM_LENGTH - 1}
         union select lower(${row}.${column}) as gram where length(${row}.${column}) between 1 and ${SEARCH_GRAM_LENGTH - 1}`,
    )
    .join(" union ");
}

/** The postings table, empty (SQLite: with its positions table). Triggers and rows come after. */
export async function createSubmissionSearchPostings(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`create table submission_search_grams (
      gram text not null,
      student_name text not null,
      submission_id integer not null,
      constraint submission_search_grams_pk primary key (gram, student_name, submission_id)
    )`.execute(db);
    // Each distinct gram of the lower-cased name and, apart, of the lower-cased index number.
    await sql`create function submission_search_grams_of(name text, index_number text)
      returns setof text language sql stable as $$
        select substr(lower(name), n, ${sql.raw(String(SEARCH_GRAM_LENGTH))})
          from generate_series(1, length(lower(name)) - ${sql.raw(String(SEARCH_GRAM_LENGTH - 1))}) as n
        union
        select substr(lower(index_number), n, ${sql.raw(String(SEARCH_GRAM_LENGTH))})
          from generate_series(1, length(lower(index_number)) - ${sql.raw(String(SEARCH_GRAM_LENGTH - 1))}) as n
        union
        select lower(name) where length(lower(name)) between 1 and ${sql.raw(String(SEARCH_GRAM_LENGTH - 1))}
        union
        select lower(index_number) where length(lower(index_number)) between 1 and ${sql.raw(String(SEARCH_GRAM_LENGTH - 1))}
      $$`.execute(db);
    await sql`create table submission_search_vocabulary (gram text primary key)`.execute(db);
    return;
  }
  await sql`create table search_positions (n integer primary key)`.execute(db);
  await sql`insert into search_positions (n)
    with recursive p(n) as (select 1 union all select n + 1 from p where n < ${SEARCH_POSITIONS})
    select n from p`.execute(db);
  // WITHOUT ROWID: the key is the row, so a gram's postings are read in name order from one B-tree.
  await sql`create table submission_search_grams (
    gram text not null,
    student_name text not null,
    submission_id integer not null,
    primary key (gram, student_name, submission_id)
  ) without rowid`.execute(db);
  await sql`create table submission_search_vocabulary (gram text primary key) without rowid`.execute(
    db,
  );
}

/**
 * The triggers that keep the postings in step with submissions. SQLite: row triggers (one writer
 * at a time). PostgreSQL: statement triggers with transition tables, so an import of 50,000 rows
 * writes its postings in one statement rather than 50,000 function calls (PostgreSQL refuses a
 * column list on such triggers: the update trigger runs for every update and writes nothing when
 * neither the name nor the index number changed).
 */
export async function createSubmissionSearchPostingsTriggers(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    const fn = (name: string, body: string) =>
      sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`,
        )
        .execute(db);
    // Each statement reads `from`: a transition table as r, joined to its grams as g.
    const grams =
      "cross join lateral submission_search_grams_of(r.student_name, r.index_number) as g";
    // A new gram joins the vocabulary; one whose last posting goes stays (a stale entry costs a
    // lookup, never a wrong match, and keeps deletes cheap).
    const insertFrom = (from: string) =>
      `with inserted as (
         insert into submission_search_grams (gram, student_name, submission_id)
           select g, r.student_name, r.id from ${from}
           returning gram
       )
       insert into submission_search_vocabulary (gram)
         select distinct gram from inserted on conflict do nothing;`;
    const deleteFrom = (from: string) =>
      `delete from submission_search_grams p using (
         select r.id, r.student_name, g from ${from}
       ) as d
       where p.gram = d.g and p.student_name = d.student_name and p.submission_id = d.id;`;
    // An update rewrites the postings of the rows whose name or index number changed: the old and
    // new rows joined once on their id. (A correlated EXISTS per gram, planned by PL/pgSQL for the
    // first statement's size and kept, made a 500-row update take minutes.)
    const changed = (rows: string, other: string) =>
      `${rows} r join ${other} x on x.id = r.id ${grams}
         where r.student_name is distinct from x.student_name
            or r.index_number is distinct from x.index_number`;
    await fn("submission_search_grams_inserted", insertFrom(`new_rows r ${grams}`));
    await fn("submission_search_grams_deleted", deleteFrom(`old_rows r ${grams}`));
    await fn(
      "submission_search_grams_updated",
      deleteFrom(changed("old_rows", "new_rows")) + insertFrom(changed("new_rows", "old_rows")),
    );
    await fn(
      "submission_search_grams_truncated",
      "truncate submission_search_grams; truncate submission_search_vocabulary;",
    );
    await createStatementTriggers(db, "submissions", "submission_search_grams");
    return;
  }
  // A new gram joins the vocabulary; one whose last posting goes stays (a stale entry costs a
  // lookup, never a wrong match, and keeps deletes cheap).
  const insertNew = `insert into submission_search_grams (gram, student_name, submission_id)
    select gram, new.student_name, new.id from (${sqliteGramsOf("new")});
    insert or ignore into submission_search_vocabulary (gram) select gram from (${sqliteGramsOf("new")});`;
  const deleteOld = `delete from submission_search_grams
    where submission_id = old.id and student_name = old.student_name
      and gram in (${sqliteGramsOf("old")});`;
  await sql
    .raw(
      `create trigger submission_search_grams_insert after insert on submissions begin ${insertNew} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submission_search_grams_delete after delete on submissions begin ${deleteOld} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submission_search_grams_update after update of student_name, index_number on submissions
       when old.student_name is not new.student_name or old.index_number is not new.index_number
       begin ${deleteOld} ${insertNew} end`,
    )
    .execute(db);
}

const SEARCH_POSTINGS_TRIGGERS = ["insert", "delete", "update", "truncate"] as const;

/** Drops the postings triggers (a bulk load drops them, then rebuilds the postings in one go). */
export async function dropSubmissionSearchPostingsTriggers(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  for (const event of SEARCH_POSTINGS_TRIGGERS) {
    const name = sql.id(`submission_search_grams_${event}`);
    if (postgres) await sql`drop trigger if exists ${name} on submissions`.execute(db);
    else await sql`drop trigger if exists ${name}`.execute(db);
  }
  if (postgres) {
    for (const event of ["inserted", "deleted", "updated", "truncated"]) {
      await sql`drop function if exists ${sql.id(`submission_search_grams_${event}`)}()`.execute(
        db,
      );
    }
  }
}

/**
 * Fills the postings from every submission, replacing what they held, in bulk: rows written in key
 * order (SQLite appends to its B-tree), or on PostgreSQL into the table without its key, which is
 * then built by one sort. The migration's backfill and the benchmark's bulk load use it.
 */
export async function rebuildSubmissionSearchPostings(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`truncate submission_search_grams`.execute(db);
    await sql`alter table submission_search_grams drop constraint submission_search_grams_pk`.execute(
      db,
    );
    await sql`insert into submission_search_grams (gram, student_name, submission_id)
      select g, s.student_name, s.id from submissions s
        cross join lateral submission_search_grams_of(s.student_name, s.index_number) as g`.execute(
      db,
    );
    await sql`alter table submission_search_grams
      add constraint submission_search_grams_pk primary key (gram, student_name, submission_id)`.execute(
      db,
    );
    await rebuildVocabulary(db);
    return;
  }
  await sql`delete from submission_search_grams`.execute(db);
  // union all and "or ignore": a gram in both the name and the index number is kept once.
  await sql
    .raw(
      `insert or ignore into submission_search_grams (gram, student_name, submission_id)
       select substr(lower(s.student_name), p.n, ${SEARCH_GRAM_LENGTH}), s.student_name, s.id
         from submissions s join search_positions p on p.n <= length(s.student_name) - ${SEARCH_GRAM_LENGTH - 1}
       union all
       select substr(lower(s.index_number), p.n, ${SEARCH_GRAM_LENGTH}), s.student_name, s.id
         from submissions s join search_positions p on p.n <= length(s.index_number) - ${SEARCH_GRAM_LENGTH - 1}
       union all
       select lower(s.student_name), s.student_name, s.id
         from submissions s where length(s.student_name) between 1 and ${SEARCH_GRAM_LENGTH - 1}
       union all
       select lower(s.index_number), s.student_name, s.id
         from submissions s where length(s.index_number) between 1 and ${SEARCH_GRAM_LENGTH - 1}
       order by 1, 2, 3`,
    )
    .execute(db);
  await rebuildVocabulary(db);
}

/**
 * The vocabulary refilled with the postings' distinct grams, read by skipping from one gram to the
 * next along the postings' key (a few thousand lookups, not a read of every posting).
 */
async function rebuildVocabulary(db: Kysely<any>): Promise<void> {
  await sql`delete from submission_search_vocabulary`.execute(db);
  await sql`insert into submission_search_vocabulary (gram)
    with recursive grams(gram) as (
      select min(gram) from submission_search_grams
      union all
      select (select min(p.gram) from submission_search_grams p where p.gram > grams.gram)
        from grams where grams.gram is not null
    )
    select gram from grams where gram is not null`.execute(db);
}

export async function dropSubmissionSearchPostings(db: Kysely<any>): Promise<void> {
  await dropSubmissionSearchPostingsTriggers(db);
  await sql`drop table if exists submission_search_grams`.execute(db);
  await sql`drop table if exists submission_search_vocabulary`.execute(db);
  if (dialectOf(db) === "postgres") {
    await sql`drop function if exists submission_search_grams_of(text, text)`.execute(db);
  } else {
    await sql`drop table if exists search_positions`.execute(db);
  }
}

// ---------------------------------------------------------------------------------------------
// The public list's search index (migration 023_public_search, docs/decisions/006-search.md and
// 027-oai-pmh-and-public-pages.md)
//
// The admin list's machinery extended to what the public list searches: one lower-cased text per
// listed thesis, "title ␟ author ␟ keyword ␟ keyword …" (␟ being chr(31), which searchableText
// strips from every term, so no match spans two parts), indexed by trigram: SQLite an FTS5
// trigram table `publications_search` (its own content, rowid = submission id), PostgreSQL the
// column `publications.search_text` with a pg_trgm GIN index. Only a listed thesis (published,
// not withdrawn, with its award date, embargo choice, licence and degree: what public-repository's
// `listed` asks) has a text; any other has none, so the index's count of a term is the list's.
// Database triggers keep it in step with every write to `publications` and to a submission's
// title or name.
//
// The list entry also holds its thesis's programme (`publications.list_programme`, set for a
// listed thesis only, kept by the same triggers from `submissions.programme`), so a programme's
// page and a term within a programme are a range of an index on (list_programme, list order)
// instead of a submission looked up per thesis.

/** The conditions under which a publication is listed on /theses, for a row alias (`new`, `p`). */
function listedSql(row: string | null): string {
  const column = (c: string) => (row === null ? c : `${row}.${c}`);
  return ["published_at", "award_date", "embargo_choice", "licence_version", "degree_id"]
    .map((c) => `${column(c)} is not null`)
    .concat(`${column("withdrawn_at")} is null`)
    .join(" and ");
}

/** Columns whose change can add a thesis to the list, remove it, or change its keywords. */
const PUBLIC_SEARCH_COLUMNS =
  "keywords, published_at, withdrawn_at, award_date, embargo_choice, licence_version, degree_id";

/** SQLite: the searched text of a publication (`pub`) and its submission (`sub`). */
function sqlitePublicText(pub: string, sub: string): string {
  return `lower(coalesce(${sub}.thesis_title, '') || char(31) || ${sub}.student_name || char(31) ||
    coalesce((select group_concat(value, char(31)) from json_each(${pub}.keywords)), ''))`;
}

export async function createPublicSearchIndex(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`alter table publications add column search_text text`.execute(db);
    await sql`alter table publications add column list_programme text`.execute(db);
    await sql
      .raw(
        `create function publications_search_text(title text, name text, keywords text)
      returns text language sql stable as $$
        select lower(coalesce(title, '') || chr(31) || name || chr(31) ||
          coalesce((select string_agg(k, chr(31)) from json_array_elements_text(keywords::json) as k), ''))
      $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function publications_search_fill() returns trigger language plpgsql as $$
      begin
        if ${listedSql("new")} then
          select publications_search_text(s.thesis_title, s.student_name, new.keywords), s.programme
            into new.search_text, new.list_programme from submissions s where s.id = new.submission_id;
        else
          new.search_text := null;
          new.list_programme := null;
        end if;
        return new;
      end $$`,
      )
      .execute(db);
    // search_text in the column list: the submissions' trigger below sets it to have it computed.
    await sql
      .raw(
        `create trigger publications_search_fill
      before insert or update of ${PUBLIC_SEARCH_COLUMNS}, search_text on publications
      for each row execute function publications_search_fill()`,
      )
      .execute(db);
    await sql
      .raw(
        `create function publications_search_of_submission() returns trigger
      language plpgsql as $$
      begin
        update publications set search_text = null where submission_id = new.id;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger publications_search_of_submission
      after update of thesis_title, student_name, programme on submissions for each row
      when (old.thesis_title is distinct from new.thesis_title
        or old.student_name is distinct from new.student_name
        or old.programme is distinct from new.programme)
      execute function publications_search_of_submission()`,
      )
      .execute(db);
    await sql`update publications set search_text = null`.execute(db);
    // fastupdate off, as the admin list's index (ADR 006): no pending list for searches to scan.
    await sql`create index publications_search_trgm on publications using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    );
    // The list's order, listed theses only, with what a walk tests (the text and the keywords):
    // the walk, a dense term's count and the plain list's count read this index alone, in order,
    // instead of visiting a table row per thesis at random (the table's pages are not in the
    // list's order; at 1,000,000 that was most of a search's time).
    await sql
      .raw(
        `create index publications_list_order on publications
      (published_at, submission_id) include (search_text, keywords) where ${listedSql(null)}`,
      )
      .execute(db);
    // The same within a programme: a programme's page, its count and a term within it. Not
    // partial: list_programme is null for a thesis not listed, so `list_programme = $1` alone
    // is the programme's listed theses and a query needs no other condition to use it.
    await sql
      .raw(
        `create index publications_programme_order on publications
      (list_programme, published_at, submission_id) include (search_text, keywords)`,
      )
      .execute(db);
    return;
  }
  await sql`alter table publications add column list_programme text`.execute(db);
  await sql`create virtual table publications_search using fts5(search_text, tokenize='trigram')`.execute(
    db,
  );
  // SQLite's triggers cannot set the new row's columns: the programme is written after the row.
  const insertNew = `insert into publications_search(rowid, search_text)
      select new.submission_id, ${sqlitePublicText("new", "s")} from submissions s
      where s.id = new.submission_id and ${listedSql("new")};
      update publications set list_programme = case when ${listedSql("new")}
        then (select s.programme from submissions s where s.id = new.submission_id) end
      where submission_id = new.submission_id;`;
  await sql
    .raw(
      `create trigger publications_search_insert after insert on publications begin
      ${insertNew}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger publications_search_update
    after update of ${PUBLIC_SEARCH_COLUMNS} on publications begin
      delete from publications_search where rowid = old.submission_id;
      ${insertNew}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger publications_search_delete after delete on publications begin
      delete from publications_search where rowid = old.submission_id;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger publications_search_of_submission
    after update of thesis_title, student_name on submissions
    when old.thesis_title is not new.thesis_title or old.student_name is not new.student_name
    begin
      update publications_search set search_text =
        (select ${sqlitePublicText("p", "new")} from publications p where p.submission_id = new.id)
      where rowid = new.id;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger publications_programme_of_submission
    after update of programme on submissions when old.programme is not new.programme
    begin
      update publications set list_programme = new.programme
      where submission_id = new.id and list_programme is not null;
    end`,
    )
    .execute(db);
  // The rowid (the submission id) ends every index, so this is (programme, published_at,
  // submission_id); null for a thesis not listed.
  await sql`create index publications_programme_order on publications (list_programme, published_at)`.execute(
    db,
  );
  // The list's order needs no index of its own here: 016's index on published_at holds the rowid,
  // which is the submission id, so it is (published_at, submission_id) already.
  await rebuildPublicSearchIndex(db);
}

/** Fills the public search index from the tables (the migration; a bulk load after its rows). */
export async function rebuildPublicSearchIndex(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`update publications set search_text = null`.execute(db);
    return;
  }
  await sql`delete from publications_search`.execute(db);
  await sql
    .raw(
      `update publications set list_programme = case when ${listedSql(null)}
      then (select s.programme from submissions s where s.id = publications.submission_id) end`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into publications_search(rowid, search_text)
    select p.submission_id, ${sqlitePublicText("p", "s")}
    from publications p join submissions s on s.id = p.submission_id
    where ${listedSql("p")} order by p.submission_id`,
    )
    .execute(db);
}

export async function dropPublicSearchIndex(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists publications_search_of_submission on submissions`.execute(db);
    await sql`drop trigger if exists publications_search_fill on publications`.execute(db);
    await sql`drop function if exists publications_search_of_submission()`.execute(db);
    await sql`drop function if exists publications_search_fill()`.execute(db);
    await sql`drop index if exists publications_programme_order`.execute(db);
    await sql`drop index if exists publications_list_order`.execute(db);
    await sql`drop index if exists publications_search_trgm`.execute(db);
    await sql`alter table publications drop column if exists search_text`.execute(db);
    await sql`alter table publications drop column if exists list_programme`.execute(db);
    await sql`drop function if exists publications_search_text(text, text, text)`.execute(db);
    return;
  }
  for (const trigger of ["insert", "update", "delete", "of_submission"]) {
    await sql`drop trigger if exists ${sql.raw(`publications_search_${trigger}`)}`.execute(db);
  }
  await sql`drop trigger if exists publications_programme_of_submission`.execute(db);
  await sql`drop index if exists publications_programme_order`.execute(db);
  await sql`drop table if exists publications_search`.execute(db);
  await sql`alter table publications drop column list_programme`.execute(db);
}

/**
 * SQLite: a partial index in the public list's order over listed theses only (migration 026):
 * `list_programme` is set exactly for a listed thesis (the triggers above), so
 * `list_programme is not null` is the whole listed condition and the index is read without the
 * table. PostgreSQL has its own since 023 (publications_list_order, with the text and keywords).
 */
export async function createPublicListOrder(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    // The list's count alone (countListed): its own order index carries each thesis's text and
    // keywords, about 30 entries a page; this one a few hundred. At 1,000,000 the plain list's
    // capped count read 567 table pages (6.5 ms) by a sequential scan.
    await sql`create index publications_listed on publications (submission_id) where list_programme is not null`.execute(
      db,
    );
    return;
  }
  await sql`create index publications_list_order on publications (published_at, submission_id) where list_programme is not null`.execute(
    db,
  );
}

export async function dropPublicListOrder(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop index if exists publications_listed`.execute(db);
    return;
  }
  await sql`drop index if exists publications_list_order`.execute(db);
}

/**
 * "The publication is listed", on `publications as p`, for a read in the list's order (a page, a
 * walk and its bound): the predicate of the dialect's list-order index, so the read is that
 * index's range. SQLite: `list_programme is not null` (migration 026's partial index); a count in
 * no order keeps the listed conditions, since there SQLite would rather take the programme's
 * index, whose order sends each test to a random row. PostgreSQL: the listed conditions, the
 * predicate of 023's index.
 */
export function publicListedInOrder(db: Kysely<any>): RawBuilder<SqlBool> {
  if (dialectOf(db) === "postgres") return sql<SqlBool>`${sql.raw(listedSql("p"))}`;
  return sql<SqlBool>`p.list_programme is not null`;
}

/**
 * "The listed thesis's title, author or a keyword contains `term`, ignoring case", on
 * `publications as p`, through the public search index when the term has a trigram (the admin
 * list's submissionSearchCondition, for the public list).
 */
export function publicSearchCondition(db: Kysely<any>, term: string): RawBuilder<SqlBool> {
  const text = searchableText(term);
  if (dialectOf(db) === "postgres") {
    return sql<SqlBool>`p.search_text like lower(${containsPattern(text)}) escape '\\'`;
  }
  if (searchIndexServes(text)) {
    const phrase = ftsPhrase(text);
    return sql<SqlBool>`p.submission_id in (select rowid from publications_search where publications_search match ${phrase})`;
  }
  return publicSearchRowByRow(db, term);
}

/**
 * "The listed thesis's text contains every one of `terms`", through the index in one search,
 * when each term has a trigram (undefined otherwise): SQLite one FTS5 query, its phrases joined by
 * AND (two `in (…)` lists would each collect every match of their term); PostgreSQL the LIKE
 * patterns side by side, which pg_trgm answers from one scan of its index. What a keyword link with
 * a common term counts: the theses holding both texts, each then checked for the whole keyword
 * (at 1,000,000 the keyword's range tested row by row took 1.4 s to reach the cap).
 */
export function publicSearchConditionAll(
  db: Kysely<any>,
  terms: string[],
): RawBuilder<SqlBool> | undefined {
  const texts = terms.map(searchableText);
  if (!texts.every(searchIndexServes)) return undefined;
  if (dialectOf(db) === "postgres") {
    return sql<SqlBool>`(${sql.join(
      texts.map((t) => sql`p.search_text like lower(${containsPattern(t)}) escape '\\'`),
      sql` and `,
    )})`;
  }
  const query = texts.map(ftsPhrase).join(" AND ");
  return sql<SqlBool>`p.submission_id in (select rowid from publications_search where publications_search match ${query})`;
}

/**
 * How many listed theses (of the programme) hold the keyword and contain the term, counted no
 * further than `limit`, from the index's theses whose text holds both (publicSearchConditionAll),
 * each checked for the whole keyword by one seek of publication_keywords by thesis (migration
 * 027). SQLite reads the FTS5 matches in its own order and stops at the limit (through `in (…)` it
 * would collect every one first); the programme is checked with the keyword (`+`: given the
 * keyword and the programme, SQLite would take the programme's index, a scan per thesis).
 * Undefined when the index cannot search both.
 */
export async function countPublicSearchWithKeyword(
  db: Kysely<any>,
  term: string,
  keyword: string,
  programme: string | undefined,
  limit: number,
): Promise<number | undefined> {
  const both = publicSearchConditionAll(db, [term, keyword]);
  if (both === undefined) return undefined;
  if (dialectOf(db) === "postgres") {
    const { rows } = await sql<{ count: string | number }>`
      select count(*) as count from (
        select 1 from publications p
        where ${both}
          ${programme === undefined ? sql`` : sql`and p.list_programme = ${programme}`}
          and exists (select 1 from publication_keywords k
            where k.submission_id = p.submission_id and k.keyword = lower(${keyword}))
        limit ${limit}
      ) as capped`.execute(db);
    return Number(rows[0]?.count ?? 0);
  }
  const query = [term, keyword].map((t) => ftsPhrase(searchableText(t))).join(" AND ");
  const { rows } = await sql<{ count: number }>`
    select count(*) as count from (
      select f.rowid from publications_search f
      where f.publications_search match ${query}
        and exists (select 1 from publication_keywords k
          where k.submission_id = f.rowid and k.keyword = lower(${keyword})
            ${programme === undefined ? sql`` : sql`and +k.list_programme = ${programme}`})
      limit ${limit}
    )`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * The same condition tested on each row's own text, never through the index: what a walk along
 * the list's order checks, and the short terms' scan. The same matches as the index for ASCII
 * terms (isAsciiTerm), as searchConditionRowByRow is for the admin list.
 */
export function publicSearchRowByRow(db: Kysely<any>, term: string): RawBuilder<SqlBool> {
  const pattern = containsPattern(searchableText(term));
  if (dialectOf(db) === "postgres") {
    // `|| ''`: the same value, but not the indexed expression, so the planner cannot turn this
    // into a bitmap of every match.
    return sql<SqlBool>`(p.search_text || '') like lower(${pattern}) escape '\\'`;
  }
  // The text read from the FTS5 table's content by its key: FTS5 keeps a table's own content in
  // its shadow table `<name>_content` (id = rowid, c0 = the first column), an ordinary B-tree
  // lookup; through the virtual table each lookup also pays the module's cursor. A page of
  // "mensah" at 1,000,000 (a walk of about 1,400 theses) took 34 ms through the virtual table and
  // 15 ms this way, in a run that also split the walk in two (docs/benchmarks.md). SQLite's LIKE
  // ignores ASCII case.
  return sql<SqlBool>`exists (select 1 from publications_search_content f where f.id = p.submission_id and f.c0 like ${pattern} escape '\\')`;
}

/**
 * The same condition for the theses of an index range read in full (a programme's, on
 * publications_programme_order), when the range is smaller than the term's matches: each thesis
 * of the range is tested, the term's matches never visited one by one. PostgreSQL tests the text
 * the range's index holds (index-only; "mensah" in a programme at 1,000,000: 17 ms, against 45 ms
 * rechecking 14,634 matches in the table); SQLite tests membership in the FTS5 index's matches,
 * collected once (`+` keeps the planner on the range rather than on the matches: 26 ms against
 * 72 ms looking up each match's row).
 */
export function publicSearchInRange(db: Kysely<any>, term: string): RawBuilder<SqlBool> {
  const text = searchableText(term);
  if (dialectOf(db) === "sqlite" && searchIndexServes(text)) {
    const phrase = ftsPhrase(text);
    return sql<SqlBool>`+p.submission_id in (select rowid from publications_search where publications_search match ${phrase})`;
  }
  return publicSearchRowByRow(db, term);
}

/**
 * How many listed theses the term alone matches, counted no further than `limit`, in the index
 * without visiting the theses; undefined when the index cannot serve the term (no trigram on
 * PostgreSQL). On SQLite a term without a trigram is counted in the FTS5 table's own content,
 * which holds the listed theses' texts only: a scan of those short rows in key order, testing
 * each as publicSearchRowByRow does (at 1,000,000, "gh" to the cap: 12 ms, against 28 ms
 * reading each publication and its text).
 */
export async function countPublicSearchMatches(
  db: Kysely<any>,
  term: string,
  limit: number,
): Promise<number | undefined> {
  const text = searchableText(term).trim();
  if (!searchIndexServes(text)) {
    if (dialectOf(db) === "postgres" || text === "") return undefined;
    const { rows } = await sql<{ count: number }>`
      select count(*) as count from (
        select 1 from publications_search_content f
        where f.c0 like ${containsPattern(searchableText(term))} escape '\\' limit ${limit}
      )`.execute(db);
    return Number(rows[0]?.count ?? 0);
  }
  if (dialectOf(db) === "postgres") {
    const { rows } = await sql<{ count: string | number }>`
      select count(*) as count from (
        select 1 from publications p
        where ${sql.raw(listedSql("p"))} and p.search_text like lower(${containsPattern(text)}) escape '\\'
        limit ${limit}
      ) as capped`.execute(db);
    return Number(rows[0]?.count ?? 0);
  }
  const phrase = ftsPhrase(text);
  const { rows } = await sql<{ count: number }>`
    select count(*) as count from (
      select rowid from publications_search where publications_search match ${phrase} limit ${limit}
    )`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

// ---------------------------------------------------------------------------------------------
// The public list's keyword links (migration 025_public_keywords,
// docs/decisions/027-oai-pmh-and-public-pages.md)
//
// `publication_keywords`: one row per distinct keyword of each listed thesis (list_programme set,
// migration 023), the keyword as this database's lower() gives it, beside the thesis's place in
// the list's order and its programme. Its key (keyword, published_at, submission_id) makes a
// keyword's theses in the list's order one range, and (keyword, list_programme, published_at,
// submission_id) the same within a programme; both hold everything a keyword link reads, so it
// never visits a table row to count or to find its page. Kept by triggers from the publication's
// row: every firing deletes the rows of the row as it was and writes those of the row as it is.
// On PostgreSQL published_at is in collation "C", as the word postings' (migration 028), so the
// two ranges in the list's order can be merged (countPublicWordsWithKeyword).

/** The thesis's keywords decoded from its JSON array, as a FROM item `j` with a column `value`. */
function keywordElementsSql(db: Kysely<any>, row: string): string {
  return dialectOf(db) === "postgres"
    ? `json_array_elements_text(${row}.keywords::json) as j(value)`
    : `json_each(${row}.keywords) as j`;
}

/**
 * The rows a publication (`row`: a trigger's `new`, or a table alias named in `from`) has in
 * publication_keywords: its distinct lower-cased keywords while it is listed, none otherwise.
 */
function keywordRowsSql(db: Kysely<any>, row: string, from = ""): string {
  return `select distinct lower(j.value), ${row}.published_at, ${row}.submission_id, ${row}.list_programme
    from ${from}${keywordElementsSql(db, row)}
    where ${row}.list_programme is not null and ${row}.published_at is not null`;
}

/** Removes the rows a publication (`row`, as it was) had, each found by its key. */
function deleteKeywordRowsSql(db: Kysely<any>, row: string): string {
  return `delete from publication_keywords
    where keyword in (select lower(j.value) from ${keywordElementsSql(db, row)})
      and published_at = ${row}.published_at and submission_id = ${row}.submission_id`;
}

export async function createPublicKeywords(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql
    .raw(
      `create table publication_keywords (
      keyword text not null,
      published_at text${postgres ? ` collate "C"` : ""} not null,
      submission_id integer not null,
      list_programme text not null,
      primary key (keyword, published_at, submission_id)
    )${postgres ? "" : " without rowid"}`,
    )
    .execute(db);
  if (postgres) {
    // AFTER triggers see the row as 023's BEFORE trigger left it (list_programme set or cleared),
    // so a WHEN on old and new catches every change of what the rows hold, whatever the UPDATE
    // named: `after update of list_programme` would not fire for a withdrawal, since a column set
    // by a BEFORE trigger is not one the statement named.
    await sql
      .raw(
        `create function publication_keywords_sync() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.list_programme is not null then
          ${deleteKeywordRowsSql(db, "old")};
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.list_programme is not null then
          insert into publication_keywords (keyword, published_at, submission_id, list_programme)
          ${keywordRowsSql(db, "new")}
          on conflict (keyword, published_at, submission_id)
          do update set list_programme = excluded.list_programme;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql`create trigger publication_keywords_insert after insert on publications
      for each row when (new.list_programme is not null)
      execute function publication_keywords_sync()`.execute(db);
    await sql`create trigger publication_keywords_update after update on publications
      for each row when (old.keywords is distinct from new.keywords
        or old.published_at is distinct from new.published_at
        or old.list_programme is distinct from new.list_programme)
      execute function publication_keywords_sync()`.execute(db);
    await sql`create trigger publication_keywords_delete after delete on publications
      for each row when (old.list_programme is not null)
      execute function publication_keywords_sync()`.execute(db);
  } else {
    // SQLite: NEW is the row as the statement wrote it, not as a later trigger changed it (023's
    // triggers set list_programme after the row is written, in an UPDATE of their own, which fires
    // this trigger again), and the order of triggers on one event is not defined. So each firing
    // deletes the rows of OLD and writes those of the row as it is now, read again: whichever
    // fires last writes the final row's, and each earlier write is deleted by the next firing,
    // whose OLD it was.
    const rewrite = (deleteOld: boolean) => `
      ${deleteOld ? `${deleteKeywordRowsSql(db, "old")};` : ""}
      insert into publication_keywords (keyword, published_at, submission_id, list_programme)
      ${keywordRowsSql(db, "p", "publications as p, ")} and p.submission_id = new.submission_id
      on conflict (keyword, published_at, submission_id)
      do update set list_programme = excluded.list_programme;`;
    await sql
      .raw(
        `create trigger publication_keywords_insert after insert on publications begin
        ${rewrite(false)}
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger publication_keywords_update
      after update of keywords, published_at, list_programme on publications begin
        ${rewrite(true)}
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger publication_keywords_delete after delete on publications begin
        ${deleteKeywordRowsSql(db, "old")};
      end`,
      )
      .execute(db);
  }
  await rebuildPublicKeywords(db);
  // After the rows, so it is built by one sort rather than grown row by row out of its order
  // (PostgreSQL at 20,000 theses: 3.4 MB against 4.9 MB). SQLite: a WITHOUT ROWID table's secondary
  // index ends with the key's other columns, so this is (keyword, list_programme, published_at,
  // submission_id) there too.
  await sql`create index publication_keywords_programme on publication_keywords
    (keyword, list_programme, published_at, submission_id)`.execute(db);
}

/** Fills publication_keywords from the publications, set-based (the migration; a bulk load after its rows). */
export async function rebuildPublicKeywords(db: Kysely<any>): Promise<void> {
  await sql`delete from publication_keywords`.execute(db);
  await sql
    .raw(
      `insert into publication_keywords (keyword, published_at, submission_id, list_programme)
    ${keywordRowsSql(db, "p", "publications as p, ")}
    order by 1, 2, 3`,
    )
    .execute(db);
  if (dialectOf(db) === "postgres") await sql`analyze publication_keywords`.execute(db);
}

export async function dropPublicKeywords(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    for (const event of ["insert", "update", "delete"]) {
      await sql`drop trigger if exists ${sql.raw(`publication_keywords_${event}`)} on publications`.execute(
        db,
      );
    }
    await sql`drop function if exists publication_keywords_sync()`.execute(db);
  } else {
    for (const event of ["insert", "update", "delete"]) {
      await sql`drop trigger if exists ${sql.raw(`publication_keywords_${event}`)}`.execute(db);
    }
  }
  await sql`drop table if exists publication_keywords`.execute(db);
}

// ---------------------------------------------------------------------------------------------
// Planner statistics after a bulk write (docs/decisions/018-statistics-after-imports.md)

/** The tables a bulk write (an import's apply) reports its changes for. */
export type BulkWrittenTable = "submissions" | "submission_events";

/**
 * The tables analyzed with each: a submission's search postings and their vocabulary are written
 * by triggers with it, in proportion (about 18 postings a submission).
 */
const ANALYZED_WITH: Record<BulkWrittenTable, readonly string[]> = {
  submissions: ["submissions", "submission_search_grams", "submission_search_vocabulary"],
  submission_events: ["submission_events"],
};

/**
 * When the rows changed since a table's statistics were gathered are enough that the planner's
 * picture of it is out of date: autovacuum's default rule for ANALYZE (50 rows plus 10 % of the
 * rows its statistics last counted).
 */
export function statisticsStale(changedRows: number, rowsLastAnalyzed: number): boolean {
  return changedRows >= 50 + 0.1 * rowsLastAnalyzed;
}

/**
 * How many rows a table held when its statistics were last gathered (0 for a table never
 * analyzed), and how many rows changed since: how far its row count has moved, or the rows the
 * write just committed changed if more (an import of updates keeps the count). Counted, not read
 * from PostgreSQL's n_mod_since_analyze: each backend reports its changes up to a second late, so
 * the import's own might be missing or, once reported, counted twice; a count is exact on both
 * databases (a few tens of milliseconds at a million rows, once per import).
 * - PostgreSQL: pg_class.reltuples, set by ANALYZE and VACUUM (-1 before the first).
 * - SQLite: sqlite_stat1, whose stat column starts with the row count (absent until the first
 *   ANALYZE).
 */
async function statisticsAge(
  db: Kysely<any>,
  table: string,
  changedNow: number,
): Promise<{ lastAnalyzed: number; changed: number }> {
  let lastAnalyzed = 0;
  if (dialectOf(db) === "postgres") {
    const { rows } = await sql<{ reltuples: number | string | null }>`
      select reltuples from pg_class where oid = to_regclass(${table})`.execute(db);
    lastAnalyzed = Math.max(0, Number(rows[0]?.reltuples ?? 0));
  } else {
    const { rows: exists } = await sql<{ n: number }>`
      select count(*) as n from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(
      db,
    );
    if (Number(exists[0]?.n ?? 0) > 0) {
      // The stat column is "rows [rows per key…]": its leading integer is the row count.
      const { rows } = await sql<{ n: number | null }>`
        select max(cast(stat as integer)) as n from sqlite_stat1 where tbl = ${table}`.execute(db);
      lastAnalyzed = Number(rows[0]?.n ?? 0);
    }
  }
  const { rows: counted } = await sql<{ n: number | string }>`
    select count(*) as n from ${sql.table(table)}`.execute(db);
  return {
    lastAnalyzed,
    changed: Math.max(changedNow, Math.abs(Number(counted[0]?.n ?? 0) - lastAnalyzed)),
  };
}

/**
 * After a bulk write (an import's apply, once committed): fresh planner statistics for every table
 * it leaves changed enough since they were last gathered (statisticsStale), so that the searches
 * that follow are planned for the table as it now is. Autovacuum does this on its own where it
 * runs; these machines run PostgreSQL without it, and SQLite never gathers statistics by itself.
 * Returns the tables refreshed.
 * - PostgreSQL: VACUUM (ANALYZE) of the table and those written with it: the statistics, and the
 *   visibility map that lets a count read the term postings' key alone (after an import without
 *   it, counting a common gram's 10,001 postings visited some 7,000 heap pages). It runs outside
 *   a transaction, so the caller passes the database, never a transaction.
 * - SQLite: ANALYZE with analysis_limit 1,000 rows per index, as PRAGMA optimize does.
 */
export async function refreshStatisticsAfterBulkWrite(
  db: Kysely<any>,
  changed: Partial<Record<BulkWrittenTable, number>>,
): Promise<string[]> {
  const tables: string[] = [];
  for (const [table, rows] of Object.entries(changed) as [BulkWrittenTable, number][]) {
    const age = await statisticsAge(db, table, rows);
    if (statisticsStale(age.changed, age.lastAnalyzed)) tables.push(...ANALYZED_WITH[table]);
  }
  if (tables.length === 0) return tables;
  if (dialectOf(db) === "postgres") {
    await sql`vacuum (analyze) ${sql.join(tables.map((table) => sql.id(table)))}`.execute(db);
    return tables;
  }
  await sql`pragma analysis_limit = 1000`.execute(db);
  for (const table of tables) await sql`analyze ${sql.id(table)}`.execute(db);
  return tables;
}

// ---------------------------------------------------------------------------------------------
// The public list's word postings (migration 028_public_search_words, PostgreSQL only;
// docs/decisions/006-search.md and 027-oai-pmh-and-public-pages.md)
//
// A word is a maximal run of characters that are not separators, a separator being every ASCII
// character that is not a letter or a digit (space, punctuation, and the chr(31) between the
// parts of `publications.search_text`). A term without a separator matches a text exactly when
// it is a substring of one of the text's words: an occurrence cannot cross a separator. So such
// a term's matches are the postings of the vocabulary's words containing it, each word's postings
// one range of a narrow B-tree already in the list's order: a handful of words are merged in that
// order, index-only, and the count stops at the cap, where the trigram index has to collect (or
// the list's order test) every match. SQLite keeps its FTS5 path, which counts 10,001 matches in
// a few milliseconds.

/**
 * The separators as a regular-expression class written as ASCII ranges (not [[:alnum:]], whose
 * letters depend on the locale): everything below "0", between "9" and "a"/"A", and above "z".
 */
const WORD_SEPARATORS = "[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]";
/** The same in a term, whose control characters searchableText has already removed. */
/** The distinct words of a text (an SQL expression). */
function wordsOf(text: string): string {
  return `select distinct w from regexp_split_to_table(${text}, '${WORD_SEPARATORS}+') as w where w <> ''`;
}

const WORD_SEPARATOR = /[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;

/** The word postings, their vocabulary, the function that splits a text and the triggers. */
export async function createPublicSearchWords(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  // The key is the list's order within a word: a word's postings read backwards are the list.
  // Collation "C": compared bytewise when postings are merged (under the database's collation
  // each comparison is a strcoll, and merging 10,000 postings took twice as long), the same order
  // as the list's for published_at, an ISO 8601 time always written in one format.
  await sql`create table publication_word_postings (
    word text collate "C" not null,
    published_at text collate "C" not null,
    submission_id integer not null,
    constraint publication_word_postings_pk primary key (word, published_at, submission_id)
  )`.execute(db);
  // Every word ever posted; one whose last posting went stays (a stale word finds an empty range,
  // never a wrong match, and a delete needs no count of what is left).
  await sql`create table publication_search_words (word text collate "C" primary key)`.execute(db);
  await sql`create index publication_search_words_trgm on publication_search_words
    using gin (word gin_trgm_ops) with (fastupdate = off)`.execute(db);
  // Strict, so never inlined into the triggers' statements: planned with its own estimate of a
  // thesis's words (12; inlined, the planner took 200 per thesis and chose to scan every posting
  // rather than look each up by its key).
  await sql
    .raw(
      `create function publication_words_of(text_ text) returns setof text
        language sql immutable strict rows 12 as $$ ${wordsOf("text_")} $$`,
    )
    .execute(db);
  const fn = (name: string, body: string) =>
    sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`,
      )
      .execute(db);
  // Statement triggers with transition tables, as the admin list's postings (ADR 006): a bulk
  // load of publications writes its postings in one statement. search_text is set by 023's
  // BEFORE row trigger, so the rows here hold the final text; it is null unless listed.
  const words = "cross join lateral publication_words_of(r.search_text) as w";
  const insertFrom = (rows: string) =>
    `with inserted as (
       insert into publication_word_postings (word, published_at, submission_id)
         select w, r.published_at, r.submission_id from ${rows}
         returning word
     )
     insert into publication_search_words (word)
       select distinct word from inserted on conflict do nothing;`;
  // The postings to delete computed first, then looked up by their key: planned in one, the
  // postings were joined to the rows by submission id before their words were known (a scan of
  // every posting, then the words split per posting: 2 s for 300 theses at 200,000, over 10
  // minutes for 10,000).
  const deleteFrom = (rows: string) =>
    `with d as materialized (
       select w, r.published_at, r.submission_id from ${rows}
     )
     delete from publication_word_postings p using d
     where p.word = d.w and p.published_at = d.published_at and p.submission_id = d.submission_id;`;
  // The rows whose text or place in the list changed, the old and new rows joined once on the
  // key: every other update (a datestamp, a download count) writes nothing.
  const changed = (rows: string, other: string) =>
    `${rows} r join ${other} x on x.submission_id = r.submission_id ${words}
       where r.search_text is distinct from x.search_text
          or r.published_at is distinct from x.published_at`;
  await fn(
    "publication_word_postings_inserted",
    insertFrom(`new_rows r ${words} where r.search_text is not null`),
  );
  await fn(
    "publication_word_postings_deleted",
    deleteFrom(`old_rows r ${words} where r.search_text is not null`),
  );
  await fn(
    "publication_word_postings_updated",
    deleteFrom(changed("old_rows", "new_rows")) + insertFrom(changed("new_rows", "old_rows")),
  );
  await fn(
    "publication_word_postings_truncated",
    "truncate publication_word_postings; truncate publication_search_words;",
  );
  await createStatementTriggers(db, "publications", "publication_word_postings");
}

/**
 * Fills the word postings and their vocabulary from every listed thesis's text, replacing what
 * they held, set-based: the postings written into the table without its key, the key then built
 * by one sort, the vocabulary read by skipping along the key from one word to the next. The
 * migration runs it on existing data. A VACUUM of the postings after it lets counts read the key
 * alone (index-only scans need the visibility map).
 */
export async function rebuildPublicSearchWords(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`truncate publication_word_postings, publication_search_words`.execute(db);
  await sql`alter table publication_word_postings drop constraint publication_word_postings_pk`.execute(
    db,
  );
  await sql`insert into publication_word_postings (word, published_at, submission_id)
    select w, p.published_at, p.submission_id from publications p
      cross join lateral (${sql.raw(wordsOf("p.search_text"))}) as words
    where p.search_text is not null`.execute(db);
  await sql`alter table publication_word_postings
    add constraint publication_word_postings_pk primary key (word, published_at, submission_id)`.execute(
    db,
  );
  await sql`insert into publication_search_words (word)
    with recursive words(word) as (
      select min(word) from publication_word_postings
      union all
      select (select min(p.word) from publication_word_postings p where p.word > words.word)
        from words where words.word is not null
    )
    select word from words where word is not null`.execute(db);
}

export async function dropPublicSearchWords(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  for (const event of ["insert", "delete", "update", "truncate"]) {
    await sql`drop trigger if exists ${sql.id(`publication_word_postings_${event}`)} on publications`.execute(
      db,
    );
  }
  for (const event of ["inserted", "deleted", "updated", "truncated"]) {
    await sql`drop function if exists ${sql.id(`publication_word_postings_${event}`)}()`.execute(
      db,
    );
  }
  await sql`drop function if exists publication_words_of(text)`.execute(db);
  await sql`drop table if exists publication_word_postings`.execute(db);
  await sql`drop table if exists publication_search_words`.execute(db);
}

/**
 * The vocabulary's words containing the term, when the word postings can answer it: PostgreSQL,
 * a term without a separator character, contained in no more than `maxWords` words (none is an
 * answer: no thesis matches). Undefined otherwise (SQLite, a term with a separator, too many
 * words): the caller takes the search index's path.
 */
export async function publicSearchWords(
  db: Kysely<any>,
  term: string,
  maxWords: number,
): Promise<string[] | undefined> {
  const text = searchableText(term).trim();
  if (dialectOf(db) !== "postgres" || text === "" || WORD_SEPARATOR.test(text)) return undefined;
  // Lower-cased by the database, as the search text is (and as publicSearchCondition does).
  const { rows } = await sql<{ word: string }>`
    select word from publication_search_words
    where word like lower(${containsPattern(text)}) escape '\\'
    limit ${maxWords + 1}`.execute(db);
  return rows.length > maxWords ? undefined : rows.map((r) => r.word);
}

/**
 * The listed theses having one of `words`, in the list's order (newest first, the submission id
 * breaking ties), its first `rows` at most: each word's postings one range of the key read
 * backwards, its first `rows` (no word needs more), merged in that order (Merge Append of
 * index-only scans), and a thesis having two of the words kept once (its postings are adjacent in
 * the merged order, so a row whose predecessor is the same thesis is dropped). It streams: a limit
 * stops it without sorting or collecting the matches. Written so because the planner streams
 * nothing simpler: without the ranges' own order and limit, a UNION ALL's branches are not read in
 * order (a Sort of every match), and DISTINCT is planned for its row estimate (a few thousand where
 * there were 40,000) as a HashAggregate of every match, then a Sort. One word: its range alone,
 * one posting per thesis.
 */
function wordMatchesInListOrder(words: readonly string[], rows: number): RawBuilder<unknown> {
  const range = (w: string) =>
    sql`select published_at, submission_id from publication_word_postings where word = ${w}
      order by published_at desc, submission_id desc limit ${rows}`;
  if (words.length === 1) return range(words[0] as string);
  const ranges = sql.join(
    words.map((w) => sql`(${range(w)})`),
    sql` union all `,
  );
  return sql`select published_at, submission_id from (
      select published_at, submission_id,
        lag(submission_id) over (order by published_at desc, submission_id desc) as previous
      from (${ranges}) as postings
    ) as merged
    where previous is distinct from submission_id
    order by published_at desc, submission_id desc`;
}

/** How many listed theses have one of `words`, counted no further than `limit`. */
export async function countPublicWordMatches(
  db: Kysely<any>,
  words: readonly string[],
  limit: number,
): Promise<number> {
  if (words.length === 0) return 0;
  const { rows } = await sql<{ count: string | number }>`
    select count(*) as count from (
      select 1 from (${wordMatchesInListOrder(words, limit)}) as matches limit ${limit}
    ) as capped`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * PostgreSQL: how many listed theses (of the programme) have the word and hold the keyword,
 * counted no further than `limit`: the word's postings and the keyword's range of
 * publication_keywords, both in the list's order and in collation "C", merged (a Merge Join of
 * two index-only scans that stops at the limit). A keyword link with a common term, at 1,000,000:
 * 50 to 75 ms, against 180 to 300 ms for the trigram index's theses holding both texts, each
 * checked (a heap page at random for each). Without parallel workers: given them, the planner
 * (expecting a handful of rows) hashes both ranges whole. Inside a caller's transaction that
 * setting is not made (it would outlast this query), and the plan is the planner's.
 */
export async function countPublicWordWithKeyword(
  db: Kysely<any>,
  word: string,
  keyword: string,
  programme: string | undefined,
  limit: number,
): Promise<number> {
  const count = async (executor: Kysely<any>) => {
    const { rows } = await sql<{ count: string | number }>`
      select count(*) as count from (
        select 1 from publication_word_postings w
        join publication_keywords k
          on k.published_at = w.published_at and k.submission_id = w.submission_id
        where w.word = ${word} and k.keyword = lower(${keyword})
          ${programme === undefined ? sql`` : sql`and k.list_programme = ${programme}`}
        limit ${limit}
      ) as capped`.execute(executor);
    return Number(rows[0]?.count ?? 0);
  };
  if (db.isTransaction) return count(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return count(trx);
  });
}

/** The submission ids of one page of the listed theses having one of `words`, in the list's order. */
export async function publicWordMatchesPage(
  db: Kysely<any>,
  words: readonly string[],
  limit: number,
  offset: number,
): Promise<number[]> {
  if (words.length === 0) return [];
  const { rows } = await sql<{ submission_id: number | string }>`
    select submission_id from (${wordMatchesInListOrder(words, offset + limit)}) as matches
    offset ${offset} limit ${limit}`.execute(db);
  return rows.map((r) => Number(r.submission_id));
}

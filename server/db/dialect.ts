import {
  CompiledQuery,
  PostgresAdapter,
  sql,
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

/**
 * Whether the list collects a search's matches in a MATERIALIZED common table expression before
 * sorting them (docs/decisions/006-search.md). PostgreSQL needs it: left to itself it walks the
 * sort column's index and filters row by row, slow when the matches sort late. SQLite plans the
 * matches first anyway (the FTS rowids, then a top-N sort), and there the fence only copies every
 * matching row whole into a temporary table before sorting: page 1 of "ama" over 10,000
 * submissions (804 matches) took 7 ms with it and 1.4 ms without (docs/benchmarks.md, "Load").
 */
export function collectsSearchMatchesFirst(db: Kysely<any>): boolean {
  return dialectOf(db) === "postgres";
}

/** A LIKE pattern matching `term` anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The term as searched: control characters never belong in a name or an index number. */
function searchableText(term: string): string {
  return term.replace(/\p{Cc}/gu, "");
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
    const phrase = `"${text.replace(/"/g, '""')}"`;
    return sql<SqlBool>`submissions.id in (select rowid from submissions_search where submissions_search match ${phrase})`;
  }
  // SQLite's LIKE ignores case (for ASCII letters, which is what names and index numbers use).
  const pattern = containsPattern(text);
  return sql<SqlBool>`(submissions.student_name like ${pattern} escape '\\' or submissions.index_number like ${pattern} escape '\\')`;
}

import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many distinct SQL texts keep a prepared statement; the least recently used goes first. */
export const STATEMENT_CACHE_SIZE = 500;

export interface StatementCacheStats {
  hits: number;
  misses: number;
  size: number;
}

/** Turns one row, as better-sqlite3's raw mode gives it (values in column order), into an object. */
type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A function that builds a row object with these column names as its keys, in one object literal.
 *
 * better-sqlite3 builds each row object key by key, looking every column's name up in V8's string
 * table and moving the object through a new shape per key: at the list's 25 rows of 45 columns,
 * that was 155 µs of a 25-row page read whose values take 67 µs (docs/benchmarks.md, "API hot
 * path"). A literal with fixed keys is built by V8 from one shape. The names come from SQLite's
 * own description of the statement (better-sqlite3's `columns()`), quoted by JSON.stringify, so
 * no text of a request reaches the function's source. A name given twice (two tables' `id`)
 * takes the later column's value, as an object built key by key does.
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  const last = new Map<string, number>();
  columns.forEach((name, i) => last.set(name, i));
  // A literal's plain "__proto__" key would set the prototype; computed, it is an own field.
  const fields = [...last].map(([name, i]) =>
    name === "__proto__" ? `["__proto__"]: values[${i}]` : `${JSON.stringify(name)}: values[${i}]`,
  );
  return new Function("values", `return { ${fields.join(", ")} };`) as RowBuilder;
}

/** SQL that only reads or writes rows; every other statement may change the schema. */
const ROW_STATEMENT =
  /^\s*(?:select|insert|update|delete|replace|with|begin|commit|rollback|savepoint|release|pragma)\b/i;

/**
 * A reading statement (a select, or a write with `returning`) whose rows are built by a row
 * builder from better-sqlite3's raw mode. Its raw statement is its own, never handed to Kysely.
 * The builder is made again when the schema may have changed: `select *` then names other
 * columns, because SQLite re-prepares a statement by itself after a change to its tables.
 */
class ReaderStatement implements SqliteStatement {
  readonly reader = true;
  readonly #statement: SQLite.Statement;
  readonly #cache: StatementCache;
  #builder: RowBuilder | null = null;
  #columnCount = -1;
  #schemaGeneration = -1;

  constructor(statement: SQLite.Statement, cache: StatementCache) {
    this.#statement = statement.raw(true);
    this.#cache = cache;
  }

  /** True while an iteration over its rows is open (a stream): then it cannot run again. */
  get busy(): boolean {
    return this.#statement.busy;
  }

  #build(values: unknown[]): Record<string, unknown> {
    if (
      this.#builder === null ||
      values.length !== this.#columnCount ||
      this.#schemaGeneration !== this.#cache.schemaGeneration
    ) {
      const columns = this.#statement.columns().map((c) => c.name);
      this.#builder = rowBuilder(columns);
      this.#columnCount = columns.length;
      this.#schemaGeneration = this.#cache.schemaGeneration;
    }
    return this.#builder(values);
  }

  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.#statement.all(parameters) as unknown[][];
    const built = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i += 1) built[i] = this.#build(rows[i] as unknown[]);
    return built;
  }

  run(parameters: readonly unknown[]): SQLite.RunResult {
    return this.#statement.run(parameters);
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    for (const values of this.#statement.iterate(parameters) as IterableIterator<unknown[]>) {
      yield this.#build(values);
    }
  }
}

/**
 * The better-sqlite3 database as Kysely's SqliteDialect sees it, with `prepare` answering from a
 * bounded cache keyed by the SQL text. Kysely's driver prepares a new statement for every query;
 * preparing costs about a tenth of a status read under load (issue 11), and a better-sqlite3
 * statement can be run again with new parameters, so each SQL text is prepared once. A reading
 * statement's rows are built by a row builder (ReaderStatement above), the same objects faster.
 *
 * Safe to share because:
 * - Kysely only reads `reader` and calls `all`, `run` and `iterate`. Only ReaderStatement sets a
 *   statement mode (`raw`), on a statement it keeps to itself.
 * - A statement still iterating (a `stream()` with a query run inside its loop on the same
 *   connection) is `busy`: that query gets a fresh statement of its own instead of the cached one.
 * - SQLite re-prepares a statement by itself when the schema changes under it (a migration run
 *   through this cache); its row builder is then made again. A schema changed by another process
 *   while this one runs is not covered for a renamed column: the worker processes sharing a
 *   SQLite file (docs/decisions/017-workers-on-one-machine.md) migrate it at start, under the
 *   start-up lock, before any of them serves.
 */
export class StatementCache implements SqliteDatabase {
  readonly #database: SQLite.Database;
  readonly #capacity: number;
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  readonly #statements = new Map<string, CachedStatement>();
  #hits = 0;
  #misses = 0;
  #schemaGeneration = 0;

  constructor(database: SQLite.Database, capacity = STATEMENT_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error("The statement cache needs room for at least one statement.");
    }
    this.#database = database;
    this.#capacity = capacity;
  }

  /**
   * Counts the statements run through this cache that may have changed the schema (a migration's
   * create, alter or drop): a reading statement makes its row builder again when it changes.
   */
  get schemaGeneration(): number {
    return this.#schemaGeneration;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached && !cached.statement.busy) {
      this.#hits += 1;
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      if (cached.changesSchema) this.#schemaGeneration += 1;
      return cached.statement;
    }
    this.#misses += 1;
    const entry = this.#prepareNew(sql);
    if (entry.changesSchema) this.#schemaGeneration += 1;
    // A busy statement stays cached for the next query; this one is used once and dropped.
    if (cached) return entry.statement;
    this.#statements.set(sql, entry);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next().value;
      // Dropped statements are finalised by better-sqlite3 when they are garbage-collected.
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return entry.statement;
  }

  #prepareNew(sql: string): CachedStatement {
    const statement = this.#database.prepare(sql);
    if (statement.reader) {
      return { statement: new ReaderStatement(statement, this), changesSchema: false };
    }
    return { statement, changesSchema: !ROW_STATEMENT.test(sql) };
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }

  stats(): StatementCacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#statements.size };
  }
}

interface CachedStatement {
  readonly statement: SqliteStatement & { readonly busy: boolean };
  /** Not a plain read or write of rows: running it may change the schema. */
  readonly changesSchema: boolean;
}

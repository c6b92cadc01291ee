import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many distinct SQL texts keep a prepared statement; the least recently used goes first. */
export const STATEMENT_CACHE_SIZE = 500;

export interface StatementCacheStats {
  hits: number;
  misses: number;
  size: number;
}

/**
 * The better-sqlite3 database as Kysely's SqliteDialect sees it, with `prepare` answering from a
 * bounded cache keyed by the SQL text. Kysely's driver prepares a new statement for every query;
 * preparing costs about a tenth of a status read under load (issue 11), and a better-sqlite3
 * statement can be run again with new parameters, so each SQL text is prepared once.
 *
 * Safe to share because:
 * - Kysely only reads `reader` and calls `all`, `run` and `iterate`; nothing given this object
 *   sets a statement mode (`raw`, `pluck`, `expand`, `safeIntegers`) that would outlive a query.
 * - A statement still iterating (a `stream()` with a query run inside its loop on the same
 *   connection) is `busy`: that query gets a fresh statement of its own instead of the cached one.
 * - SQLite re-prepares a statement by itself when the schema changes under it (a migration).
 */
export class StatementCache implements SqliteDatabase {
  readonly #database: SQLite.Database;
  readonly #capacity: number;
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  readonly #statements = new Map<string, SQLite.Statement>();
  #hits = 0;
  #misses = 0;

  constructor(database: SQLite.Database, capacity = STATEMENT_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error("The statement cache needs room for at least one statement.");
    }
    this.#database = database;
    this.#capacity = capacity;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached && !cached.busy) {
      this.#hits += 1;
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    this.#misses += 1;
    const statement = this.#database.prepare(sql);
    // A busy statement stays cached for the next query; this one is used once and dropped.
    if (cached) return statement;
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next().value;
      // Dropped statements are finalised by better-sqlite3 when they are garbage-collected.
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }

  stats(): StatementCacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#statements.size };
  }
}

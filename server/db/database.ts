import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type Transaction,
} from "kysely";
import type pg from "pg";
import type { DatabaseConfig } from "../config.js";
import type { Database } from "./schema.js";
import { migrationProvider } from "./migrations/index.js";
import { StatementCache } from "./statement-cache.js";
import { runNamedStatementsOn } from "./dialect.js";
import { ImmediateSqliteDialect } from "./sqlite-transactions.js";
import { lazyModule } from "../lazy-module.js";

export type Db = Kysely<Database>;

/** Repositories take the database or a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Loaded with the first PostgreSQL database: an SQLite install never needs it. */
const postgres = lazyModule<typeof pg>("pg", (loaded) => {
  // PostgreSQL returns bigint (count(*)) as text by default; our counts fit in a JS number.
  loaded.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));
});

export function createDatabase(config: DatabaseConfig): Db {
  if (config.kind === "postgres") {
    const pool = new (postgres().Pool)({ connectionString: config.url, max: 10 });
    // An idle connection that PostgreSQL closes (a restart, an administrator's terminate) is
    // reported here; without a listener the process would crash. The pool drops that connection
    // and the next query opens a new one; a query in flight gets its own error.
    pool.on("error", (error) => {
      console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
    });
    // The pool listens only while a connection is idle. One that PostgreSQL closes while a request
    // holds it (a transaction between two queries) reports on the connection itself, and with no
    // listener that would end the process. The request's own query fails instead (503, see
    // isDatabaseUnavailable), and the pool discards the connection when it is released.
    pool.on("connect", (client) => {
      client.on("error", () => undefined);
    });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: callbackQueries(pool) }),
    });
    runNamedStatementsOn(db, pool);
    return db;
  }
  return createSqliteDatabase(config.path).db;
}

/**
 * The pool as Kysely sees it, its clients running each query through pg's callback form.
 * Kysely calls `client.query(text, values)`, pg's promise form; measured (issue 20,
 * docs/benchmarks.md "OAI-PMH and the public list"), nearly every row read that way outlived the
 * young generation's collections and was promoted to the old one, where only a full collection
 * frees it: half a megabyte a collection for a loop of 100-row reads, and in a harvest the young
 * generation grown to its largest and the process's RSS with it. The same reads with a callback,
 * as pg's own `pool.query` makes them, promote a few hundred bytes. Cursors pass through as they are.
 * The wrapper is made once per pg client, so Kysely's connection for a client stays the same.
 */
function callbackQueries(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(
      text: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      text: string | PostgresCursor<R>,
      parameters?: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      // A cursor (a submittable) is what pg returns for it; nothing to wrap.
      if (typeof text !== "string") return client.query(text as never) as PostgresCursor<R>;
      return new Promise((resolve, reject) => {
        client.query(text, parameters as unknown[], (error, result) => {
          if (error) reject(error);
          else resolve(result as unknown as PostgresQueryResult<R>);
        });
      });
    }
    return { query, release: () => client.release() };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/**
 * A PostgreSQL connection of its own, outside the pool: for a session-level lock that must stay
 * on one connection (startup-lock.ts). The caller ends it.
 */
export async function connectPostgresClient(url: string): Promise<pg.Client> {
  const client = new (postgres().Client)({ connectionString: url });
  // A connection PostgreSQL closes reports here; the caller's query fails on its own.
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/**
 * A SQLite file behind Kysely, with its prepared statements cached (statement-cache.ts) and every
 * transaction begun IMMEDIATE (sqlite-transactions.ts: several processes share the file). The
 * cache is returned beside the database so tests and benchmarks can read its figures.
 */
export function createSqliteDatabase(file: string): { db: Db; statements: StatementCache } {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // 64 MB of page cache instead of SQLite's 2 MB: at a million submissions the search postings'
  // index alone is half a gigabyte, and an import's inserts, each touching some twenty places in
  // it, thrashed the default cache (a 3,000-row insert: 3.8 s, 2.0 s with this). Pages are
  // allocated as they are read, so a small database uses little of it.
  sqlite.pragma("cache_size = -65536");
  const statements = new StatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: statements }),
  });
  if (file !== ":memory:") sqliteFiles.set(db, file);
  return { db, statements };
}

/** The file behind each SQLite database this process opened, for bulk readers of their own. */
const sqliteFiles = new WeakMap<Db, string>();
let openReaders = 0;

/**
 * How many bulk readers are open now (tests: every one is closed when its export ends).
 */
export function openBulkReaderCount(): number {
  return openReaders;
}

export interface BulkReader {
  /** Where the long read runs. */
  db: Db;
  /** Ends the reader; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * A database handle for one long read, such as an export of every submission.
 * - SQLite: a read-only connection of its own to the same file, with SQLite's default page cache
 *   (2 MB) instead of the server's 64 MB. A million exported rows would otherwise fill the
 *   server's cache with their pages and push out the ones every request reads (the search
 *   postings' index, the sessions), and that cache stays allocated (bench-bulk: the first export
 *   grew the server's RSS by 104 MB, 64 of them the cache). WAL lets it read beside the writers.
 * - PostgreSQL, or an in-memory SQLite database (no file to open twice): the database itself;
 *   the pool already gives each query a connection.
 */
export function openBulkReader(db: Db): BulkReader {
  const file = sqliteFiles.get(db);
  if (file === undefined) return { db, release: async () => undefined };
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  // Through a statement cache of its own, as the server's connection: each page's statement is
  // prepared once and its rows built by the compiled row builder (statement-cache.ts).
  const reader = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new StatementCache(sqlite) }),
  });
  openReaders += 1;
  let released = false;
  return {
    db: reader,
    release: async () => {
      if (released) return;
      released = true;
      openReaders -= 1;
      await reader.destroy();
    },
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(
      `Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function isDatabaseReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** One clock for stored times: ISO-8601 UTC strings sort and compare the same in both dialects. */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}

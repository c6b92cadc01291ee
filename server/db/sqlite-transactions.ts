import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from "kysely";

/**
 * Kysely's SQLite dialect with every transaction begun IMMEDIATE instead of SQLite's default,
 * deferred BEGIN.
 *
 * Several processes share one SQLite file (ETS_WORKERS, docs/decisions/008-several-servers.md). A
 * deferred transaction starts as a reader and asks for the write lock at its first write; if
 * another connection holds the write lock then, SQLite cannot upgrade it (the reader's snapshot
 * would be stale once the other commits) and answers SQLITE_BUSY at once, without waiting
 * busy_timeout: a request that read first and then wrote failed with a 500 within milliseconds.
 * BEGIN IMMEDIATE takes the write lock first, waiting up to busy_timeout for it, so the
 * transaction's reads and writes see one state and it never has to upgrade.
 *
 * Every transaction here writes, or reads what it is about to write (the services own their
 * transactions, docs/CONTRIBUTING-notes.md), so none is held back needlessly; reads outside a
 * transaction never take the lock, and WAL lets them run beside the writer. A read-only
 * connection (the bulk reader in database.ts) keeps Kysely's own dialect: it cannot take a write
 * lock, and runs no transaction.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

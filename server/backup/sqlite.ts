import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { createDatabase, migrateToLatest } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { BackupError } from "./backup-error.js";
import {
  MIGRATION_TABLE,
  appliedMigrations,
  assertKnownMigrations,
  describeContents,
  type DatabaseContents,
} from "./contents.js";

/**
 * SQLite backups use SQLite's online backup API: pages are copied from a read transaction on the
 * live file, so the copy is the database as one commit left it, while the server goes on writing.
 */

/**
 * The whole database in one step. Copied in small steps, the copy starts over whenever another
 * connection writes between two steps, so a busy server could keep it from ever finishing; one
 * step reads one snapshot, and in WAL mode the server's writes carry on meanwhile.
 */
const ALL_PAGES = 0x7fffffff;
const BUSY_TIMEOUT_MS = 5000;

/** Copies the database at sourcePath to copyPath and checks the copy; returns what it holds. */
export async function backupSqlite(
  sourcePath: string,
  copyPath: string,
): Promise<DatabaseContents> {
  if (sourcePath === ":memory:") {
    throw new BackupError("DATABASE_URL is sqlite::memory:, which keeps nothing to back up.");
  }
  if (!fs.existsSync(sourcePath)) {
    throw new BackupError(`There is no SQLite database at ${sourcePath}; check DATABASE_URL.`);
  }
  let source: SQLite.Database | null = null;
  try {
    // Never create an empty database where the live one was expected.
    source = new SQLite(sourcePath, { fileMustExist: true });
    source.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    await source.backup(copyPath, { progress: () => ALL_PAGES });
  } catch (error) {
    throw new BackupError(`Could not copy the SQLite database ${sourcePath}: ${messageOf(error)}`);
  } finally {
    source?.close();
  }
  const checked = await checkSqliteFile(copyPath, "The copy");
  await makeStandalone(copyPath);
  return checked.contents;
}

/**
 * Restores a SQLite backup to targetPath, a new file unless force. The work happens in a file
 * beside the target that is renamed into place only when it has passed its checks and
 * migrations, so a failure leaves the target as it was.
 */
export async function restoreSqlite(
  backupFile: string,
  targetPath: string,
  force: boolean,
): Promise<{
  backupMigration: string | null;
  migrationsApplied: string[];
  contents: DatabaseContents;
}> {
  if (targetPath === ":memory:") {
    throw new BackupError("Restore into a file (sqlite:<path>), not sqlite::memory:.");
  }
  if (fs.existsSync(targetPath)) {
    if (!force) {
      throw new BackupError(
        `sqlite:${targetPath} already exists. Restore into a new file with --into sqlite:<new path> and point DATABASE_URL at it, or add --force to replace it (stop the server first).`,
      );
    }
    assertNotInUse(targetPath);
  }
  fs.mkdirSync(path.dirname(targetPath), { recursive: true });
  const work = `${targetPath}.restoring-${randomBytes(4).toString("hex")}`;
  try {
    fs.copyFileSync(backupFile, work);
    const checked = await checkSqliteFile(work, backupFile);
    await assertKnownMigrations(checked.migrations, backupFile);
    const db = createDatabase({ kind: "sqlite", path: work });
    let migrationsApplied: string[];
    let contents: DatabaseContents;
    try {
      migrationsApplied = await migrateToLatest(db);
      contents = await describeContents(db);
    } finally {
      // Closing the last connection checkpoints the WAL into the file, so the file is whole.
      await db.destroy();
    }
    if (force) {
      // The old database's journal must not be replayed into the restored file.
      for (const suffix of ["-wal", "-shm", "-journal"]) {
        fs.rmSync(`${targetPath}${suffix}`, { force: true });
      }
    }
    fs.renameSync(work, targetPath);
    return { backupMigration: checked.contents.migration, migrationsApplied, contents };
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      fs.rmSync(`${work}${suffix}`, { force: true });
    }
  }
}

/**
 * Replacing a file a server has open would leave that server writing to the old, unlinked file:
 * its writes would vanish. Every open connection blocks an exclusive lock, even an idle one.
 */
function assertNotInUse(file: string): void {
  let db: SQLite.Database | null = null;
  try {
    // No waiting: an idle server's connection blocks the lock for as long as it stays open.
    db = new SQLite(file, { fileMustExist: true, timeout: 0 });
    db.pragma("locking_mode = exclusive");
    db.exec("begin exclusive");
    db.exec("commit");
  } catch (error) {
    if (codeOf(error) === "SQLITE_BUSY") {
      throw new BackupError(
        `sqlite:${file} is in use by another program (is the server running?). Stop it, then run the restore again.`,
      );
    }
    // Anything else (not a database, damaged): --force replaces it all the same.
  } finally {
    db?.close();
  }
}

/**
 * Checks a SQLite file the way a backup must be checked before anyone relies on it: SQLite's
 * integrity check (pages, indexes), the foreign keys, the search index against its table, and
 * that it is an ETS Tracking database at all. Throws BackupError naming `label` and the problems.
 */
export async function checkSqliteFile(
  file: string,
  label: string,
): Promise<{ contents: DatabaseContents; migrations: string[] }> {
  let handle: SQLite.Database;
  try {
    handle = new SQLite(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${label} cannot be opened as a SQLite database: ${messageOf(error)}`);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  try {
    try {
      checkPages(handle, label);
      checkForeignKeys(handle, label);
      checkSearchIndex(handle, label);
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${label} is damaged: ${messageOf(error)}`);
    }
    const hasMigrations = handle
      .prepare("select 1 from sqlite_master where type = 'table' and name = ?")
      .get(MIGRATION_TABLE);
    if (!hasMigrations) {
      throw new BackupError(
        `${label} is a SQLite database but not one of ETS Tracking's (it has no ${MIGRATION_TABLE} table).`,
      );
    }
    return { contents: await describeContents(db), migrations: await appliedMigrations(db) };
  } finally {
    await db.destroy();
  }
}

const SHOWN_PROBLEMS = 5;

function checkPages(handle: SQLite.Database, label: string): void {
  const problems = (handle.pragma("integrity_check") as { integrity_check: string }[]).map(
    (row) => row.integrity_check,
  );
  if (problems.length === 1 && problems[0] === "ok") return;
  throw new BackupError(`${label} failed SQLite's integrity check: ${listProblems(problems)}`);
}

function checkForeignKeys(handle: SQLite.Database, label: string): void {
  const rows = handle.pragma("foreign_key_check") as {
    table: string;
    rowid: number | null;
    parent: string;
  }[];
  if (rows.length === 0) return;
  throw new BackupError(
    `${label} failed the foreign-key check: ${listProblems(
      rows.map(
        (r) => `${r.table} row ${r.rowid ?? "?"} refers to a ${r.parent} row that does not exist`,
      ),
    )}`,
  );
}

function checkSearchIndex(handle: SQLite.Database, label: string): void {
  const hasIndex = handle
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'submissions_search'")
    .get();
  if (!hasIndex) return;
  try {
    // FTS5's own check: its index must match the submissions it was built from.
    handle.exec("insert into submissions_search(submissions_search) values ('integrity-check')");
  } catch (error) {
    throw new BackupError(
      `${label} has a search index that does not match its submissions: ${messageOf(error)}`,
    );
  }
}

function listProblems(problems: string[]): string {
  const shown = problems
    .slice(0, SHOWN_PROBLEMS)
    .map((problem) => problem.replace(/\s*\n\s*/g, " "))
    .join("; ");
  const more = problems.length - SHOWN_PROBLEMS;
  return more > 0 ? `${shown}; and ${more} more.` : `${shown}.`;
}

/**
 * A backup is one file: out of WAL mode, nothing needs a -wal or -shm file beside it. (A restore
 * turns WAL back on when it opens the database.)
 */
async function makeStandalone(file: string): Promise<void> {
  const handle = new SQLite(file, { fileMustExist: true });
  try {
    handle.pragma("journal_mode = DELETE");
  } finally {
    handle.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : null;
}

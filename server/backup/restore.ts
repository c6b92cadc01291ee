import fs from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig, type DatabaseConfig } from "../config.js";
import { BackupError } from "./backup-error.js";
import type { DatabaseContents } from "./contents.js";
import { restorePostgres } from "./postgres.js";
import { redactDatabaseUrl } from "./postgres-tools.js";
import { restoreSqlite } from "./sqlite.js";

export type BackupFormat = "sqlite" | "postgres";

export interface RestoreReport {
  kind: BackupFormat;
  /** The backup restored, an absolute path. */
  file: string;
  /** Where it was restored, safe to print. */
  target: string;
  /** PostgreSQL: the target database did not exist and was created. */
  createdDatabase: boolean;
  /** The last migration the backup had; migrations after it ran during the restore. */
  backupMigration: string | null;
  migrationsApplied: string[];
  contents: DatabaseContents;
}

const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
const PG_DUMP_CUSTOM_HEADER = Buffer.from("PGDMP", "latin1");

/** What kind of backup a file is, by its first bytes; refuses anything else. */
export function detectBackupFormat(file: string): BackupFormat {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, "r");
    try {
      head = Buffer.alloc(SQLITE_HEADER.length);
      head = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") throw new BackupError(`There is no backup file at ${file}.`);
    if (code === "EISDIR") throw new BackupError(`${file} is a folder, not a backup file.`);
    throw new BackupError(`Could not read ${file}: ${(error as Error).message}`);
  }
  if (head.equals(SQLITE_HEADER)) return "sqlite";
  if (head.subarray(0, PG_DUMP_CUSTOM_HEADER.length).equals(PG_DUMP_CUSTOM_HEADER)) {
    return "postgres";
  }
  throw new BackupError(
    `${file} is not a backup made by npm run backup: it is neither a SQLite database nor a pg_dump archive in custom format${head.length === 0 ? " (the file is empty)" : ""}.`,
  );
}

/**
 * Restores a backup into a new database (or, with force, over an existing one that no server is
 * using), then migrates it to the latest version, so a backup from an older version comes up to
 * date. A failure at any step leaves the target as it was.
 */
export async function restoreDatabase(
  backupFile: string,
  target: DatabaseConfig,
  options: { force?: boolean } = {},
): Promise<RestoreReport> {
  const file = path.resolve(backupFile);
  const kind = detectBackupFormat(file);
  const force = options.force ?? false;
  if (kind !== target.kind) {
    throw new BackupError(
      kind === "sqlite"
        ? `${file} is a SQLite backup; restore it into a SQLite file with --into sqlite:<new path>.`
        : `${file} is a PostgreSQL backup (pg_dump); restore it into a PostgreSQL database with --into postgres://user@host:port/<new database>.`,
    );
  }
  if (target.kind === "sqlite") {
    const restored = await restoreSqlite(file, target.path, force);
    return { kind, file, target: `sqlite:${target.path}`, createdDatabase: false, ...restored };
  }
  const restored = await restorePostgres(file, target.url, force);
  return { kind, file, target: redactDatabaseUrl(target.url), ...restored };
}

/** --into, read by the same rules as DATABASE_URL. */
export function parseRestoreTarget(into: string): DatabaseConfig {
  try {
    return loadConfig({ DATABASE_URL: into }).database;
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new BackupError(
        "--into must be sqlite:<path> or postgres://user@host:port/<database>.",
      );
    }
    throw error;
  }
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseConfig } from "../config.js";
import { BackupError } from "./backup-error.js";
import type { DatabaseContents } from "./contents.js";
import { backupPostgres } from "./postgres.js";
import { redactDatabaseUrl } from "./postgres-tools.js";
import { backupSqlite } from "./sqlite.js";

export interface BackupReport {
  kind: DatabaseConfig["kind"];
  /** The database backed up, safe to print. */
  source: string;
  /** The backup file, an absolute path. */
  file: string;
  sizeBytes: number;
  contents: DatabaseContents;
}

/**
 * Backs up the database to outFile while the servers keep running: a SQLite copy made with the
 * online backup API, or a pg_dump archive in custom format. The backup is written beside outFile
 * and checked there; only a backup that passed its check takes the name, so a failure leaves no
 * file (and an older backup under that name stays as it was).
 */
export async function backupDatabase(
  database: DatabaseConfig,
  outFile: string,
  options: { force?: boolean } = {},
): Promise<BackupReport> {
  const file = path.resolve(outFile);
  if (database.kind === "sqlite" && isDatabaseFile(file, database.path)) {
    throw new BackupError(`${file} is the database itself; write the backup to another file.`);
  }
  if (fs.existsSync(file) && !options.force) {
    throw new BackupError(
      `${file} already exists. Choose a new file name, or add --force to replace it.`,
    );
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${randomBytes(4).toString("hex")}`;
  try {
    const contents =
      database.kind === "sqlite"
        ? await backupSqlite(database.path, partial)
        : await backupPostgres(database.url, partial);
    fs.renameSync(partial, file);
    return {
      kind: database.kind,
      source:
        database.kind === "sqlite" ? `sqlite:${database.path}` : redactDatabaseUrl(database.url),
      file,
      sizeBytes: fs.statSync(file).size,
      contents,
    };
  } catch (error) {
    if (error instanceof BackupError) {
      throw new BackupError(`${sentence(error.message)} Nothing was written to ${file}.`);
    }
    throw error;
  } finally {
    for (const suffix of ["", "-journal", "-wal", "-shm"]) {
      fs.rmSync(`${partial}${suffix}`, { force: true });
    }
  }
}

function isDatabaseFile(file: string, databasePath: string): boolean {
  return [databasePath, `${databasePath}-wal`, `${databasePath}-shm`].includes(file);
}

function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

import { parseStorageUrl } from "../files/storage.js";
import type { BackupReport } from "./backup.js";
import { COUNTED_TABLES, type DatabaseContents } from "./contents.js";
import type { RestoreReport } from "./restore.js";

/** What the backup and restore commands print: what was written, and what was not. */

export function formatBackupReport(report: BackupReport, storageUrl: string): string {
  const what = report.kind === "sqlite" ? "a SQLite database" : "a pg_dump archive (custom format)";
  const check =
    report.kind === "sqlite"
      ? "The copy passed SQLite's integrity and foreign-key checks."
      : "pg_restore read the whole archive back without error.";
  return [
    `Backed up ${report.source}`,
    `to ${report.file}: ${what}, ${formatBytes(report.sizeBytes)}.`,
    check,
    ...describe(report.contents),
    "",
    ...fileStoreAdvice(report.contents, storageUrl),
  ].join("\n");
}

export function formatRestoreReport(report: RestoreReport, storageUrl: string): string {
  const migrations =
    report.migrationsApplied.length > 0
      ? `Migrations applied to bring it up to date: ${report.migrationsApplied.join(", ")}.`
      : "It was already at the latest migration.";
  const files = report.contents.documentFiles;
  return [
    `Restored ${report.file}`,
    `into ${report.target}${report.createdDatabase ? " (a new database)" : ""}.`,
    `The backup was at migration ${report.backupMigration ?? "(none)"}. ${migrations}`,
    ...describe(report.contents),
    "",
    `Uploaded documents are not part of a database backup: the restored database refers to ${count(files.files, "file")} (${formatBytes(files.bytes)}), which must be in the file store (STORAGE_URL, now ${describeStore(storageUrl)}). Restore the file store from a copy taken at the same time as this backup or later.`,
    `To use it, start the servers with DATABASE_URL=${report.target}`,
  ].join("\n");
}

function describe(contents: DatabaseContents): string[] {
  const rows = COUNTED_TABLES.filter((table) => contents.rows[table] !== undefined);
  const width = Math.max(...rows.map((table) => table.length));
  return [
    `Schema at migration ${contents.migration ?? "(none)"}. Rows:`,
    ...rows.map(
      (table) =>
        `  ${table.padEnd(width)}  ${(contents.rows[table] ?? 0).toLocaleString("en-US").padStart(9)}`,
    ),
  ];
}

/**
 * Uploaded documents stay out of the database backup: they can be gigabytes, and the file store
 * has its own ways to be copied. Files are named by their SHA-256 and a document version is never
 * deleted, so a copy of the store taken after the database backup holds every file it refers to.
 */
export function fileStoreAdvice(contents: DatabaseContents, storageUrl: string): string[] {
  const { files, bytes } = contents.documentFiles;
  const refers = `${count(contents.rows.submission_documents ?? 0, "document version")} refer to ${count(files, "file")} (${formatBytes(bytes)})`;
  const location = parseStorageUrl(storageUrl);
  if (location.kind === "file") {
    return [
      `Uploaded documents are NOT in this backup: the ${refers} in the file store, the folder ${location.root}.`,
      `Back that folder up after each database backup with a copy that adds files and never deletes any (for example rsync -a ${location.root}/ <backup folder>/files/), so it holds every file any database backup refers to.`,
    ];
  }
  return [
    `Uploaded documents are NOT in this backup: the ${refers} in the file store, ${describeStore(storageUrl)}.`,
    "Keep that bucket's versioning turned on (or replicate it to a second bucket), so a file a database backup refers to can be recovered after a deletion.",
  ];
}

function describeStore(storageUrl: string): string {
  const location = parseStorageUrl(storageUrl);
  if (location.kind === "file") return `the folder ${location.root}`;
  const where = location.endpoint ? ` at ${location.endpoint}` : ` in ${location.region}`;
  return `the bucket ${location.bucket}${location.prefix ? ` (prefix ${location.prefix})` : ""}${where}`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

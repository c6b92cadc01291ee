import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { createDatabase, migrateToLatest } from "../db/database.js";
import { BackupError } from "./backup-error.js";
import {
  MIGRATION_TABLE,
  assertKnownMigrations,
  describeContents,
  type DatabaseContents,
} from "./contents.js";
import {
  findPostgresTool,
  firstLines,
  libpqConnection,
  redactDatabaseUrl,
  runTool,
} from "./postgres-tools.js";

/**
 * PostgreSQL backups are pg_dump archives in custom format: compressed, read back by pg_restore
 * (which can also restore single tables from them), and taken from one snapshot while the
 * servers go on writing.
 */

/** Dumps the database at url into copyPath and checks that pg_restore reads all of it back. */
export async function backupPostgres(url: string, copyPath: string): Promise<DatabaseContents> {
  const pgDump = await findPostgresTool("pg_dump");
  const pgRestore = await findPostgresTool("pg_restore");
  const shown = redactDatabaseUrl(url);
  const connection = libpqConnection(url);
  const db = createDatabase({ kind: "postgres", url });
  try {
    let contents: DatabaseContents;
    try {
      // pg_dump reads the snapshot this transaction exports, so the counts printed are the very
      // rows in the archive, not a moment before or after it.
      contents = await db
        .transaction()
        .setIsolationLevel("repeatable read")
        .setAccessMode("read only")
        .execute(async (trx) => {
          const { rows } = await sql<{
            snapshot: string;
          }>`select pg_export_snapshot() as snapshot`.execute(trx);
          const snapshot = rows[0]?.snapshot;
          if (!snapshot) throw new BackupError("PostgreSQL exported no snapshot.");
          const described = await describeContents(trx);
          const dump = await runTool(pgDump, [
            "--format=custom",
            `--snapshot=${snapshot}`,
            `--file=${copyPath}`,
            "--no-password",
            `--dbname=${connection.uri}`,
          ]);
          if (dump.code !== 0) {
            throw new BackupError(`pg_dump could not back up ${shown}: ${hinted(dump.stderr)}`);
          }
          return described;
        });
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`Could not read the database ${shown}: ${messageOf(error)}`);
    }
    if (contents.migration === null) {
      throw new BackupError(
        `${shown} is not an ETS Tracking database (it has no ${MIGRATION_TABLE} table); nothing was backed up.`,
      );
    }
    await listArchive(pgRestore, copyPath, "The archive pg_dump wrote");
    // --list reads only the table of contents; reading every data block to nowhere proves the
    // compressed data is whole too.
    const readBack = await runTool(pgRestore, [`--file=${os.devNull}`, copyPath]);
    if (readBack.code !== 0) {
      throw new BackupError(
        `The archive pg_dump wrote cannot be read back: ${firstLines(readBack.stderr)}`,
      );
    }
    return contents;
  } finally {
    connection.release();
    await db.destroy();
  }
}

/**
 * Restores a pg_dump archive into the database at url: a database that does not exist is
 * created, one with ETS Tracking's tables is refused unless force. The archive is loaded in one
 * transaction (with force, together with clearing the old schema), so a failure changes nothing.
 */
export async function restorePostgres(
  backupFile: string,
  url: string,
  force: boolean,
): Promise<{
  backupMigration: string | null;
  migrationsApplied: string[];
  contents: DatabaseContents;
  createdDatabase: boolean;
}> {
  const pgRestore = await findPostgresTool("pg_restore");
  const psql = await findPostgresTool("psql");
  const shown = redactDatabaseUrl(url);
  databaseName(url);
  const listing = await listArchive(pgRestore, backupFile, backupFile);
  const migrations = await archiveMigrations(pgRestore, backupFile);
  await assertKnownMigrations(migrations, backupFile);

  const state = await targetState(url);
  if (state === "ours" && !force) {
    throw new BackupError(
      `${shown} already holds ETS Tracking's tables. Restore into a new, empty database with --into postgres://.../<new database>, or add --force to replace everything in its public schema (stop the servers first).`,
    );
  }
  const createdDatabase = state === "missing";
  if (createdDatabase) await createEmptyDatabase(url);
  try {
    await loadArchive(pgRestore, psql, backupFile, listing, url, state === "ours");
  } catch (error) {
    if (createdDatabase) await dropDatabase(url).catch(() => {});
    throw error;
  }

  const db = createDatabase({ kind: "postgres", url });
  try {
    const migrationsApplied = await migrateToLatest(db);
    const contents = await describeContents(db);
    return {
      backupMigration: migrations.at(-1) ?? null,
      migrationsApplied,
      contents,
      createdDatabase,
    };
  } finally {
    await db.destroy();
  }
}

/** pg_restore's table of contents; refuses a file it cannot read or one without our tables. */
async function listArchive(pgRestore: string, file: string, label: string): Promise<string> {
  const listed = await runTool(pgRestore, ["--list", file]);
  if (listed.code !== 0) {
    throw new BackupError(
      `${label} is not a readable pg_dump archive: ${firstLines(listed.stderr)}`,
    );
  }
  if (!/ TABLE DATA \S+ kysely_migration /.test(listed.stdout)) {
    throw new BackupError(
      `${label} is a pg_dump archive but not of an ETS Tracking database (it has no ${MIGRATION_TABLE} table).`,
    );
  }
  return listed.stdout;
}

/** The migrations the archived database had run, read from the archive's own rows. */
async function archiveMigrations(pgRestore: string, file: string): Promise<string[]> {
  const data = await runTool(pgRestore, [
    "--data-only",
    `--table=${MIGRATION_TABLE}`,
    "--file=-",
    file,
  ]);
  if (data.code !== 0) {
    throw new BackupError(`${file} is damaged: ${firstLines(data.stderr)}`);
  }
  const names: string[] = [];
  let inCopy = false;
  for (const line of data.stdout.split("\n")) {
    if (line.startsWith(`COPY `) && line.includes(`.${MIGRATION_TABLE} `)) inCopy = true;
    else if (inCopy && line === "\\.") inCopy = false;
    else if (inCopy) names.push(line.split("\t")[0] ?? "");
  }
  return names.sort();
}

type TargetState = "missing" | "empty" | "ours";

async function targetState(url: string): Promise<TargetState> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    // 3D000: invalid_catalog_name, the database does not exist (yet).
    if (codeOf(error) === "3D000") return "missing";
    throw new BackupError(`Could not reach ${redactDatabaseUrl(url)}: ${messageOf(error)}`);
  }
  try {
    const { rows } = await client.query<{ ours: boolean }>(
      `select to_regclass('public.${MIGRATION_TABLE}') is not null
           or to_regclass('public.submissions') is not null as ours`,
    );
    return rows[0]?.ours ? "ours" : "empty";
  } finally {
    await client.end();
  }
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (name === "") {
    throw new BackupError(
      `${redactDatabaseUrl(url)} names no database; write postgres://user@host:port/<database>.`,
    );
  }
  return name;
}

/** The same server's maintenance database, from which databases are created and dropped. */
async function withMaintenanceClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString() });
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function createEmptyDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  try {
    await withMaintenanceClient(url, (client) =>
      client.query(`create database ${quoteIdentifier(name)}`),
    );
  } catch (error) {
    throw new BackupError(
      `The database ${name} does not exist and could not be created (${messageOf(error)}). Create it empty (createdb ${name}) and run the restore again.`,
    );
  }
}

async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withMaintenanceClient(url, (client) =>
    client.query(`drop database if exists ${quoteIdentifier(name)} with (force)`),
  );
}

/**
 * pg_restore turns the archive into SQL and psql runs it inside a transaction we open and commit
 * ourselves: COMMIT is sent only after pg_restore has finished without error, so an archive that
 * breaks off halfway, or a statement that fails, leaves the database as it was. (pg_restore
 * --single-transaction would do the same for an empty database, but replacing a schema needs the
 * drop in the same transaction.)
 */
async function loadArchive(
  pgRestore: string,
  psql: string,
  file: string,
  listing: string,
  url: string,
  replaceSchema: boolean,
): Promise<void> {
  const shown = redactDatabaseUrl(url);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-restore-"));
  const connection = libpqConnection(url);
  try {
    // The extension's comment belongs to its owner; where the extension already exists under
    // another owner (a managed server), restoring the comment would fail the whole transaction.
    const useList = path.join(work, "toc.list");
    fs.writeFileSync(
      useList,
      listing
        .split("\n")
        .filter((line) => !/ COMMENT - EXTENSION /.test(line))
        .join("\n"),
    );
    const prelude = [
      "SET client_min_messages = warning;",
      "BEGIN;",
      ...(replaceSchema ? ["DROP SCHEMA public CASCADE;", "CREATE SCHEMA public;"] : []),
      "",
    ].join("\n");
    const result = await pipeRestoreIntoPsql(
      pgRestore,
      // Owners and grants name roles of the old server that may not exist here; the restoring
      // role owns everything, as the app's own role should.
      ["--no-owner", "--no-acl", `--use-list=${useList}`, "--file=-", file],
      psql,
      ["--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", `--dbname=${connection.uri}`],
      prelude,
    );
    if (result.restoreCode !== 0 && !result.restoreStopped) {
      throw new BackupError(
        `${file} could not be read to the end, so nothing was restored into ${shown}: ${firstLines(result.restoreErr)}`,
      );
    }
    if (result.psqlCode !== 0 || result.restoreCode !== 0) {
      throw new BackupError(
        `Restoring into ${shown} failed and nothing was changed: ${firstLines(result.psqlErr)}`,
      );
    }
  } finally {
    connection.release();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

interface PipeResult {
  restoreCode: number | null;
  restoreErr: string;
  /** pg_restore was stopped because psql had already failed. */
  restoreStopped: boolean;
  psqlCode: number | null;
  psqlErr: string;
}

function pipeRestoreIntoPsql(
  pgRestore: string,
  restoreArgs: string[],
  psql: string,
  psqlArgs: string[],
  prelude: string,
): Promise<PipeResult> {
  return new Promise((resolve, reject) => {
    const sink = spawn(psql, psqlArgs, { stdio: ["pipe", "ignore", "pipe"] });
    const source = spawn(pgRestore, restoreArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let psqlErr = "";
    let restoreErr = "";
    sink.stderr.setEncoding("utf8").on("data", (chunk: string) => (psqlErr += chunk));
    source.stderr.setEncoding("utf8").on("data", (chunk: string) => (restoreErr += chunk));
    // psql stopping at an error closes its input while pg_restore may still be writing.
    sink.stdin.on("error", () => {});
    sink.on("error", reject);
    source.on("error", reject);

    sink.stdin.write(prelude);
    source.stdout.pipe(sink.stdin, { end: false });

    let restoreCode: number | null | undefined;
    let psqlCode: number | null | undefined;
    let restoreStopped = false;
    const settle = () => {
      if (restoreCode !== undefined && psqlCode !== undefined) {
        resolve({ restoreCode, restoreErr, restoreStopped, psqlCode, psqlErr });
      }
    };
    source.on("close", (code) => {
      restoreCode = code;
      if (code === 0) {
        sink.stdin.end("COMMIT;\n");
      } else if (psqlCode === undefined) {
        // No COMMIT: psql's session ends with the transaction open, and PostgreSQL rolls it back.
        sink.stdin.destroy();
        sink.kill();
      }
      settle();
    });
    sink.on("close", (code) => {
      psqlCode = code;
      if (restoreCode === undefined) {
        // Nobody reads pg_restore's output any more: stop it instead of leaving it blocked.
        restoreStopped = true;
        source.stdout.unpipe(sink.stdin);
        source.stdout.resume();
        source.kill();
      }
      settle();
    });
  });
}

/** pg_dump refuses a server newer than itself; say which package fixes that. */
function hinted(stderr: string): string {
  const message = firstLines(stderr);
  return /version mismatch/i.test(stderr)
    ? `${message} Install the client programs of the server's major version (Debian: postgresql-client-<major>).`
    : message;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : null;
}

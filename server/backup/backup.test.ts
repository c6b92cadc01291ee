import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { Migrator } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import type { DatabaseConfig } from "../config.js";
import { createDatabase, nowIso, type Db } from "../db/database.js";
import { submissionSearchCondition } from "../db/dialect.js";
import { migrationProvider } from "../db/migrations/index.js";
import { createStorage } from "../files/create-storage.js";
import type { FileStorage } from "../files/storage.js";
import { resolveFromRoot } from "../paths.js";
import { insertSubmission, insertSubmissionEvents } from "../submissions/repository.js";
import { addDocumentVersion } from "../../testing/documents.js";
import { createUser } from "../../testing/factories.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../../testing/test-app.js";
import { BackupError } from "./backup-error.js";
import { backupDatabase, type BackupReport } from "./backup.js";
import { restoreDatabase } from "./restore.js";

/**
 * Backups of the database under test (SQLite, or PostgreSQL with TEST_DATABASE_URL), taken while
 * a writer commits submissions with their events, restored into new databases and checked.
 */

const EVENTS_PER_SUBMISSION = 3;

let database: TestDatabase;
let dir: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  database = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-backup-test-"));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function configOf(url: string): DatabaseConfig {
  return testConfig({ DATABASE_URL: url }).database;
}

/** A connection of its own, as a second server process would have. */
function connect(url: string): Db {
  const db = createDatabase(configOf(url));
  cleanups.push(() => db.destroy());
  return db;
}

/** A database that does not exist yet, of the kind under test, dropped after the test. */
function newTarget(): { url: string; config: DatabaseConfig } {
  if (database.kind === "sqlite") {
    const url = `sqlite:${path.join(dir, `restored-${randomBytes(4).toString("hex")}.sqlite`)}`;
    return { url, config: configOf(url) };
  }
  const target = new URL(database.url);
  const name = `ets_restored_${process.pid}_${randomBytes(4).toString("hex")}`;
  target.pathname = `/${name}`;
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { url: target.toString(), config: configOf(target.toString()) };
}

function backupPath(): string {
  return path.join(dir, database.kind === "sqlite" ? "backup.sqlite" : "backup.dump");
}

let indexNumbers = 0;

function fields(): SubmissionFields {
  indexNumbers += 1;
  const indexNumber = `BK${String(indexNumbers).padStart(6, "0")}`;
  return {
    studentName: `Backup Student ${indexNumber}`,
    indexNumber,
    programme: "MPhil Economics",
    contact: null,
    studentEmail: null,
    documents: emptyDocuments(),
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
  };
}

/**
 * One submission and its events in one transaction, through the repository, yielding between the
 * statements so other work (a backup) can run while the transaction is half-written.
 */
async function writeSubmission(db: Db, whileOpen?: () => Promise<void>): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const at = nowIso();
    const created = await insertSubmission(trx, fields(), at);
    const event = (n: number) => ({
      submissionId: created.id,
      actorUserId: null,
      at,
      field: `field${n}`,
      from: null,
      to: String(n),
      kind: "edit",
      confirmedOutOfOrder: false,
    });
    await insertSubmissionEvents(trx, [event(1)]);
    await nextTurn();
    if (whileOpen) await whileOpen();
    await insertSubmissionEvents(trx, [event(2)]);
    await nextTurn();
    await insertSubmissionEvents(trx, [event(3)]);
    return created.indexNumber;
  });
}

/** A loop committing submissions until stopped: the server's traffic during a backup. */
function startWriter(db: Db) {
  let stopped = false;
  let committed = 0;
  const done = (async () => {
    while (!stopped) {
      await writeSubmission(db);
      committed += 1;
    }
  })();
  return {
    committed: () => committed,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

async function countSubmissions(db: Db): Promise<number> {
  const row = await db
    .selectFrom("submissions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The restored database is the live one as one commit left it: the same first submissions in
 * the order the writer committed them, each with all its events, no event without its
 * submission, and the search index built. `committedLast` is a transaction that began early (so
 * its id is low) but committed after the others.
 */
async function expectWholeCommits(
  restored: Db,
  live: Db,
  committedLast: string | null = null,
): Promise<number> {
  const restoredNumbers = (
    await restored.selectFrom("submissions").select("index_number").orderBy("id").execute()
  ).map((r) => r.index_number);
  const liveNumbers = (
    await live.selectFrom("submissions").select("index_number").orderBy("id").execute()
  ).map((r) => r.index_number);
  const commitOrder = [
    ...liveNumbers.filter((n) => n !== committedLast),
    ...(committedLast ? [committedLast] : []),
  ];
  expect(restoredNumbers.length).toBeGreaterThan(0);
  expect([...restoredNumbers].sort()).toEqual(commitOrder.slice(0, restoredNumbers.length).sort());

  // The writer's events are edits; an upload (the command-line test adds two) has its own.
  const eventCounts = await restored
    .selectFrom("submissions as s")
    .leftJoin("submission_events as e", (join) =>
      join.onRef("e.submission_id", "=", "s.id").on("e.kind", "=", "edit"),
    )
    .select((eb) => ["s.id", eb.fn.count<number>("e.id").as("events")])
    .groupBy("s.id")
    .execute();
  expect(eventCounts.filter((r) => Number(r.events) !== EVENTS_PER_SUBMISSION)).toEqual([]);

  const orphans = await restored
    .selectFrom("submission_events as e")
    .leftJoin("submissions as s", "s.id", "e.submission_id")
    .where("s.id", "is", null)
    .select("e.id")
    .execute();
  expect(orphans).toEqual([]);

  const last = restoredNumbers.at(-1) ?? "";
  const found = await restored
    .selectFrom("submissions")
    .where(submissionSearchCondition(restored, last))
    .select("index_number")
    .execute();
  expect(found.map((r) => r.index_number)).toEqual([last]);
  return restoredNumbers.length;
}

describe("backup while submissions are being written", () => {
  it("leaves out a transaction that was half-written during the backup and keeps every commit before it whole", async () => {
    const writer = connect(database.url);
    const loop = startWriter(writer);
    cleanups.push(loop.stop);
    await until(() => loop.committed() >= 20);

    const before = await countSubmissions(database.db);
    let report: BackupReport | undefined;
    // This transaction has inserted its submission and one event when the backup starts, and
    // commits the rest only after the backup has finished.
    const heldIndexNumber = await writeSubmission(writer, async () => {
      report = await backupDatabase(configOf(database.url), backupPath());
    });
    if (!report) throw new Error("The backup did not run inside the transaction.");
    const after = await countSubmissions(database.db);
    await loop.stop();

    const target = newTarget();
    const restored = await restoreDatabase(report.file, target.config);
    const restoredDb = connect(target.url);
    const count = await expectWholeCommits(restoredDb, database.db, heldIndexNumber);

    expect(count).toBeGreaterThanOrEqual(before);
    expect(count).toBeLessThanOrEqual(after);
    expect(report.contents.rows.submissions).toBe(count);
    expect(restored.contents.rows.submissions).toBe(count);
    expect(restored.contents.rows.submission_events).toBe(count * EVENTS_PER_SUBMISSION);
    const held = await restoredDb
      .selectFrom("submissions")
      .where("index_number", "=", heldIndexNumber)
      .select("id")
      .execute();
    expect(held).toEqual([]);
  });

  it("npm run backup and npm run restore, as processes, copy a database another connection keeps writing to", async () => {
    const files = fs.mkdtempSync(path.join(os.tmpdir(), "ets-backup-files-"));
    const storage: FileStorage = createStorage(
      { kind: "file", root: files },
      { stagingDir: path.join(files, ".staging") },
    );
    cleanups.push(async () => {
      await storage.close();
      fs.rmSync(files, { recursive: true, force: true });
    });
    const student = await createUser(database.db, "student", { indexNumber: "BK000000" });
    const first = await insertSubmission(database.db, fields(), nowIso());
    await insertSubmissionEvents(
      database.db,
      [1, 2, 3].map((n) => ({
        submissionId: first.id,
        actorUserId: null,
        at: nowIso(),
        field: `field${n}`,
        from: null,
        to: null,
        kind: "edit",
        confirmedOutOfOrder: false,
      })),
    );
    for (const item of ["thesis", "turnitinReport"] as const) {
      await addDocumentVersion(
        { db: database.db, storage },
        { submissionId: first.id, item, uploadedBy: student.id },
      );
    }

    const writer = connect(database.url);
    const loop = startWriter(writer);
    cleanups.push(loop.stop);
    await until(() => loop.committed() >= 20);
    const before = await countSubmissions(database.db);
    const env = { DATABASE_URL: database.url, STORAGE_URL: `file:${files}`, NODE_ENV: "test" };
    const backedUp = await runScript("backup.ts", ["--out", backupPath()], env);
    const after = await countSubmissions(database.db);
    await loop.stop();

    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain(`to ${backupPath()}`);
    expect(backedUp.stdout).toMatch(/submission_documents +2\n/);
    expect(backedUp.stdout).toMatch(/users +1\n/);
    expect(backedUp.stdout).toContain(
      `Uploaded documents are NOT in this backup: the 2 document versions refer to 2 files`,
    );
    expect(backedUp.stdout).toContain(`the folder ${files}`);

    const target = newTarget();
    const restoredRun = await runScript("restore.ts", [backupPath(), "--into", target.url], env);
    expect(restoredRun.stderr).toBe("");
    expect(restoredRun.code).toBe(0);
    expect(restoredRun.stdout).toContain(`Restored ${backupPath()}`);
    expect(restoredRun.stdout).toContain("It was already at the latest migration.");

    const restoredDb = connect(target.url);
    const count = await expectWholeCommits(restoredDb, database.db);
    expect(count).toBeGreaterThanOrEqual(before);
    expect(count).toBeLessThanOrEqual(after);
    expect(restoredRun.stdout).toMatch(
      new RegExp(`submissions +${count.toLocaleString("en-US")}\\n`),
    );
    const documents = await restoredDb
      .selectFrom("submission_documents")
      .select(["item", "sha256"])
      .orderBy("item")
      .execute();
    expect(documents.map((d) => d.item)).toEqual(["thesis", "turnitinReport"]);
    for (const document of documents) expect(await storage.exists(document.sha256)).toBe(true);
  });
});

describe("the command lines' refusals", () => {
  it("print one line and exit 1 on a refusal, the usage and exit 2 on bad arguments, never a stack trace", async () => {
    const env = { DATABASE_URL: database.url, NODE_ENV: "test" };
    const missing = path.join(dir, "no-such-backup.sqlite");
    const refused = await runScript("restore.ts", [missing, "--into", newTarget().url], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(`There is no backup file at ${missing}.\n`);

    const noOut = await runScript("backup.ts", [], env);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(
      /^--out FILE is missing: where to write the backup\.\nUsage: npm run backup -- --out FILE/,
    );
    expect(noOut.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("restore", () => {
  async function backupWithSubmissions(count: number) {
    for (let i = 0; i < count; i += 1) await writeSubmission(database.db);
    return backupDatabase(configOf(database.url), backupPath());
  }

  it("refuses a database that already holds ETS Tracking's tables unless --force, and --force replaces it", async () => {
    const backup = await backupWithSubmissions(2);
    await writeSubmission(database.db);

    const refusal = restoreDatabase(backup.file, configOf(database.url));
    await expect(refusal).rejects.toBeInstanceOf(BackupError);
    await expect(refusal).rejects.toThrow(/already (exists|holds ETS Tracking's tables).*--force/);
    expect(await countSubmissions(database.db)).toBe(3);

    // A restored copy that went on to be written to, then replaced with the backup again.
    const target = newTarget();
    await restoreDatabase(backup.file, target.config);
    const targetDb = createDatabase(target.config);
    await writeSubmission(targetDb);
    expect(await countSubmissions(targetDb)).toBe(3);
    await targetDb.destroy();

    await expect(restoreDatabase(backup.file, target.config)).rejects.toThrow(/--force/);
    const replaced = await restoreDatabase(backup.file, target.config, { force: true });
    expect(replaced.contents.rows.submissions).toBe(2);
    const restoredDb = connect(target.url);
    expect(await countSubmissions(restoredDb)).toBe(2);
    await expectWholeCommits(restoredDb, database.db);
  });

  it("brings a backup from an older version up to date with the migrations it lacks", async () => {
    await writeSubmission(database.db);
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const latest = names.at(-1);
    const previous = names.at(-2);

    const backup = await backupDatabase(configOf(database.url), backupPath());
    expect(backup.contents.migration).toBe(previous);

    const restored = await restoreDatabase(backup.file, newTarget().config);
    expect(restored.backupMigration).toBe(previous);
    expect(restored.migrationsApplied).toEqual([latest]);
    expect(restored.contents.migration).toBe(latest);
    expect(restored.contents.rows.submissions).toBe(1);
  });

  it("refuses a file that is not a backup, naming it", async () => {
    const notes = path.join(dir, "notes.txt");
    fs.writeFileSync(notes, "these are not the rows you are looking for\n");
    await expect(restoreDatabase(notes, newTarget().config)).rejects.toThrow(
      `${notes} is not a backup made by npm run backup: it is neither a SQLite database nor a pg_dump archive in custom format.`,
    );
    const empty = path.join(dir, "empty.sqlite");
    fs.writeFileSync(empty, "");
    await expect(restoreDatabase(empty, newTarget().config)).rejects.toThrow(/the file is empty/);
    await expect(restoreDatabase(path.join(dir, "missing"), newTarget().config)).rejects.toThrow(
      /There is no backup file at/,
    );
  });

  it("refuses a damaged backup and changes nothing: no new database, and a --force target keeps its rows", async () => {
    const backup = await backupWithSubmissions(30);
    // The archive's table of contents is whole; the last data breaks off.
    const damaged = path.join(dir, `damaged-${path.basename(backup.file)}`);
    const bytes = fs.readFileSync(backup.file);
    fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 200));
    const refused = new RegExp(
      `^${escapeRegExp(damaged)} (is damaged|failed SQLite's integrity check|could not be read to the end|is not a readable pg_dump archive)`,
    );

    const target = newTarget();
    const refusal = restoreDatabase(damaged, target.config);
    await expect(refusal).rejects.toBeInstanceOf(BackupError);
    await expect(refusal).rejects.toThrow(refused);
    expect(await targetExists(target)).toBe(false);

    await restoreDatabase(backup.file, target.config);
    await expect(restoreDatabase(damaged, target.config, { force: true })).rejects.toThrow(refused);
    const targetDb = connect(target.url);
    expect(await countSubmissions(targetDb)).toBe(30);
    await expectWholeCommits(targetDb, database.db);
  });

  it("refuses a backup of the other engine", async () => {
    const backup = await backupWithSubmissions(1);
    const other: DatabaseConfig =
      backup.kind === "sqlite"
        ? { kind: "postgres", url: "postgres://nobody@127.0.0.1:1/nowhere" }
        : { kind: "sqlite", path: path.join(dir, "other.sqlite") };
    await expect(restoreDatabase(backup.file, other)).rejects.toThrow(
      backup.kind === "sqlite"
        ? /is a SQLite backup; restore it into a SQLite file with --into sqlite:<new path>/
        : /is a PostgreSQL backup \(pg_dump\); restore it into a PostgreSQL database/,
    );
  });
});

describe("backup refusals", () => {
  it("keeps an existing backup file unless --force, then replaces it", async () => {
    fs.writeFileSync(backupPath(), "yesterday's backup");
    await expect(backupDatabase(configOf(database.url), backupPath())).rejects.toThrow(
      `${backupPath()} already exists. Choose a new file name, or add --force to replace it.`,
    );
    expect(fs.readFileSync(backupPath(), "utf8")).toBe("yesterday's backup");

    await writeSubmission(database.db);
    const report = await backupDatabase(configOf(database.url), backupPath(), { force: true });
    expect(report.contents.rows.submissions).toBe(1);
    expect(report.sizeBytes).toBe(fs.statSync(backupPath()).size);
    expect(fs.readdirSync(dir)).toEqual([path.basename(backupPath())]);
  });
});

async function targetExists(target: { url: string; config: DatabaseConfig }): Promise<boolean> {
  if (target.config.kind === "sqlite") {
    const file = target.config.path;
    return fs.readdirSync(path.dirname(file)).some((name) => name.startsWith(path.basename(file)));
  }
  const name = new URL(target.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    return rows.length > 0;
  } finally {
    await admin.end();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The real command line: node with tsx's loader, one process, the environment given. */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", resolveFromRoot("scripts", script), ...args],
      { cwd: resolveFromRoot(), env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

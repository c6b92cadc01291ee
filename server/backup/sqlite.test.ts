import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, migrateToLatest, type Db } from "../db/database.js";
import { makeSubmission } from "../../testing/factories.js";
import { BackupError } from "./backup-error.js";
import { backupDatabase } from "./backup.js";
import { restoreDatabase } from "./restore.js";

/**
 * What only SQLite can go through: a copy that fails its checks (PostgreSQL enforces foreign keys
 * and pg_dump reads through its own catalog), and a file another connection holds open. These
 * run on SQLite whatever TEST_DATABASE_URL says.
 */

let dir: string;
let livePath: string;
let live: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-backup-sqlite-"));
  livePath = path.join(dir, "live.sqlite");
  live = createDatabase({ kind: "sqlite", path: livePath });
  await migrateToLatest(live);
  for (let i = 0; i < 3; i += 1) await makeSubmission(live);
});

afterEach(async () => {
  await live.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A second, raw connection: writes the app never would, as damage from outside. */
function raw(run: (db: SQLite.Database) => void): void {
  const db = new SQLite(livePath);
  try {
    run(db);
  } finally {
    db.close();
  }
}

const out = () => path.join(dir, "out", "backup.sqlite");

function filesIn(folder: string): string[] {
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

describe("the backup's checks of its copy", () => {
  it("refuses a copy with rows whose foreign keys point at nothing, names them and keeps no file", async () => {
    raw((db) => {
      db.pragma("foreign_keys = OFF");
      db.prepare(
        "insert into submission_events (submission_id, at, field, kind) values (?, ?, ?, ?)",
      ).run(999_999, new Date().toISOString(), "submission", "create");
    });
    const backup = backupDatabase({ kind: "sqlite", path: livePath }, out());
    await expect(backup).rejects.toBeInstanceOf(BackupError);
    await expect(backup).rejects.toThrow(
      /^The copy failed the foreign-key check: submission_events row \d+ refers to a submissions row that does not exist\. Nothing was written to .*backup\.sqlite\.$/,
    );
    expect(filesIn(path.dirname(out()))).toEqual([]);
  });

  it("refuses a copy that fails SQLite's integrity check and keeps no file", async () => {
    // An index whose stored keys differ from the rows they index: the copy carries the damage.
    raw((db) => {
      db.exec("create table scratch (id integer primary key, x text)");
      db.exec("create index scratch_upper on scratch (upper(x))");
      const insert = db.prepare("insert into scratch (x) values (?)");
      for (let i = 0; i < 200; i += 1) insert.run(`value-${i}`);
      db.pragma("wal_checkpoint(TRUNCATE)");
    });
    await live.destroy();
    const bytes = fs.readFileSync(livePath);
    const at = bytes.indexOf(Buffer.from("VALUE-150"));
    expect(at).toBeGreaterThan(0);
    bytes.write("VALUE-15X", at, "latin1");
    fs.writeFileSync(livePath, bytes);
    live = createDatabase({ kind: "sqlite", path: livePath });

    const backup = backupDatabase({ kind: "sqlite", path: livePath }, out());
    await expect(backup).rejects.toThrow(
      /^The copy failed SQLite's integrity check: row 151 missing from index scratch_upper/,
    );
    expect(filesIn(path.dirname(out()))).toEqual([]);
  });

  it("writes one file, without -wal or -shm beside it, that opens on its own", async () => {
    const report = await backupDatabase({ kind: "sqlite", path: livePath }, out());
    expect(filesIn(path.dirname(out()))).toEqual(["backup.sqlite"]);
    const copy = new SQLite(report.file, { readonly: true });
    try {
      expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
      expect(copy.prepare("select count(*) as n from submissions").get()).toEqual({ n: 3 });
    } finally {
      copy.close();
    }
  });
});

describe("backup refusals", () => {
  it("never writes over the database itself, even with --force", async () => {
    await expect(
      backupDatabase({ kind: "sqlite", path: livePath }, livePath, { force: true }),
    ).rejects.toThrow(`${livePath} is the database itself; write the backup to another file.`);
    expect(await live.selectFrom("submissions").select("id").execute()).toHaveLength(3);
  });

  it("does not create a database where none is", async () => {
    const missing = path.join(dir, "typo.sqlite");
    await expect(backupDatabase({ kind: "sqlite", path: missing }, out())).rejects.toThrow(
      `There is no SQLite database at ${missing}; check DATABASE_URL.`,
    );
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe("restore refusals", () => {
  it("--force refuses a database file another connection has open, and leaves it as it was", async () => {
    const report = await backupDatabase({ kind: "sqlite", path: livePath }, out());
    await makeSubmission(live);
    await expect(
      restoreDatabase(report.file, { kind: "sqlite", path: livePath }, { force: true }),
    ).rejects.toThrow(
      `sqlite:${livePath} is in use by another program (is the server running?). Stop it, then run the restore again.`,
    );
    expect(await live.selectFrom("submissions").select("id").execute()).toHaveLength(4);
  });

  it("refuses a SQLite file that is not an ETS Tracking database", async () => {
    const other = path.join(dir, "other.sqlite");
    const db = new SQLite(other);
    db.exec("create table notes (body text)");
    db.close();
    const target = path.join(dir, "restored.sqlite");
    await expect(restoreDatabase(other, { kind: "sqlite", path: target })).rejects.toThrow(
      `${other} is a SQLite database but not one of ETS Tracking's (it has no kysely_migration table).`,
    );
    expect(filesIn(dir).filter((name) => name.startsWith("restored"))).toEqual([]);
  });
});

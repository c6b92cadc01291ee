import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import pg from "pg";
import { sql } from "kysely";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../server/app.js";
import { loadConfig, readTestEnv, type Config } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import type { ResolvedAddress, Resolver } from "../server/http/address-check.js";

/**
 * Tests run against a real, fresh database: a temporary SQLite file by default, or a new
 * PostgreSQL database per test file when TEST_DATABASE_URL points at a PostgreSQL server.
 */
export interface TestDatabase {
  db: Db;
  url: string;
  kind: "sqlite" | "postgres";
  drop(): Promise<void>;
}

/**
 * A test database's commits do not wait for their WAL to reach the disk (synchronous_commit off,
 * set on the database, so for every connection to it: the app's pool and the test's own). What a
 * commit makes visible to other sessions, and when, is the same; the durability given up is lost
 * only in a crash of the PostgreSQL server, which no test outlives. The PostgreSQL run commits
 * many times (the fuzz test's requests, the bulk writes, the uploads), each a wait for the disk,
 * longer when other work shares it (ADR 015's addendum has the figures). Test databases only:
 * production connections keep the server's setting.
 *
 * One thing a test can see does change: VACUUM marks a page all-visible only once the commits of
 * its rows are on disk, so right after an asynchronous commit it leaves the visibility map (and
 * with it reltuples) behind. A test that checks what VACUUM leaves asks for the server's setting
 * ({ synchronousCommit: true }).
 */
export interface TestDatabaseOptions {
  /** Keep the server's synchronous_commit (on) instead of turning it off for this database. */
  synchronousCommit?: boolean;
}

async function applyTestSettings(
  admin: pg.Client,
  name: string,
  options: TestDatabaseOptions,
): Promise<void> {
  if (options.synchronousCommit) return;
  await admin.query(`alter database ${name} set synchronous_commit = off`);
}

/**
 * The migrated database this test process copies its PostgreSQL databases from. Copying a template
 * takes about half the time of migrating a fresh database (about 0.25 s against 0.5 s here), and
 * the PostgreSQL run creates some 900 of them. One per process: a template being migrated cannot
 * be copied, and a process never copies another's. Templates of processes that have ended are
 * dropped by the next process that makes one (ets_tpl_<pid>_…).
 */
let template: Promise<string> | null = null;
/** Copies run one at a time: CREATE DATABASE refuses a template another session is reading. */
let copying: Promise<unknown> = Promise.resolve();

async function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `ets_tpl_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like 'ets\\_tpl\\_%'",
      );
      for (const { datname } of rows) {
        const pid = Number(datname.split("_")[2]);
        if (!processIsAlive(pid)) {
          await admin
            .query(`drop database if exists ${datname} with (force)`)
            .catch(() => undefined);
        }
      }
      await admin.query(`create database ${name}`);
      await applyTestSettings(admin, name, {});
    } finally {
      await admin.end();
    }
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ kind: "postgres", url: url.toString() });
    try {
      await migrateToLatest(db);
      // A VACUUM of the freshly migrated template (some 30 ms) makes each copy of it about 40 ms
      // instead of 150 to 450 ms for the first copies of one left as the migrations wrote it
      // (measured here), and a PostgreSQL run makes some 900 copies. It gathers no statistics
      // (no ANALYZE): a copy's tables are as unanalyzed as a newly migrated database's.
      await sql`vacuum`.execute(db);
    } finally {
      await db.destroy();
    }
    return name;
  })();
  return template;
}

function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but someone else's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = readTestEnv().databaseUrl;
  if (serverUrl && /^postgres(ql)?:\/\//.test(serverUrl)) {
    const name = `ets_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const source = await migratedTemplate(serverUrl);
    const copy = copying.then(async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        await admin.query(`create database ${name} template ${source}`);
        // A copy does not take its template's settings (they belong to the database's name).
        await applyTestSettings(admin, name, options);
      } finally {
        await admin.end();
      }
    });
    copying = copy.catch(() => undefined);
    await copy;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ kind: "postgres", url: url.toString() });
    return {
      db,
      url: url.toString(),
      kind: "postgres",
      drop: async () => {
        await db.destroy();
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-test-"));
  const file = path.join(dir, "test.sqlite");
  const db = createDatabase({ kind: "sqlite", path: file });
  await migrateToLatest(db);
  return {
    db,
    url: `sqlite:${file}`,
    kind: "sqlite",
    drop: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function testConfig(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
): Config {
  const loaded = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    ETS_SAMPLE_DATA: "off",
    PUBLIC_URL: "http://localhost:3000",
    ...env,
  });
  return {
    ...loaded,
    mailWorker: false,
    // Tests drive webhook deliveries by hand (deliverDueWebhooks).
    webhooks: { ...loaded.webhooks, worker: false },
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  databaseOptions: TestDatabaseOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase(databaseOptions);
  // Uploads go to a folder of this test's own unless the test chose a store: never ./data.
  const filesDir =
    env.STORAGE_URL === undefined
      ? fs.mkdtempSync(path.join(os.tmpdir(), "ets-test-files-"))
      : null;
  const config = testConfig(
    {
      DATABASE_URL: database.url,
      ...(filesDir ? { STORAGE_URL: `file:${filesDir}` } : {}),
      ...env,
    },
    overrides,
  );
  const app = await buildApp(config, {
    db: database.db,
    webRoot: path.join(os.tmpdir(), "ets-no-web"),
    resolveHost: tableResolver,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    database,
    close: async () => {
      await app.close();
      await database.drop();
      if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Headers a same-origin browser sends with a write; cookie-authenticated writes need Origin. */
export const SAME_ORIGIN = { origin: "http://localhost:3000" };

/**
 * A pool of its own on a test database, for a test that logs or inspects queries beside the app's.
 * Its idle connections end when the test drops the database (`drop database ... with (force)`):
 * pg's pool reports that as an "error" event, and without a listener it is an uncaught error that
 * fails the run (CI saw it once, "terminating connection due to administrator command", after
 * every test of the file had passed).
 */
export function testPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...options });
  pool.on("error", () => undefined);
  return pool;
}

/**
 * The tests' host name lookup (AppOptions.resolveHost): answers from this table and finds no other
 * name, so no test asks a DNS server (on these machines, one on a private address). A test that
 * needs other answers passes its own resolver to the function it tests.
 */
export const RESOLVER_TABLE: Readonly<Record<string, ResolvedAddress[]>> = {
  localhost: [
    { address: "127.0.0.1", family: 4 },
    { address: "::1", family: 6 },
  ],
  // A public address (example.org's documentation host): accepted by the address check, never
  // connected to, since tests deliver webhooks only by hand to receivers on 127.0.0.1.
  "hooks.example.org": [{ address: "93.184.216.34", family: 4 }],
};

export const tableResolver: Resolver = async (hostname) => {
  const found = RESOLVER_TABLE[hostname.toLowerCase()];
  if (!found) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  }
  return found;
};

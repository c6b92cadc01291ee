import { randomBytes } from "node:crypto";
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { readTestEnv } from "../server/config.js";
import { freePort } from "./processes.js";

/**
 * PostgreSQL for the cluster: a fresh database on a server the caller names (dropped at the end),
 * and, for the test that restarts PostgreSQL, a private server of its own in a temporary folder,
 * so the machine's shared server is never restarted under other tests.
 */

/** The machine's PostgreSQL, where the tests and the demo create their databases by default. */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Where the cluster tests create their database: TEST_DATABASE_URL's server when it is PostgreSQL,
 * else the machine's. A cluster always runs on PostgreSQL, whatever the other tests use.
 */
export function testPostgresUrl(): string {
  const url = readTestEnv().databaseUrl;
  return url && isPostgresUrl(url) ? url : DEFAULT_POSTGRES_URL;
}

export interface ClusterDatabase {
  name: string;
  /** The new database's address, for the app servers' DATABASE_URL. */
  url: string;
  drop(): Promise<void>;
}

/** The server's maintenance database: where CREATE and DROP DATABASE are sent from. */
function maintenanceUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.pathname === "" || url.pathname === "/") url.pathname = "/postgres";
  return url.toString();
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // A connection closed by the server (it restarts, the database is dropped) is not a crash.
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates a new, empty database named ets_cluster_... on the server at `serverUrl`. */
export async function createClusterDatabase(serverUrl: string): Promise<ClusterDatabase> {
  if (!isPostgresUrl(serverUrl)) {
    throw new Error(
      `A cluster runs on PostgreSQL: ${serverUrl.split(":")[0]}: is not a postgres:// address`,
    );
  }
  const admin = maintenanceUrl(serverUrl);
  const name = `ets_cluster_${process.pid}_${randomBytes(4).toString("hex")}`;
  // The name is ours (letters, digits, underscores), never input.
  await withClient(admin, (client) => client.query(`create database ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withClient(admin, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

/** Where Debian keeps each PostgreSQL major version's server programs. */
const PG_LIB = "/usr/lib/postgresql";

/** The newest installed PostgreSQL's server programs (initdb, pg_ctl), as Debian lays them out. */
function postgresBin(): string {
  const versions = fs.existsSync(PG_LIB)
    ? fs
        .readdirSync(PG_LIB)
        .filter((v) => fs.existsSync(path.join(PG_LIB, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error(
      `PostgreSQL's server programs (initdb, pg_ctl) are not under ${PG_LIB}: apt-get install -y postgresql`,
    );
  }
  return path.join(PG_LIB, versions[0], "bin");
}

export interface PrivatePostgres {
  port: number;
  /** The server's address (its maintenance database), for createClusterDatabase. */
  url: string;
  dataDir: string;
  /** pg_ctl restart -m fast: every connection is closed, then the server starts again. */
  restart(): Promise<void>;
  /** pg_ctl stop -m fast: connections are closed and the server stays down. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the caller's own on a free loopback port: initdb into a temporary
 * folder, started with pg_ctl. initdb refuses to run as root, so as root both run as the
 * `postgres` user through runuser.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-cluster-pg-"));
  const dataDir = path.join(root, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(root, 0o755);
    chownToPostgres(root);
  }
  // Asynchronous, so a test's clients keep running while PostgreSQL stops and starts.
  const run = (tool: string, args: string[], timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const command = asRoot ? "runuser" : path.join(bin, tool);
      const fullArgs = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
      execFile(
        command,
        fullArgs,
        {
          cwd: root,
          timeout: timeoutMs,
          env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C.UTF-8" },
        },
        (error, stdout, stderr) => {
          if (error)
            reject(
              new Error(`${tool} ${args[0] ?? ""} failed: ${stderr || stdout || error.message}`),
            );
          else resolve();
        },
      );
    });

  const port = await freePort();
  const socketDir = path.join(root, "socket");
  const serverOptions = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${socketDir}`,
    // A test database: speed over durability, and few connections.
    "-c fsync=off",
    "-c max_connections=60",
  ].join(" ");
  const logFile = path.join(root, "postgres.log");
  const start = () =>
    run("pg_ctl", ["start", "-D", dataDir, "-w", "-t", "60", "-l", logFile, "-o", serverOptions]);
  const stop = () => run("pg_ctl", ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
  try {
    await run("initdb", [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    fs.mkdirSync(socketDir);
    if (asRoot) chownToPostgres(socketDir);
    await start();
  } catch (error) {
    // Nothing of a server that did not start is left behind.
    await stop().catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    url,
    dataDir,
    restart: () =>
      run("pg_ctl", [
        "restart",
        "-D",
        dataDir,
        "-m",
        "fast",
        "-w",
        "-t",
        "60",
        "-l",
        logFile,
        "-o",
        serverOptions,
      ]),
    stopServer: stop,
    startServer: start,
    destroy: async () => {
      // Already stopped is fine: the folder goes either way.
      await stop().catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function chownToPostgres(target: string): void {
  const result = spawnSync("chown", ["postgres:postgres", target], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`Cannot give ${target} to the postgres user: ${result.stderr}`);
  }
}

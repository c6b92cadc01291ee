import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import { startNginx, assertNginxInstalled, type Nginx } from "./nginx.js";
import { createClusterDatabase, type ClusterDatabase } from "./postgres.js";
import { freePort, startChild, stopChild, waitForOk, type Child } from "./processes.js";

/**
 * Several app servers on one PostgreSQL database behind nginx, on loopback: what `npm run cluster`
 * starts for a demo and what the fault tests start, kill and restart. Each app server is the built
 * server (dist/server/server.js) in a process of its own, configured as docs/deploy.md says a
 * production server is: TRUST_PROXY, PUBLIC_URL the proxy's address, one shared file store.
 */

export interface ClusterOptions {
  /** How many app servers (at least 1). */
  servers: number;
  /** The PostgreSQL server to create the cluster's database on (postgres://...). */
  postgresUrl: string;
  /** nginx's port on loopback; a free one when omitted. */
  port?: number;
  /** Leave the database in place when the cluster stops (the demo's --keep). */
  keepDatabase?: boolean;
  /** Where the mail goes (smtp://...); unset: the servers write mail to their log. */
  smtpUrl?: string | null;
  /** More environment for every app server (limits, ETS_ADMIN_EMAIL, CLAMD_URL...). */
  env?: Record<string, string>;
  /**
   * Runs on the new, migrated database before any server starts (sample data, accounts);
   * `filesDir` is the servers' file store.
   */
  prepare?: (db: Db, filesDir: string) => Promise<void>;
  /**
   * Start the servers on the new database as it is, empty: they migrate and bootstrap it
   * themselves, all at once (no `prepare` then).
   */
  emptyDatabase?: boolean;
  /** Each line an app server or nginx writes; otherwise only their log files keep it. */
  onLine?: (source: string, line: string) => void;
}

export interface AppServer {
  /** 1-based, as in "app server 2". */
  number: number;
  port: number;
  /** The server's own address, bypassing nginx. */
  url: string;
  /** The running process; replaced when the server is started again. */
  child: Child;
  logFile: string;
}

export interface Cluster {
  /** nginx's address: where clients go. */
  url: string;
  servers: AppServer[];
  nginx: Nginx;
  database: ClusterDatabase;
  /** A connection of the caller's own to the cluster's database, to seed and to check. */
  db: Db;
  /** The temporary folder: the file store, nginx's prefix, every log. */
  dir: string;
  /** Sends a signal to one app server by PID (SIGKILL: it dies mid-request) and waits for its exit. */
  kill(server: AppServer, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped app server again on its port and waits until it is healthy. */
  restart(server: AppServer): Promise<void>;
  /**
   * Takes an app server out of nginx (`down`, and a reload that waits for the old workers) or
   * puts it back: the rolling restart of docs/deploy.md, drain, SIGTERM, start, restore.
   */
  drain(server: AppServer): Promise<void>;
  restore(server: AppServer): Promise<void>;
  /** The last lines of every app server and of nginx's error log, for a failing test's report. */
  logTails(): string;
  /** Stops nginx and every server by PID, closes `db`, drops the database unless kept. */
  stop(): Promise<void>;
}

/** Why a cluster cannot start from a source tree that has not been built, in one sentence. */
export class NotBuiltError extends Error {}

const SERVER_ENTRY = resolveFromRoot("dist", "server", "server.js");
const BUILT_FROM = ["server", "common"].map((dir) => resolveFromRoot(dir));

/**
 * The built server, refused when it is missing or older than its sources: a cluster of stale code
 * would test (or demonstrate) something that is not in the tree.
 */
export function builtServerEntry(entry = SERVER_ENTRY, sourceDirs = BUILT_FROM): string {
  const shown = (file: string) => path.relative(resolveFromRoot(), file);
  if (!fs.existsSync(entry)) {
    throw new NotBuiltError(
      `The server is not built (${shown(entry)} is missing): run \`npm run build\` first.`,
    );
  }
  const builtAt = fs.statSync(entry).mtimeMs;
  const newer = sourceDirs.flatMap((dir) => newerSources(dir, builtAt));
  if (newer.length > 0) {
    const names = newer.slice(0, 3).map(shown).join(", ");
    const more = newer.length > 3 ? ` and ${newer.length - 3} more` : "";
    throw new NotBuiltError(
      `The built server is older than ${names}${more}: run \`npm run build\` first.`,
    );
  }
  return entry;
}

/** Source files the build compiles (tests and test helpers are not built) changed after `since`. */
const TEST_ONLY_DIRS = new Set(["fuzz"]);

function newerSources(dir: string, since: number): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // The generated requests of server/fuzz are not in the build (testing/ is outside server/).
      if (!TEST_ONLY_DIRS.has(entry.name)) found.push(...newerSources(full, since));
    } else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      fs.statSync(full).mtimeMs > since
    ) {
      found.push(full);
    }
  }
  return found;
}

/** Megabytes nginx accepts: above the largest thesis, so an oversize upload gets the app's 413. */
const PROXY_BODY_MB = 2100;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!Number.isInteger(options.servers) || options.servers < 1) {
    throw new Error(`servers must be a whole number of at least 1 (got ${options.servers})`);
  }
  const entry = builtServerEntry();
  assertNginxInstalled();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-cluster-"));
  const filesDir = path.join(dir, "files");
  const nginxPrefix = path.join(dir, "nginx");
  fs.mkdirSync(filesDir);
  fs.mkdirSync(nginxPrefix);

  // Everything started so far, so a failure halfway stops what it started and nothing else.
  const started: { nginx: Nginx | null; servers: AppServer[] } = { nginx: null, servers: [] };
  let database: ClusterDatabase | null = null;
  let db: Db | null = null;
  const cleanUp = async () => {
    await started.nginx?.stop();
    await Promise.all(started.servers.map((s) => stopChild(s.child)));
    await db?.destroy();
    if (database && !options.keepDatabase) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    database = await createClusterDatabase(options.postgresUrl);
    db = createDatabase({ kind: "postgres", url: database.url });
    // Migrated here unless the servers are to do it (emptyDatabase): `prepare` needs the tables.
    // Servers starting together take turns at their start-up duties either way
    // (server/db/startup-lock.ts).
    if (options.emptyDatabase && options.prepare) {
      throw new Error("prepare needs a migrated database: not with emptyDatabase");
    }
    if (!options.emptyDatabase) {
      await migrateToLatest(db);
      await options.prepare?.(db, filesDir);
    }

    const port = options.port ?? (await freePort());
    const publicUrl = `http://127.0.0.1:${port}`;
    const ports: number[] = [];
    for (let i = 0; i < options.servers; i++) {
      let p = await freePort();
      while (p === port || ports.includes(p)) p = await freePort();
      ports.push(p);
    }

    const envFor = (serverPort: number): Record<string, string> => ({
      NODE_ENV: "production",
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: publicUrl,
      DATABASE_URL: (database as ClusterDatabase).url,
      TRUST_PROXY: "true",
      STORAGE_URL: `file:${filesDir}`,
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
      // Each app server one process, as on a machine of its own: the tests kill and restart
      // servers by PID. ETS_WORKERS on one machine is tested in server/server.test.ts.
      ETS_WORKERS: "1",
      // Without an SMTP peer, mail goes to the log (without its codes and links).
      ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : { ETS_MAIL_TO_LOG: "on" }),
      ...options.env,
    });

    const launch = (server: Omit<AppServer, "child">): Child =>
      startChild({
        name: `app server ${server.number}`,
        command: process.execPath,
        args: [entry],
        env: envFor(server.port),
        cwd: resolveFromRoot(),
        logFile: server.logFile,
        ...(options.onLine
          ? { onLine: (line: string) => options.onLine?.(`server ${server.number}`, line) }
          : {}),
      });

    for (const [index, serverPort] of ports.entries()) {
      const number = index + 1;
      const plan = {
        number,
        port: serverPort,
        url: `http://127.0.0.1:${serverPort}`,
        logFile: path.join(dir, `server-${number}.log`),
      };
      started.servers.push({ ...plan, child: launch(plan) });
    }
    await Promise.all(started.servers.map((s) => waitUntilServing(s)));

    started.nginx = await startNginx({
      port,
      upstreamPorts: ports,
      prefix: nginxPrefix,
      maxBodyMb: PROXY_BODY_MB,
    });

    const ownDb = db;
    const ownDatabase = database;
    const nginx = started.nginx;
    const drained = new Set<number>();
    let stopping: Promise<void> | null = null;
    return {
      url: nginx.url,
      servers: started.servers,
      nginx,
      database: ownDatabase,
      db: ownDb,
      dir,
      kill: async (server, signal = "SIGKILL") => {
        if (!server.child.running()) return;
        process.kill(server.child.pid, signal);
        await server.child.exited;
      },
      restart: async (server) => {
        if (server.child.running()) throw new Error(`app server ${server.number} is still running`);
        server.child = launch(server);
        await waitUntilServing(server);
      },
      drain: async (server) => {
        drained.add(server.port);
        await nginx.setDown([...drained]);
      },
      restore: async (server) => {
        drained.delete(server.port);
        await nginx.setDown([...drained]);
      },
      logTails: () => {
        const servers = started.servers.map(
          (s) =>
            `--- app server ${s.number} (PID ${s.child.pid}, ${s.child.running() ? "running" : "exited"}) ---\n${s.child.tail(40)}`,
        );
        const errorLog = path.join(nginxPrefix, "error.log");
        const nginxLines = fs.existsSync(errorLog)
          ? fs.readFileSync(errorLog, "utf8").split("\n").slice(-20).join("\n")
          : "";
        return [...servers, `--- nginx error log ---\n${nginxLines}`].join("\n");
      },
      stop: () => {
        stopping ??= cleanUp();
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp().catch(() => undefined);
    throw error;
  }
}

/** Healthy (/api/health) and, where the server has the route, ready (/api/health/ready). */
async function waitUntilServing(server: AppServer): Promise<void> {
  await waitForOk(`${server.url}/api/health`, server.child, 60_000);
  const ready = await fetch(`${server.url}/api/health/ready`).catch(() => null);
  if (ready && ready.status !== 404) {
    await waitForOk(`${server.url}/api/health/ready`, server.child, 60_000);
  }
}

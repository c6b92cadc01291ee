// `npm run bench -- api`: the API's hot path against a yardstick, on SQLite and on PostgreSQL. For
// each database it loads the sample data (server/db/sample-data) or, with --size N, N generated
// submissions (scripts/bench-data.ts), then starts, as child processes stopped by PID:
//   1. the built app server (dist/server/server.js, `npm run build:server` first);
//   2. the yardstick, plain node:http giving the same JSON (checked before the runs): on SQLite
//      scripts/bench-api-raw.mjs with prepared better-sqlite3 statements, on PostgreSQL
//      scripts/bench-api-raw-pg.mjs with `pg` and named (server-side prepared) statements.
// Then autocannon (a process of its own) drives each of them on a student's status read (GET
// /api/submissions/:indexNumber, Bearer session) and on the administrators' first list page with
// no term (GET /api/submissions), alternating app and yardstick, and reports the median requests
// per second of the rounds and the ratio app / yardstick. Issue 11's target: 0.7 or more. Writes
// one section of docs/benchmarks.md per database (markers bench:api-sqlite, bench:api-postgres),
// with the machine, /proc/loadavg and the date.
//
// Options: --database sqlite|postgres|both (both), --size N (the sample data), --postgres URL
// (postgres://postgres@127.0.0.1:5432/test; the bench creates and drops its own database there),
// --connections N (32), --duration S (10), --rounds N (3), --label TEXT (a note in the table's
// heading, such as "with the statement cache"), --stale-ok (measure a build older than its
// sources, with a warning: other work in the tree must not block a measurement), --no-write,
// --profile DIR (the app runs with --cpu-prof and writes its CPU profile into DIR when stopped,
// the raw server into DIR/raw; open them in Chrome's DevTools. The profiler costs throughput: a
// profiled run is not a figure), --load status|list (one of the two loads alone; both by default),
// --yardstick floor (with --database sqlite --load status: the raw column is then the floor server,
// scripts/bench-api-floor.mjs, which also checks the session and sends the security headers; what
// is left between it and the app is the framework and the hooks; never written to the table).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { sql } from "kysely";
import { builtServerEntry, NotBuiltError } from "../cluster/cluster.js";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import pg from "pg";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import {
  loadSampleData,
  readSampleRecords,
  sampleContextForFolder,
} from "../server/sample-data.js";
import { resolveFromRoot } from "../server/paths.js";
import { createUser } from "../testing/factories.js";
import { generateSubmissions, loadSubmissions } from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";

type DatabaseKind = "sqlite" | "postgres";

interface Options {
  databases: DatabaseKind[];
  /** Generated submissions to load; null: the sample data. */
  size: number | null;
  postgresUrl: string;
  connections: number;
  durationSeconds: number;
  rounds: number;
  label: string | null;
  staleOk: boolean;
  write: boolean;
  /** The loads driven: both, or the one named by --load. */
  loads: "status" | "list" | "both";
  /** Where the app writes its CPU profile; null: no profiler. */
  profileDir: string | null;
  /**
   * What the app is compared with: "raw", the least a server must do to send the answer
   * (the figure of issue 11), or "floor" (SQLite, status read): the same plus the session check
   * and the security headers every real answer needs (scripts/bench-api-floor.mjs).
   */
  yardstick: "raw" | "floor";
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: "string" },
      size: { type: "string" },
      postgres: { type: "string" },
      connections: { type: "string" },
      duration: { type: "string" },
      rounds: { type: "string" },
      label: { type: "string" },
      "stale-ok": { type: "boolean" },
      "no-write": { type: "boolean" },
      profile: { type: "string" },
      load: { type: "string" },
      yardstick: { type: "string" },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
    return n;
  };
  const database = values.database ?? "both";
  if (!["sqlite", "postgres", "both"].includes(database)) {
    throw new Error("--database must be sqlite, postgres or both");
  }
  const load = values.load ?? "both";
  if (load !== "status" && load !== "list" && load !== "both") {
    throw new Error("--load must be status or list");
  }
  const yardstick = values.yardstick ?? "raw";
  if (yardstick !== "raw" && yardstick !== "floor")
    throw new Error("--yardstick must be raw or floor");
  if (yardstick === "floor" && (database !== "sqlite" || load !== "status")) {
    throw new Error(
      "--yardstick floor measures the status read on SQLite: add --database sqlite --load status",
    );
  }
  return {
    yardstick,
    loads: load,
    databases: database === "both" ? ["sqlite", "postgres"] : [database as DatabaseKind],
    size: values.size === undefined ? null : whole("size", values.size, 1),
    postgresUrl: values.postgres ?? "postgres://postgres@127.0.0.1:5432/test",
    connections: whole("connections", values.connections, 32),
    durationSeconds: whole("duration", values.duration, 10),
    rounds: whole("rounds", values.rounds, 3),
    label: values.label ?? null,
    staleOk: values["stale-ok"] === true,
    // A partial or profiled run, or one against the floor, is not a figure for the table.
    write:
      values["no-write"] !== true &&
      values.profile === undefined &&
      load === "both" &&
      yardstick === "raw",
    profileDir: values.profile === undefined ? null : path.resolve(values.profile),
  };
}

// ---------------------------------------------------------------------------------------------
// autocannon, in a process of its own so its work is not this script's

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
}

function autocannon(args: string[]): Promise<AutocannonResult> {
  const cli = resolveFromRoot("node_modules", "autocannon", "autocannon.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--json", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out) as AutocannonResult);
      } catch {
        reject(new Error(`autocannon printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

/** The whole of /proc/loadavg (1, 5 and 15 minutes, runnable/total tasks), or Node's figures. */
function loadAverage(): string {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").trim().split(/\s+/).slice(0, 4).join(" ");
  } catch {
    return os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  }
}

// ---------------------------------------------------------------------------------------------
// The servers

interface Load {
  name: string;
  path: string;
  authorization: string;
}

interface Server {
  name: "app" | "raw";
  url: string;
  child: Child;
}

/** A database of the bench's own, loaded, and how to reach it and remove it. */
interface BenchDatabase {
  kind: DatabaseKind;
  /** DATABASE_URL for the app server. */
  url: string;
  /** What the yardstick is given: the SQLite file or the PostgreSQL URL. */
  rawEnv: Record<string, string>;
  rawScript: string;
  /** "SQLite 3.x", "PostgreSQL 16.x". */
  version: string;
  submissions: number;
  loads: Load[];
  drop(): Promise<void>;
}

/** Loads the submissions and the two users, and names the loads. */
async function fill(
  db: Db,
  size: number | null,
  filesDir: string,
): Promise<{ submissions: number; loads: Load[] }> {
  await migrateToLatest(db);
  let indexNumber: string | undefined;
  let submissions: number;
  if (size === null) {
    submissions = await loadSampleData(db, sampleContextForFolder(filesDir));
    indexNumber = readSampleRecords()
      .map((r) => r.IndexNumber)
      .find((n): n is string => typeof n === "string" && n.trim() !== "");
  } else {
    const rows = generateSubmissions(size, new Date());
    await loadSubmissions(db, rows);
    submissions = rows.length;
    // A row from the middle: neither the first nor the last one inserted.
    indexNumber = rows[Math.floor(rows.length / 2)]?.fields.indexNumber;
  }
  if (!indexNumber) throw new Error("the loaded data has no index number");
  const admin = await createUser(db, "admin", { email: "bench-admin@school.test" });
  const student = await createUser(db, "student", {
    email: "bench-student@st.school.test",
    indexNumber,
  });
  return {
    submissions,
    loads: [
      {
        name: "status read",
        path: `/api/submissions/${encodeURIComponent(indexNumber)}`,
        authorization: student.bearer.authorization ?? "",
      },
      {
        name: "list, first page, no term",
        path: "/api/submissions",
        authorization: admin.bearer.authorization ?? "",
      },
    ],
  };
}

async function prepareSqlite(
  dir: string,
  size: number | null,
  yardstick: Options["yardstick"],
): Promise<BenchDatabase> {
  const file = path.join(dir, "ets.sqlite");
  const db = createDatabase({ kind: "sqlite", path: file });
  try {
    const { submissions, loads } = await fill(db, size, path.join(dir, "files"));
    const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    return {
      kind: "sqlite",
      url: `sqlite:${file}`,
      rawEnv: { DATABASE_FILE: file },
      rawScript: yardstick === "floor" ? "bench-api-floor.mjs" : "bench-api-raw.mjs",
      version: `SQLite ${version.rows[0]?.v ?? "?"}`,
      submissions,
      loads,
      drop: async () => undefined,
    };
  } finally {
    await db.destroy();
  }
}

async function preparePostgres(
  dir: string,
  serverUrl: string,
  size: number | null,
): Promise<BenchDatabase> {
  const name = `ets_bench_api_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const drop = async () => {
    // Once the servers' connections have gone (they are stopped first); retried while they close.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`drop database if exists ${name}`);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await admin.end();
  };
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ kind: "postgres", url: url.toString() });
    try {
      const { submissions, loads } = await fill(db, size, path.join(dir, "files"));
      const version = await sql<{ server_version: string }>`show server_version`.execute(db);
      return {
        kind: "postgres",
        url: url.toString(),
        rawEnv: { DATABASE_URL: url.toString() },
        rawScript: "bench-api-raw-pg.mjs",
        version: `PostgreSQL ${version.rows[0]?.server_version ?? "?"}`,
        submissions,
        loads,
        drop,
      };
    } finally {
      await db.destroy();
    }
  } catch (error) {
    await drop();
    throw error;
  }
}

function serverEntry(staleOk: boolean): string {
  try {
    return builtServerEntry();
  } catch (error) {
    if (!(error instanceof NotBuiltError) || !staleOk) throw error;
    console.warn(`Warning (--stale-ok): ${error.message}`);
    return resolveFromRoot("dist", "server", "server.js");
  }
}

async function startServers(
  dir: string,
  database: BenchDatabase,
  entry: string,
  profileDir: string | null,
): Promise<Server[]> {
  const appPort = await freePort();
  const app = startChild({
    name: "the app server",
    command: process.execPath,
    args: profileDir === null ? [entry] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, entry],
    env: {
      NODE_ENV: "production",
      // No SMTP server here: mail goes to the log (without its codes and links).
      ETS_MAIL_TO_LOG: "on",
      // One process: the figures (and the RSS read by PID) are one server's, as before ETS_WORKERS.
      ETS_WORKERS: "1",
      PORT: String(appPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${appPort}`,
      DATABASE_URL: database.url,
      STORAGE_URL: `file:${path.join(dir, "files")}`,
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
    },
    cwd: resolveFromRoot(),
    logFile: path.join(dir, `app-${database.kind}.log`),
  });
  const servers: Server[] = [{ name: "app", url: `http://127.0.0.1:${appPort}`, child: app }];
  try {
    await waitForOk(`http://127.0.0.1:${appPort}/api/health`, app, 60_000);
    const rawPort = await freePort();
    const raw = startChild({
      name: "the raw node:http server",
      command: process.execPath,
      args:
        profileDir === null
          ? [resolveFromRoot("scripts", database.rawScript)]
          : [
              "--cpu-prof",
              `--cpu-prof-dir=${path.join(profileDir, "raw")}`,
              resolveFromRoot("scripts", database.rawScript),
            ],
      env: { ...database.rawEnv, PORT: String(rawPort) },
      cwd: resolveFromRoot(),
      logFile: path.join(dir, `raw-${database.kind}.log`),
    });
    servers.push({ name: "raw", url: `http://127.0.0.1:${rawPort}`, child: raw });
    await waitForOk(`http://127.0.0.1:${rawPort}/health`, raw, 30_000);
    return servers;
  } catch (error) {
    for (const s of servers) await stopChild(s.child);
    throw error;
  }
}

/** Both servers must give the same answer, or the comparison means nothing. */
async function checkSameAnswers(servers: Server[], loads: Load[]): Promise<void> {
  for (const load of loads) {
    const answers = await Promise.all(
      servers.map(async (s) => {
        const res = await fetch(`${s.url}${load.path}`, {
          headers: { authorization: load.authorization },
        });
        if (res.status !== 200) throw new Error(`${s.name}: ${load.path} answered ${res.status}`);
        return res.json() as Promise<unknown>;
      }),
    );
    if (!isDeepStrictEqual(answers[0], answers[1])) {
      throw new Error(`The app and the raw server answer ${load.path} differently.`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Runs and report

interface Run {
  load: string;
  server: "app" | "raw";
  round: number;
  loadAverage: string;
  result: AutocannonResult;
}

async function drive(servers: Server[], loads: Load[], options: Options): Promise<Run[]> {
  const args = (server: Server, load: Load, seconds: number) => [
    "-c",
    String(options.connections),
    "-d",
    String(seconds),
    "-H",
    `authorization=${load.authorization}`,
    `${server.url}${load.path}`,
  ];
  // Warm-up, not counted: the JIT, SQLite's page cache, every lazy path.
  for (const load of loads) for (const s of servers) await autocannon(args(s, load, 3));
  const runs: Run[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const load of loads) {
      // Alternate who goes first, so a change in the machine's load falls on both.
      const order = round % 2 === 1 ? servers : [...servers].reverse();
      for (const server of order) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const loadAtStart = loadAverage();
        const result = await autocannon(args(server, load, options.durationSeconds));
        const run = {
          load: load.name,
          server: server.name,
          round,
          loadAverage: loadAtStart,
          result,
        };
        console.log(
          `${load.name} | ${server.name} | round ${round} | loadavg ${loadAtStart} | ${Math.round(result.requests.average)} req/s | p50 ${result.latency.p50} ms | p99 ${result.latency.p99} ms | errors ${result.errors} | non-2xx ${result.non2xx}`,
        );
        if (result.errors > 0 || result.non2xx > 0) {
          throw new Error(`${server.name} failed requests on ${load.name}: see the line above.`);
        }
        runs.push(run);
      }
    }
  }
  return runs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface Summary {
  load: string;
  app: number;
  raw: number;
  appP50: number;
  rawP50: number;
  ratio: number;
}

function summarise(runs: Run[], loads: Load[]): Summary[] {
  return loads.map((load) => {
    const of = (server: "app" | "raw") =>
      runs.filter((r) => r.load === load.name && r.server === server);
    const rps = (server: "app" | "raw") => median(of(server).map((r) => r.result.requests.average));
    const p50 = (server: "app" | "raw") => median(of(server).map((r) => r.result.latency.p50));
    const app = rps("app");
    const raw = rps("raw");
    return {
      load: load.name,
      app,
      raw,
      appP50: p50("app"),
      rawP50: p50("raw"),
      ratio: raw > 0 ? app / raw : 0,
    };
  });
}

const whole = (n: number) => Math.round(n).toLocaleString("en");

function summaryTable(
  database: string,
  summaries: Summary[],
  yardstick: Options["yardstick"] = "raw",
): string {
  // Issue 11's target is against the raw server; the floor is a diagnosis, with no target.
  const name = yardstick === "raw" ? "Raw" : "Floor";
  const lines = [
    `| Database | Load | App (req/s) | ${name} (req/s) | App / ${name.toLowerCase()} | Target | App p50 (ms) | ${name} p50 (ms) |`,
    "|---|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const s of summaries) {
    const target = yardstick === "raw" ? `≥ 0.70 (${s.ratio >= 0.7 ? "met" : "missed"})` : "none";
    lines.push(
      `| ${database} | ${s.load} | ${whole(s.app)} | ${whole(s.raw)} | ${s.ratio.toFixed(2)} | ${target} | ${s.appP50} | ${s.rawP50} |`,
    );
  }
  return lines.join("\n");
}

function runsTable(database: string, runs: Run[]): string {
  const lines = [
    "| Database | Load | Server | Round | /proc/loadavg at start | Requests/s | p50 (ms) | p99 (ms) |",
    "|---|---|---|---:|---|---:|---:|---:|",
  ];
  for (const r of runs) {
    lines.push(
      `| ${database} | ${r.load} | ${r.server} | ${r.round} | ${r.loadAverage} | ${whole(r.result.requests.average)} | ${r.result.latency.p50} | ${r.result.latency.p99} |`,
    );
  }
  return lines.join("\n");
}

async function benchOne(
  kind: DatabaseKind,
  options: Options,
  entry: string,
  argv: string[],
): Promise<void> {
  const started = new Date();
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-api-"));
  try {
    console.log(
      `${kind}: loading ${options.size === null ? "the sample data" : `${options.size} generated submissions`}…`,
    );
    const database =
      kind === "sqlite"
        ? await prepareSqlite(dir, options.size, options.yardstick)
        : await preparePostgres(dir, options.postgresUrl, options.size);
    let runs: Run[];
    try {
      const servers = await startServers(dir, database, entry, options.profileDir);
      try {
        console.log(
          `${database.version}: app server PID ${servers[0]?.child.pid}, ${options.yardstick === "floor" ? "floor (in the raw column)" : "raw"} server PID ${servers[1]?.child.pid}; /proc/loadavg ${loadAtStart}.`,
        );
        const loads = database.loads.filter(
          (l) => options.loads === "both" || l.name.startsWith(options.loads),
        );
        await checkSameAnswers(servers, loads);
        runs = await drive(servers, loads, options);
      } finally {
        for (const s of servers) await stopChild(s.child);
      }
    } finally {
      await database.drop();
    }
    const summary = summaryTable(
      database.version,
      summarise(
        runs,
        database.loads.filter((l) => runs.some((r) => r.load === l.name)),
      ),
      options.yardstick,
    );
    console.log(`\n${summary}\n`);
    if (!options.write) return;
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    // The label is printed on its own, after the command.
    const shown = argv.filter((a, i) => a !== "--label" && argv[i - 1] !== "--label");
    const command = ["npm run bench -- api", ...shown].join(" ");
    const data =
      options.size === null
        ? `the sample data (${database.submissions} submissions)`
        : `${database.submissions.toLocaleString("en")} generated submissions (scripts/bench-data.ts)`;
    const yardstick =
      kind === "sqlite"
        ? "node:http + prepared better-sqlite3 statements (scripts/bench-api-raw.mjs)"
        : "node:http + `pg` with named prepared statements, a pool of 10 like the app's (scripts/bench-api-raw-pg.mjs)";
    writeBenchSection(
      `api-${kind}`,
      [
        `Measured ${started.toISOString().replace("T", " ").slice(0, 16)} UTC by \`${command}\`${options.label ? ` (${options.label})` : ""} on ${cpu} (${os.cpus().length} cores), Node ${process.version};`,
        `/proc/loadavg ${loadAtStart} when this database's part started and ${loadAverage()} when it ended (other work shares the machine; each run's own below).`,
        `${database.version}, ${data}; raw: ${yardstick}; autocannon (its own process, same machine) with ${options.connections} connections for ${options.durationSeconds} s per run after a 3 s warm-up; median of ${options.rounds} rounds, app and raw alternating.`,
        "",
        summary,
        "",
        "<details><summary>Every run</summary>",
        "",
        runsTable(database.version, runs),
        "",
        "</details>",
      ].join("\n"),
    );
    console.log(`Wrote the api-${kind} section of docs/benchmarks.md.`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchApi(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const entry = serverEntry(options.staleOk);
  for (const kind of options.databases) await benchOne(kind, options, entry, argv);
}

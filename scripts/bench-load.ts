// `npm run bench -- load`: many clients at once on the two reads that see the most traffic, with
// autocannon (one process, on this machine): a student's status read (GET
// /api/submissions/:indexNumber) and the administrators' list search (GET /api/submissions?q=ama),
// each from 200 connections for 30 s with a 10 s timeout, on the built server:
//   1. one machine on SQLite (a new file), as a school runs it: the server with ETS_WORKERS=1 and
//      with ETS_WORKERS=--workers (2), side by side, each run restarting the server, alternating
//      which goes first;
//   2. three servers on one PostgreSQL database behind nginx (cluster/cluster.ts, as
//      `npm run cluster` starts them, one process each), as a university runs it.
// Reports requests per second, p50, p99 and max latency, errors, timeouts and non-2xx answers per
// run, with the load average of the machine beside each, and the workers' figures side by side;
// writes the load sections of docs/benchmarks.md. The issue's targets: no error, no timeout, a
// maximum within a few times the p99 (no request starved), and about twice the requests at 2
// workers on 2 cores.
//
// Options: --connections N (200), --duration S (30), --timeout S (10), --runs N (2, each load
// runs this often, alternating), --rows N (10000 generated submissions), --workers N (2),
// --servers N (3), --postgres URL (the server the cluster creates its database on),
// --only single|cluster, --turns on|off|both (requests in turns, server/request-turns.ts: both
// measures the SQLite setup with and without them), --no-write (print only). Needs
// `npm run build` first, and nginx and PostgreSQL for the cluster.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startCluster, builtServerEntry } from "../cluster/cluster.js";
import { testPostgresUrl } from "../cluster/postgres.js";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import { createUser } from "../testing/factories.js";
import { generateSubmissions, loadSubmissions, type GeneratedSubmission } from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";

interface Options {
  connections: number;
  durationSeconds: number;
  timeoutSeconds: number;
  runs: number;
  rows: number;
  servers: number;
  workers: number;
  turns: ("on" | "off")[];
  postgresUrl: string;
  only: "single" | "cluster" | null;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      connections: { type: "string" },
      duration: { type: "string" },
      timeout: { type: "string" },
      runs: { type: "string" },
      rows: { type: "string" },
      servers: { type: "string" },
      workers: { type: "string" },
      turns: { type: "string" },
      postgres: { type: "string" },
      only: { type: "string" },
      "no-write": { type: "boolean" },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number, min: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return n;
  };
  if (values.only !== undefined && values.only !== "single" && values.only !== "cluster") {
    throw new Error("--only must be single or cluster");
  }
  const turns = values.turns ?? "on";
  if (turns !== "on" && turns !== "off" && turns !== "both") {
    throw new Error("--turns must be on, off or both");
  }
  return {
    connections: whole("connections", values.connections, 200, 1),
    durationSeconds: whole("duration", values.duration, 30, 1),
    timeoutSeconds: whole("timeout", values.timeout, 10, 1),
    runs: whole("runs", values.runs, 2, 1),
    rows: whole("rows", values.rows, 10_000, 1000),
    servers: whole("servers", values.servers, 3, 1),
    workers: whole("workers", values.workers, 2, 2),
    turns: turns === "both" ? ["on", "off"] : [turns],
    postgresUrl: values.postgres ?? testPostgresUrl(),
    only: values.only ?? null,
    write: values["no-write"] !== true,
  };
}

// ---------------------------------------------------------------------------------------------
// The data and the two clients

/** The term searched: a common first name and part of common surnames (Kamara, Mahama). */
const SEARCH_TERM = "ama";

interface Target {
  /** The administrator's and the student's Authorization headers (bearer session tokens). */
  adminAuthorization: string;
  studentAuthorization: string;
  indexNumber: string;
}

/** Loads the submissions and creates an administrator and a student whose submission is read. */
async function prepare(db: Db, rows: GeneratedSubmission[]): Promise<Target> {
  await loadSubmissions(db, rows);
  const own = rows.find((r) => r.fields.studentName.toLowerCase().includes(SEARCH_TERM)) ?? rows[0];
  if (!own) throw new Error("no submissions generated");
  const admin = await createUser(db, "admin", { email: "bench-admin@school.test" });
  const student = await createUser(db, "student", {
    email: "bench-student@st.school.test",
    indexNumber: own.fields.indexNumber,
  });
  return {
    adminAuthorization: admin.bearer.authorization ?? "",
    studentAuthorization: student.bearer.authorization ?? "",
    indexNumber: own.fields.indexNumber,
  };
}

interface Load {
  name: string;
  path: string;
  authorization: string;
}

function loads(target: Target): Load[] {
  return [
    {
      name: "status read",
      path: `/api/submissions/${encodeURIComponent(target.indexNumber)}`,
      authorization: target.studentAuthorization,
    },
    {
      name: `list search (q=${SEARCH_TERM})`,
      path: `/api/submissions?q=${SEARCH_TERM}`,
      authorization: target.adminAuthorization,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// autocannon, in a process of its own so its work is not this script's (which relays the
// cluster's logs)

/** The part of autocannon's --json result used here (latencies in ms). */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
}

interface Run {
  setup: string;
  load: string;
  run: number;
  loadAverage: string;
  result: AutocannonResult;
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
        reject(
          new Error(`autocannon printed no result: ${out.slice(0, 200)} ${err.slice(0, 200)}`),
        );
      }
    });
  });
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");
}

async function drive(
  setup: string,
  baseUrl: string,
  target: Target,
  options: Options,
): Promise<Run[]> {
  const argsFor = (load: Load, connections: number, seconds: number) => [
    "-c",
    String(connections),
    "-d",
    String(seconds),
    "-t",
    String(options.timeoutSeconds),
    "-H",
    `authorization=${load.authorization}`,
    `${baseUrl}${load.path}`,
  ];
  // Warm-up, not counted: compiled code paths, prepared plans, the page cache.
  for (const load of loads(target)) await autocannon(argsFor(load, 10, 3));
  const runs: Run[] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    for (const load of loads(target)) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const loadAtStart = loadAverage();
      const result = await autocannon(argsFor(load, options.connections, options.durationSeconds));
      const entry = { setup, load: load.name, run, loadAverage: loadAtStart, result };
      console.log(line(entry));
      runs.push(entry);
    }
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// The two setups

/**
 * What the machine gives several processes at this moment: a CPU-bound loop (no I/O) run in one
 * process for 2 s, then in `processes` at once; the total work of the many over the one's. On an
 * idle machine with that many cores, about `processes`; when other work holds the cores, less,
 * and no server can do better with its workers than this.
 */
async function machineParallelism(processes: number): Promise<number> {
  const loop = `let n = 0; const end = Date.now() + 2000; while (Date.now() < end) { for (let i = 0; i < 1e5; i++) n += i % 7; } process.stdout.write(String(n));`;
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ["-e", loop], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
      child.once("error", reject);
      child.once("exit", () => resolve(Number(out)));
    });
  const alone = await one();
  const together = await Promise.all(Array.from({ length: processes }, one));
  return together.reduce((a, b) => a + b, 0) / alone;
}

/** The SQLite setup's name for `workers` processes, with or without the request turns. */
function workersSetup(workers: number, turns: "on" | "off"): string {
  return `SQLite, ${workers} worker${workers === 1 ? "" : "s"}${turns === "off" ? ", no turns" : ""}`;
}

/**
 * One machine on SQLite: the built server on one new file, started with ETS_WORKERS=1 and with
 * ETS_WORKERS=options.workers (and with the request turns on, off, or both), restarted for each
 * run; which goes first alternates from run to run, so a machine getting busier favours neither.
 */
/** machineParallelism() before each run of the SQLite setup, for the report. */
const parallelisms: number[] = [];

async function oneMachine(rows: GeneratedSubmission[], options: Options): Promise<Run[]> {
  const entry = builtServerEntry();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-load-"));
  const file = path.join(dir, "ets.sqlite");
  try {
    const db = createDatabase({ kind: "sqlite", path: file });
    let target: Target;
    try {
      await migrateToLatest(db);
      target = await prepare(db, rows);
    } finally {
      await db.destroy();
    }
    const variants = options.turns.flatMap((turns) =>
      [1, options.workers].map((workers) => ({ workers, turns })),
    );
    const runs: Run[] = [];
    for (let run = 1; run <= options.runs; run += 1) {
      const parallelism = await machineParallelism(options.workers);
      console.log(
        `Run ${run}: ${options.workers} CPU-bound processes at once did ${parallelism.toFixed(2)}× the work of one.`,
      );
      parallelisms.push(parallelism);
      const order = run % 2 === 1 ? variants : [...variants].reverse();
      for (const { workers, turns } of order) {
        const port = await freePort();
        const child = startChild({
          name: "the server",
          command: process.execPath,
          args: [entry],
          env: {
            NODE_ENV: "production",
            // No SMTP server here: mail goes to the log (without its codes and links).
            ETS_MAIL_TO_LOG: "on",
            PORT: String(port),
            HOST: "127.0.0.1",
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            DATABASE_URL: `sqlite:${file}`,
            STORAGE_URL: `file:${path.join(dir, "files")}`,
            ETS_SAMPLE_DATA: "off",
            ETS_WORKERS: String(workers),
            ETS_REQUEST_TURNS: turns,
            LOG_LEVEL: "warn",
          },
          cwd: resolveFromRoot(),
          logFile: path.join(dir, "server.log"),
        });
        try {
          await waitForOk(`http://127.0.0.1:${port}/api/health`, child, 60_000);
          // Every worker listening: the primary says so once they all are.
          await waitForLine(child, /ETS Tracking is running/, 60_000);
          const setup = workersSetup(workers, turns);
          console.log(`${setup} (primary PID ${child.pid}), ${rows.length} submissions.`);
          runs.push(
            ...(
              await drive(setup, `http://127.0.0.1:${port}`, target, { ...options, runs: 1 })
            ).map((r) => ({ ...r, run })),
          );
        } finally {
          await stopChild(child);
        }
      }
    }
    return runs;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function waitForLine(child: Child, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(child.tail(200))) {
    if (Date.now() > deadline || !child.running()) {
      throw new Error(`${child.name} never wrote ${pattern}:\n${child.tail(20)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function threeServers(rows: GeneratedSubmission[], options: Options): Promise<Run[]> {
  let target: Target | null = null;
  const cluster = await startCluster({
    servers: options.servers,
    postgresUrl: options.postgresUrl,
    prepare: async (db) => {
      target = await prepare(db, rows);
    },
  });
  try {
    if (!target) throw new Error("the cluster's database was not prepared");
    console.log(
      `${options.servers} servers on PostgreSQL behind nginx (nginx PID ${cluster.nginx.pid}; servers ${cluster.servers.map((s) => s.child.pid).join(", ")}).`,
    );
    return await drive(
      `${options.servers} servers, PostgreSQL, nginx`,
      cluster.url,
      target,
      options,
    );
  } finally {
    await cluster.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (n: number) => Math.round(n).toLocaleString("en");

function line(r: Run): string {
  const { result } = r;
  return `${r.setup} | ${r.load} | run ${r.run} | load ${r.loadAverage} | ${Math.round(result.requests.average)} req/s | p50 ${ms(result.latency.p50)} ms | p99 ${ms(result.latency.p99)} ms | max ${ms(result.latency.max)} ms | errors ${result.errors} (timeouts ${result.timeouts}) | non-2xx ${result.non2xx}`;
}

function table(runs: Run[]): string {
  const rows = [
    "| Setup | Load | Run | Load average at start | Requests/s | p50 (ms) | p99 (ms) | Max (ms) | Max / p99 | Errors | Timeouts | Non-2xx |",
    "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of runs) {
    const { latency } = r.result;
    const ratio = latency.p99 > 0 ? (latency.max / latency.p99).toFixed(1) : "–";
    rows.push(
      `| ${r.setup} | ${r.load} | ${r.run} | ${r.loadAverage} | ${Math.round(r.result.requests.average).toLocaleString("en")} | ${ms(latency.p50)} | ${ms(latency.p99)} | ${ms(latency.max)} | ${ratio} | ${r.result.errors} | ${r.result.timeouts} | ${r.result.non2xx} |`,
    );
  }
  return rows.join("\n");
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

/**
 * The SQLite setup's figures side by side: for each load (and turns variant), the requests per
 * second and the p99 at 1 worker and at N, averaged over the runs, and N's requests over 1's.
 */
function sideBySide(runs: Run[], options: Options): string {
  const rows = [
    `| Load | Turns | 1 worker: requests/s | 1 worker: p99 (ms) | ${options.workers} workers: requests/s | ${options.workers} workers: p99 (ms) | Requests, ${options.workers} against 1 | Max (ms), 1 / ${options.workers} | Timeouts, 1 / ${options.workers} |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const loadNames = [...new Set(runs.map((r) => r.load))];
  for (const turns of options.turns) {
    for (const load of loadNames) {
      const of = (workers: number) =>
        runs.filter((r) => r.load === load && r.setup === workersSetup(workers, turns));
      const one = of(1);
      const many = of(options.workers);
      const rps = (rs: Run[]) => mean(rs.map((r) => r.result.requests.average));
      const p99 = (rs: Run[]) => mean(rs.map((r) => r.result.latency.p99));
      const max = (rs: Run[]) => Math.max(...rs.map((r) => r.result.latency.max));
      const timeouts = (rs: Run[]) => rs.reduce((n, r) => n + r.result.timeouts, 0);
      rows.push(
        `| ${load} | ${turns} | ${Math.round(rps(one)).toLocaleString("en")} | ${ms(p99(one))} | ${Math.round(rps(many)).toLocaleString("en")} | ${ms(p99(many))} | ${(rps(many) / rps(one)).toFixed(2)}× | ${ms(max(one))} / ${ms(max(many))} | ${timeouts(one)} / ${timeouts(many)} |`,
      );
    }
  }
  return rows.join("\n");
}

/** Each setup has its own section, so `--only` rewrites the figures it measured and no others. */
const SECTIONS: Record<"single" | "cluster", string> = {
  single: "load-one-server",
  cluster: "load-several-servers",
};

export async function benchLoad(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const started = new Date();
  const loadAtStart = loadAverage();
  console.log(`Generating ${options.rows.toLocaleString("en")} submissions…`);
  const rows = generateSubmissions(options.rows, started);
  const measured: { setup: "single" | "cluster"; runs: Run[] }[] = [];
  if (options.only !== "cluster") {
    measured.push({ setup: "single", runs: await oneMachine(rows, options) });
  }
  if (options.only !== "single") {
    measured.push({ setup: "cluster", runs: await threeServers(rows, options) });
  }
  for (const { setup, runs } of measured) {
    console.log(`\n${table(runs)}`);
    if (setup === "single") console.log(`\n${sideBySide(runs, options)}`);
  }
  if (!options.write) return;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const command = ["npm run bench -- load", ...argv.filter((a) => a !== "--no-write")].join(" ");
  for (const { setup, runs } of measured) {
    const comparison =
      setup === "single"
        ? [
            `Each run starts the server afresh for each setup, alternating which goes first. Before each run, ${options.workers} CPU-bound processes at once did ${parallelisms.map((p) => `${p.toFixed(2)}×`).join(" and ")} the work of one (what the machine gave ${options.workers} processes then: no server's ${options.workers} workers can do better). Side by side (means over the runs; max and timeouts over all of them):`,
            "",
            sideBySide(runs, options),
            "",
            "Every run:",
            "",
          ]
        : [];
    writeBenchSection(
      SECTIONS[setup],
      [
        `Measured ${started.toISOString().slice(0, 10)} by \`${command}\` on ${cpu} (${os.cpus().length} cores), Node ${process.version};`,
        `load average ${loadAtStart} when the command started and ${loadAverage()} when it ended; each run's own in the table.`,
        `${options.rows.toLocaleString("en")} generated submissions; autocannon (one process, same machine) with ${options.connections} connections for ${options.durationSeconds} s per run, timeout ${options.timeoutSeconds} s, after a 3 s warm-up at 10 connections; each load ${options.runs} times, alternating.`,
        `Latencies in ms, over the answered requests (a timed-out request counts under Timeouts and Errors, not in the latencies).`,
        "",
        ...comparison,
        table(runs),
      ].join("\n"),
    );
  }
  console.log("Wrote the load figures into docs/benchmarks.md.");
}

// `npm run bench -- tokens`: what an API token costs on a read (issue 21). One app server (the
// built dist/server/server.js, ETS_WORKERS=1, a child process stopped by PID) on a database of the
// bench's own with the sample data; autocannon (its own process) drives the student's status read
// GET /api/submissions/:indexNumber as an administrator, alternately with a cookie session and with
// an API token holding submissions:read, and reports the median requests per second and p99 of the
// rounds. Target: the token within 5 % of the cookie session's requests per second. Writes the
// tokens-sqlite / tokens-postgres sections of docs/benchmarks.md.
//
// Options: --database sqlite|postgres|both (sqlite), --postgres URL, --connections N (10),
// --duration S (10), --rounds N (3), --no-write.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import pg from "pg";
import { builtServerEntry } from "../cluster/cluster.js";
import { freePort, startChild, stopChild, waitForOk } from "../cluster/processes.js";
import { insertApiToken } from "../server/auth/api-tokens.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import {
  loadSampleData,
  readSampleRecords,
  sampleContextForFolder,
} from "../server/sample-data.js";
import { createUser } from "../testing/factories.js";
import { writeBenchSection } from "./bench-report.js";

type Kind = "sqlite" | "postgres";

interface Result {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

function autocannon(args: string[]): Promise<Result> {
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
        resolve(JSON.parse(out) as Result);
      } catch {
        reject(new Error(`autocannon printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

const loadAverage = () =>
  fs.readFileSync("/proc/loadavg", "utf8").trim().split(/\s+/).slice(0, 4).join(" ");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface Prepared {
  url: string;
  path: string;
  cookie: string;
  token: string;
  drop(): Promise<void>;
}

async function fill(db: Db, filesDir: string): Promise<Omit<Prepared, "url" | "drop">> {
  await migrateToLatest(db);
  await loadSampleData(db, sampleContextForFolder(filesDir));
  const indexNumber = readSampleRecords()
    .map((r) => r.IndexNumber)
    .find((n): n is string => typeof n === "string" && n.trim() !== "");
  if (!indexNumber) throw new Error("the sample data has no index number");
  const admin = await createUser(db, "admin", {
    email: "ama.mensah@school.test",
    name: "Ama Mensah",
  });
  const { token } = await insertApiToken(db, {
    name: "Registrar SIS (bench)",
    scopes: ["submissions:read"],
    createdBy: admin.id,
    expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
  });
  return {
    path: `/api/submissions/${encodeURIComponent(indexNumber)}`,
    cookie: admin.headers.cookie ?? "",
    token,
  };
}

async function prepare(kind: Kind, dir: string, postgresUrl: string): Promise<Prepared> {
  if (kind === "sqlite") {
    const file = path.join(dir, "ets.sqlite");
    const db = createDatabase({ kind: "sqlite", path: file });
    try {
      return {
        url: `sqlite:${file}`,
        ...(await fill(db, path.join(dir, "files"))),
        drop: async () => undefined,
      };
    } finally {
      await db.destroy();
    }
  }
  const name = `ets_bench_tokens_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ kind: "postgres", url: url.toString() });
  try {
    return {
      url: url.toString(),
      ...(await fill(db, path.join(dir, "files"))),
      drop: async () => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  } finally {
    await db.destroy();
  }
}

interface Run {
  via: "cookie" | "token";
  round: number;
  load: string;
  result: Result;
}

async function benchOne(kind: Kind, options: Options): Promise<void> {
  const started = new Date();
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-tokens-"));
  const prepared = await prepare(kind, dir, options.postgresUrl);
  const runs: Run[] = [];
  try {
    const port = await freePort();
    const app = startChild({
      name: "the app server",
      command: process.execPath,
      args: [builtServerEntry()],
      env: {
        NODE_ENV: "production",
        ETS_MAIL_TO_LOG: "on",
        ETS_WORKERS: "1",
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: prepared.url,
        STORAGE_URL: `file:${path.join(dir, "files")}`,
        ETS_SAMPLE_DATA: "off",
        LOG_LEVEL: "warn",
        // The limit is what is measured, not what stops the bench.
        RATE_LIMIT_API_TOKEN: "9999999",
      },
      cwd: resolveFromRoot(),
      logFile: path.join(dir, "app.log"),
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForOk(`${base}/api/health`, app, 60_000);
      const header = {
        cookie: `cookie=${prepared.cookie}`,
        token: `authorization=Bearer ${prepared.token}`,
      };
      // Both must read the same record, or the comparison means nothing.
      const [byCookie, byToken] = await Promise.all([
        fetch(`${base}${prepared.path}`, { headers: { cookie: prepared.cookie } }),
        fetch(`${base}${prepared.path}`, {
          headers: { authorization: `Bearer ${prepared.token}` },
        }),
      ]);
      if (byCookie.status !== 200 || byToken.status !== 200) {
        throw new Error(`cookie ${byCookie.status}, token ${byToken.status}: both must be 200`);
      }
      if ((await byCookie.text()) !== (await byToken.text())) {
        throw new Error("the cookie and the token read different answers");
      }
      const args = (via: "cookie" | "token", seconds: number) => [
        "-c",
        String(options.connections),
        "-d",
        String(seconds),
        "-H",
        header[via],
        `${base}${prepared.path}`,
      ];
      for (const via of ["cookie", "token"] as const) await autocannon(args(via, 3));
      for (let round = 1; round <= options.rounds; round += 1) {
        const order: ("cookie" | "token")[] =
          round % 2 === 1 ? ["cookie", "token"] : ["token", "cookie"];
        for (const via of order) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const load = loadAverage();
          const result = await autocannon(args(via, options.durationSeconds));
          console.log(
            `${kind} | ${via} | round ${round} | loadavg ${load} | ${Math.round(result.requests.average)} req/s | p50 ${result.latency.p50} ms | p99 ${result.latency.p99} ms | errors ${result.errors} | non-2xx ${result.non2xx}`,
          );
          if (result.errors > 0 || result.non2xx > 0) throw new Error(`${via}: failed requests`);
          runs.push({ via, round, load, result });
        }
      }
    } finally {
      await stopChild(app);
    }
  } finally {
    await prepared.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const of = (via: "cookie" | "token") => runs.filter((r) => r.via === via);
  const rps = (via: "cookie" | "token") => median(of(via).map((r) => r.result.requests.average));
  const p99 = (via: "cookie" | "token") => median(of(via).map((r) => r.result.latency.p99));
  const ratio = rps("token") / rps("cookie");
  const met = ratio >= 0.95;
  const database = kind === "sqlite" ? "SQLite" : "PostgreSQL";
  const summary = [
    "| Database | Credential | Requests/s (median) | p99 (ms, median) | Token / cookie | Target |",
    "|---|---|---:|---:|---:|---|",
    `| ${database} | cookie session | ${Math.round(rps("cookie")).toLocaleString("en")} | ${p99("cookie")} | | |`,
    `| ${database} | API token | ${Math.round(rps("token")).toLocaleString("en")} | ${p99("token")} | ${ratio.toFixed(3)} | ≥ 0.95 (${met ? "met" : "missed"}) |`,
  ].join("\n");
  console.log(`\n${summary}\n`);
  if (!options.write) return;
  const every = [
    "| Credential | Round | /proc/loadavg at start | Requests/s | p50 (ms) | p99 (ms) |",
    "|---|---:|---|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.via} | ${r.round} | ${r.load} | ${Math.round(r.result.requests.average).toLocaleString("en")} | ${r.result.latency.p50} | ${r.result.latency.p99} |`,
    ),
  ].join("\n");
  writeBenchSection(
    `tokens-${kind}`,
    [
      `### API token against cookie session, status read (${database})`,
      "",
      `Measured ${started.toISOString().replace("T", " ").slice(0, 16)} UTC by \`npm run bench -- tokens --database ${options.kinds.length > 1 ? "both" : kind}\` on ${os.cpus()[0]?.model ?? "unknown CPU"} (${os.cpus().length} cores), Node ${process.version}; /proc/loadavg ${loadAtStart} at start, ${loadAverage()} at the end (the machine is shared).`,
      `One app server (ETS_WORKERS=1), the sample data; GET /api/submissions/:indexNumber as an administrator, with the ets_session cookie or with an API token holding submissions:read; autocannon with ${options.connections} connections, ${options.durationSeconds} s per run after a 3 s warm-up, median of ${options.rounds} rounds, alternating.`,
      "",
      summary,
      "",
      "<details><summary>Every run</summary>",
      "",
      every,
      "",
      "</details>",
    ].join("\n"),
  );
  console.log(`Wrote the tokens-${kind} section of docs/benchmarks.md.`);
}

interface Options {
  kinds: Kind[];
  postgresUrl: string;
  connections: number;
  durationSeconds: number;
  rounds: number;
  write: boolean;
}

export async function benchTokens(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: "string" },
      postgres: { type: "string" },
      connections: { type: "string" },
      duration: { type: "string" },
      rounds: { type: "string" },
      "no-write": { type: "boolean" },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
    return n;
  };
  const database = values.database ?? "sqlite";
  if (!["sqlite", "postgres", "both"].includes(database)) {
    throw new Error("--database must be sqlite, postgres or both");
  }
  const options: Options = {
    kinds: database === "both" ? ["sqlite", "postgres"] : [database as Kind],
    postgresUrl: values.postgres ?? "postgres://postgres@127.0.0.1:5432/test",
    connections: whole("connections", values.connections, 10),
    durationSeconds: whole("duration", values.duration, 10),
    rounds: whole("rounds", values.rounds, 3),
    write: values["no-write"] !== true,
  };
  for (const kind of options.kinds) await benchOne(kind, options);
}

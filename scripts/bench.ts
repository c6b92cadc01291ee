// `npm run bench`: times the administrator's list search over 100,000 generated submissions, on a
// fresh SQLite file and on a fresh PostgreSQL database, through the same service function the
// route calls (searchSubmissions). Prints median and p95 per kind of term and writes them into the
// search section of docs/benchmarks.md.
//
// Options: --rows N (default 100000), --postgres URL (default TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/test; the bench creates and drops its own database there),
// --sqlite-only, --no-write (print only).
//
// `npm run bench -- upload` runs the upload benchmark instead (scripts/bench-upload.ts), and
// `npm run bench -- load` the load benchmark (scripts/bench-load.ts), `npm run bench -- api` the
// hot path against a raw node:http server (scripts/bench-api.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { sql } from "kysely";
import type { SubmissionFields } from "../common/submission.js";
import { submissionListQuerySchema } from "../common/submissions-api.js";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { searchSubmissions } from "../server/submissions/service.js";
import { generateSubmissions, loadSubmissions, mulberry32, pick } from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";
import { benchApi } from "./bench-api.js";
import { benchLoad } from "./bench-load.js";
import { benchUpload } from "./bench-upload.js";
import { benchBulk } from "./bench-bulk.js";
import { benchRender } from "./bench-render.js";

interface Options {
  rows: number;
  postgresUrl: string | null;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const rows = Number(value("--rows") ?? 100_000);
  if (!Number.isInteger(rows) || rows < 1000)
    throw new Error("--rows must be a whole number ≥ 1000");
  const postgresUrl = argv.includes("--sqlite-only")
    ? null
    : (value("--postgres") ??
      readTestEnv().databaseUrl ??
      "postgres://postgres@127.0.0.1:5432/test");
  return { rows, postgresUrl, write: !argv.includes("--no-write") };
}

// ---------------------------------------------------------------------------------------------
// Queries

interface Case {
  kind: string;
  query: Record<string, string>;
}

function cases(rows: { fields: SubmissionFields }[]): Case[] {
  const random = mulberry32(0x5eac4);
  const names = rows.map((r) => r.fields.studentName.toLowerCase());
  const indexNumbers = rows.map((r) => r.fields.indexNumber);
  const substring = (length: number) => {
    for (;;) {
      const name = pick(random, names);
      const start = Math.floor(random() * Math.max(1, name.length - length));
      const term = name.slice(start, start + length);
      if (term.trim().length === length) return term;
    }
  };
  const out: Case[] = [];
  for (let i = 0; i < 60; i += 1)
    out.push({ kind: "3-letter name term", query: { q: substring(3) } });
  for (const q of ["xqz", "zzy", "qqq"]) out.push({ kind: "3-letter name term", query: { q } });
  for (let i = 0; i < 30; i += 1) {
    out.push({ kind: "1–2 letter term (LIKE scan)", query: { q: substring(1 + (i % 2)) } });
  }
  for (let i = 0; i < 40; i += 1) {
    const prefix = pick(random, indexNumbers).slice(0, 3 + (i % 5));
    out.push({ kind: "index-number prefix (3–7 digits)", query: { q: prefix } });
  }
  for (let i = 0; i < 30; i += 1)
    out.push({ kind: "longer name term (5–8)", query: { q: substring(5 + (i % 4)) } });
  for (let i = 0; i < 20; i += 1) {
    out.push({
      kind: "3-letter term + stage filter, by updatedAt desc",
      query: { q: substring(3), sgsStage: "sent_to_examiners", sort: "updatedAt", order: "desc" },
    });
  }
  out.push({ kind: "no term, by name (pages 1 and 200)", query: {} });
  out.push({ kind: "no term, by name (pages 1 and 200)", query: { sort: "name", order: "desc" } });
  out.push({ kind: "no term, by name (pages 1 and 200)", query: { page: "200" } });
  return out;
}

interface Figures {
  kind: string;
  runs: number;
  /** Mean number of matching submissions (the list's total). */
  matches: number;
  median: number;
  p95: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function time(db: Db, all: Case[], repeats: number): Promise<Figures[]> {
  // Warm up: the first queries pay for opening pages and planning.
  for (const c of all.slice(0, 10))
    await searchSubmissions(db, submissionListQuerySchema.parse(c.query));
  const byKind = new Map<string, number[]>();
  const totals = new Map<string, number[]>();
  for (let round = 0; round < repeats; round += 1) {
    for (const c of all) {
      const query = submissionListQuerySchema.parse(c.query);
      const start = performance.now();
      const { total } = await searchSubmissions(db, query);
      const ms = performance.now() - start;
      byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), ms]);
      totals.set(c.kind, [...(totals.get(c.kind) ?? []), total]);
    }
  }
  return [...byKind].map(([kind, times]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const matched = totals.get(kind) ?? [];
    return {
      kind,
      runs: sorted.length,
      matches: matched.reduce((sum, n) => sum + n, 0) / Math.max(1, matched.length),
      median: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted[sorted.length - 1] ?? 0,
    };
  });
}

// ---------------------------------------------------------------------------------------------

async function benchSqlite(rows: { fields: SubmissionFields; createdAt: string }[], all: Case[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-"));
  const db = createDatabase({ kind: "sqlite", path: path.join(dir, "bench.sqlite") });
  try {
    await migrateToLatest(db);
    const started = performance.now();
    await loadSubmissions(db, rows);
    const loadSeconds = (performance.now() - started) / 1000;
    const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    const figures = await time(db, all, 5);
    return { name: `SQLite ${version.rows[0]?.v ?? "?"}`, loadSeconds, figures };
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(
  serverUrl: string,
  rows: { fields: SubmissionFields; createdAt: string }[],
  all: Case[],
) {
  const name = `ets_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ kind: "postgres", url: url.toString() });
  try {
    await migrateToLatest(db);
    const started = performance.now();
    await loadSubmissions(db, rows);
    const loadSeconds = (performance.now() - started) / 1000;
    const version = await sql<{ v: string }>`show server_version`.execute(db);
    const figures = await time(db, all, 5);
    const v = (version.rows[0] as Record<string, string> | undefined)?.server_version ?? "?";
    return { name: `PostgreSQL ${v}`, loadSeconds, figures };
  } finally {
    await db.destroy();
    await dropDatabase(admin, name);
    await admin.end();
  }
}

/**
 * Drops the bench's database once the pool's connections have gone. (Forcing the drop would kill
 * connections the pool is still closing, which it reports as an unhandled error.)
 */
async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function table(results: { name: string; loadSeconds: number; figures: Figures[] }[]): string {
  const lines = [
    "| Database | Query | Runs | Mean matches | Median (ms) | p95 (ms) | Max (ms) |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    for (const f of r.figures) {
      lines.push(
        `| ${r.name} | ${f.kind} | ${f.runs} | ${Math.round(f.matches).toLocaleString("en")} | ${f.median.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(1)} |`,
      );
    }
  }
  return lines.join("\n");
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");
}

async function main(): Promise<void> {
  const options = readOptions(argv);
  const now = new Date();
  const benchStarted = performance.now();
  const loadAtStart = loadAverage();
  console.log(`Generating ${options.rows.toLocaleString("en")} submissions…`);
  const rows = generateSubmissions(options.rows, now);
  const all = cases(rows);

  const results = [];
  console.log("SQLite: loading and timing…");
  results.push(await benchSqlite(rows, all));
  if (options.postgresUrl) {
    console.log("PostgreSQL: loading and timing…");
    results.push(await benchPostgres(options.postgresUrl, rows, all));
  }
  const figures = table(results);
  console.log(`\n${figures}\n`);
  for (const r of results) console.log(`${r.name}: loaded in ${r.loadSeconds.toFixed(1)} s`);

  const threeLetter = results.map((r) => ({
    name: r.name,
    p95: r.figures.find((f) => f.kind === "3-letter name term")?.p95 ?? Infinity,
  }));
  const verdict = threeLetter
    .map(
      (r) =>
        `${r.name}: p95 ${r.p95.toFixed(1)} ms for a three-letter term (${r.p95 < 50 ? "meets" : "MISSES"} the 50 ms target)`,
    )
    .join("; ");
  console.log(verdict);

  if (options.write) {
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    writeBenchSection(
      "search",
      [
        `Measured ${now.toISOString().slice(0, 10)} by \`npm run bench\` on ${cpu} (${os.cpus().length} cores), Node ${process.version};`,
        `load average at the start ${loadAtStart} and at the end ${loadAverage()} (other work on the machine inflates the tail figures);`,
        `${options.rows.toLocaleString("en")} generated submissions, page 1 of 25 rows sorted by name unless stated, with the total count;`,
        `every query through \`searchSubmissions\` (the list route's service function), 5 rounds. Whole run: ${((performance.now() - benchStarted) / 1000).toFixed(0)} s.`,
        "",
        figures,
        "",
        results
          .map(
            (r) =>
              `- ${r.name}: ${options.rows.toLocaleString("en")} rows loaded (with the search index) in ${r.loadSeconds.toFixed(1)} s.`,
          )
          .join("\n"),
        `- ${verdict}.`,
      ].join("\n"),
    );
    console.log("Wrote the search section of docs/benchmarks.md.");
  }
}

const argv = process.argv.slice(2);
const parts: Record<string, (rest: string[]) => Promise<void>> = {
  upload: benchUpload,
  load: benchLoad,
  api: benchApi,
  bulk: benchBulk,
  render: benchRender,
};
const part = argv[0] === undefined ? undefined : parts[argv[0]];
const run = part ? part(argv.slice(1)) : main();
run.catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

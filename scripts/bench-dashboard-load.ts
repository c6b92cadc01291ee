// The dashboard alone at scale: loads N generated submissions (scripts/bench-data.ts's loader)
// into a fresh SQLite file and/or PostgreSQL database, adds the bench examinations, times every
// figure and the whole service call (timeDashboard), counts the queries the service call sends
// and prints each one's plan (EXPLAIN ANALYZE on PostgreSQL, EXPLAIN QUERY PLAN and a timing on
// SQLite). Faster to iterate on than `npm run bench -- search`, which times the list first.
//
//   npx tsx scripts/bench-dashboard-load.ts --size 200000 [--db sqlite|postgres|both]
//     [--rounds 20] [--postgres URL] [--keep]
//   npx tsx scripts/bench-dashboard-load.ts --reuse sqlite:PATH|postgres://…/DB   (no load)
//
// --keep leaves the loaded database in place (its address is printed) for --reuse.
// addBenchExaminations leaves fresh statistics behind it (VACUUM ANALYZE, ANALYZE on SQLite).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from "kysely";
import pg from "pg";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import type { Database } from "../server/db/schema.js";
import { dashboardStats } from "../server/dashboard/service.js";
import { addBenchExaminations, timeDashboard } from "./bench-dashboard.js";
import { generateSubmissions, loadSubmissions } from "./bench-data.js";

const REPORT_OVERDUE_DAYS = 30;

interface Options {
  size: number;
  rounds: number;
  databases: ("sqlite" | "postgres")[];
  postgresUrl: string;
  keep: boolean;
  reuse: string | null;
}

function readOptions(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const size = Number(value("--size") ?? 200_000);
  if (!Number.isInteger(size) || size < 1000)
    throw new Error("--size must be a whole number ≥ 1000");
  const rounds = Number(value("--rounds") ?? 20);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error("--rounds must be a whole number ≥ 1");
  const which = value("--db") ?? "both";
  if (!["sqlite", "postgres", "both"].includes(which)) {
    throw new Error("--db must be sqlite, postgres or both");
  }
  return {
    size,
    rounds,
    databases: which === "both" ? ["sqlite", "postgres"] : [which as "sqlite" | "postgres"],
    postgresUrl:
      value("--postgres") ?? readTestEnv().databaseUrl ?? "postgres://postgres@127.0.0.1:5432/test",
    keep: argv.includes("--keep"),
    reuse: value("--reuse") ?? null,
  };
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");
}

/**
 * The service call's queries, counted and each one explained with its real parameters. They are
 * recorded by Kysely's log on a second handle to the same database (a plugin sees subqueries and
 * the builders that share one query id, a log sees only what is sent).
 */
async function explainServiceCall(address: Address, now: Date): Promise<void> {
  const sent: CompiledQuery[] = [];
  const log = (event: LogEvent) => {
    if (event.level === "query") sent.push(event.query);
  };
  const logged =
    address.kind === "postgres"
      ? new Kysely<Database>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: address.url }) }),
          log,
        })
      : new Kysely<Database>({
          dialect: new SqliteDialect({ database: new SQLite(address.path) }),
          log,
        });
  try {
    await dashboardStats(logged, { reportOverdueDays: REPORT_OVERDUE_DAYS }, now);
    // A copy: the explanations below are logged too.
    const queries = [...sent];
    console.log(`\nThe service call sent ${queries.length} queries:`);
    for (const [i, query] of queries.entries()) {
      console.log(`\n#${i + 1} ${query.sql}\n   parameters: ${JSON.stringify(query.parameters)}`);
      if (address.kind === "postgres") {
        const plan = await logged.executeQuery<{ "QUERY PLAN": string }>(
          CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]),
        );
        for (const row of plan.rows) console.log(`   ${row["QUERY PLAN"]}`);
      } else {
        const plan = await logged.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        for (const row of plan.rows) console.log(`   ${row.detail}`);
        const started = performance.now();
        await logged.executeQuery(CompiledQuery.raw(query.sql, [...query.parameters]));
        console.log(`   alone: ${(performance.now() - started).toFixed(2)} ms`);
      }
    }
  } finally {
    await logged.destroy();
  }
}

type Address = { kind: "postgres"; url: string } | { kind: "sqlite"; path: string };

async function measure(
  db: Db,
  address: Address,
  name: string,
  options: Options,
  now: Date,
): Promise<void> {
  // A reused database gets the migrations added since it was loaded (such as a new index).
  await migrateToLatest(db);
  if (options.reuse === null) {
    console.log(
      `${name}: loading ${options.size.toLocaleString("en")} rows (load ${loadAverage()})`,
    );
    const rows = generateSubmissions(options.size, now);
    const started = performance.now();
    await loadSubmissions(db, rows, (phase, seconds) => {
      console.log(`  ${phase} in ${seconds.toFixed(1)} s`);
    });
    const examinations = await addBenchExaminations(db, now);
    console.log(
      `  loaded with ${examinations.toLocaleString("en")} examinations in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const sizes = await sql<{
    submissions: number;
    examinations: number;
    waits: number;
    counts: number;
    totals: number;
  }>`
    select (select count(*) from submissions) as submissions,
      (select count(*) from examinations) as examinations,
      (select count(*) from examiner_waits) as waits,
      (select count(*) from dashboard_counts) as counts,
      (select count(*) from examiner_wait_totals) as totals`.execute(db);
  const size = sizes.rows[0];
  console.log(
    `${name}: ${Number(size?.submissions).toLocaleString("en")} submissions, ${Number(size?.examinations).toLocaleString("en")} examinations, ${Number(size?.waits).toLocaleString("en")} examiner_waits rows, ${Number(size?.counts)} dashboard_counts rows, ${Number(size?.totals)} examiner_wait_totals rows`,
  );
  const before = loadAverage();
  const figures = await timeDashboard(db, now, options.rounds);
  console.log(
    `\n${name}, ${options.rounds} rounds, load average ${before} before, ${loadAverage()} after`,
  );
  console.log("| Figure | Median (ms) | p95 (ms) | Max (ms) |\n|---|---:|---:|---:|");
  for (const f of figures) {
    console.log(
      `| ${f.kind} | ${f.median.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(1)} |`,
    );
  }
  await explainServiceCall(address, now);
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  // The same "now" as the bench data's, so overdue dates fall where the generator put them.
  const now = new Date();
  if (options.reuse !== null) {
    const reuse = options.reuse;
    const address: Address = reuse.startsWith("sqlite:")
      ? { kind: "sqlite", path: reuse.slice("sqlite:".length) }
      : { kind: "postgres", url: reuse };
    const db = createDatabase(address);
    try {
      await measure(db, address, reuse, options, now);
    } finally {
      await db.destroy();
    }
    return;
  }
  for (const kind of options.databases) {
    if (kind === "sqlite") {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-dashboard-"));
      const file = path.join(dir, "bench.sqlite");
      const db = createDatabase({ kind: "sqlite", path: file });
      try {
        const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
        await measure(
          db,
          { kind: "sqlite", path: file },
          `SQLite ${version.rows[0]?.v ?? "?"}`,
          options,
          now,
        );
      } finally {
        await db.destroy();
        if (options.keep) console.log(`kept: --reuse sqlite:${file}`);
        else fs.rmSync(dir, { recursive: true, force: true });
      }
    } else {
      const name = `ets_dashbench_${process.pid}`;
      const admin = new pg.Client({ connectionString: options.postgresUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(options.postgresUrl);
      url.pathname = `/${name}`;
      const db = createDatabase({ kind: "postgres", url: url.toString() });
      try {
        const version = await sql<{ server_version: string }>`show server_version`.execute(db);
        await measure(
          db,
          { kind: "postgres", url: url.toString() },
          `PostgreSQL ${version.rows[0]?.server_version ?? "?"}`,
          options,
          now,
        );
      } finally {
        await db.destroy();
        if (options.keep) console.log(`kept: --reuse ${url.toString()}`);
        else await dropWhenClosed(admin, name);
        await admin.end();
      }
    }
  }
}

/** Drops the database once the pool's connections have gone (forcing it would cut them). */
async function dropWhenClosed(admin: pg.Client, name: string): Promise<void> {
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

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

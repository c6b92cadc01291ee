// `npm run bench -- reports-pdf`: the dean's PDF for a year of one programme (issue 22: <= 2 s),
// made as the route makes it (reportDocumentData: the figures with every examiner page and the
// late list, then renderDeanPdf read to its last byte), on a fresh SQLite file and a fresh
// PostgreSQL database. The history is written by the Reports tests' generator
// (testing/report-history.ts) through the repository functions the application writes with, so
// the rollups are kept as in production. Options: --records N (default 20,000, over three
// programmes and two years), --postgres-records N (default as --records), --examiners N (300), --rounds N (5), --postgres URL (default
// TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test), --sqlite-only, --no-write.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { sql } from "kysely";
import { reportQuerySchema } from "../common/reports.js";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { reportDocumentData } from "../server/reports/export-data.js";
import { renderDeanPdf } from "../server/reports/pdf.js";
import { generateRecord, insertExaminers, seeded } from "../testing/report-history.js";
import { writeBenchSection } from "./bench-report.js";

const TARGET_MS = 2_000;
const PROGRAMME = "MPhil Economics";
const PROGRAMMES = [PROGRAMME, "MSc Computer Science", "PhD Chemistry"];
const SETTINGS = { reportOverdueDays: 60 };

interface Options {
  records: number;
  /** Records on PostgreSQL, whose per-record writes are far slower on a shared machine. */
  postgresRecords: number;
  examiners: number;
  rounds: number;
  postgresUrl: string | null;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const postgres =
    value("--postgres") ?? readTestEnv().databaseUrl ?? "postgres://postgres@127.0.0.1:5432/test";
  return {
    records: Number(value("--records") ?? 20_000),
    postgresRecords: Number(value("--postgres-records") ?? value("--records") ?? 20_000),
    examiners: Number(value("--examiners") ?? 300),
    rounds: Number(value("--rounds") ?? 5),
    postgresUrl: argv.includes("--sqlite-only") ? null : postgres,
    write: !argv.includes("--no-write"),
  };
}

interface Result {
  database: string;
  records: number;
  loadSeconds: number;
  timings: number[];
  bytes: number;
  pages: number;
  examiners: number;
  late: number;
}

async function load(db: Db, options: Options, now: number): Promise<number> {
  const started = performance.now();
  await migrateToLatest(db);
  const examinerIds = await insertExaminers(db, options.examiners);
  const rng = seeded(22);
  const start = now - 2 * 365 * 86_400_000;
  for (let i = 0; i < options.records; i += 1) {
    await generateRecord(db, rng, examinerIds, {
      start,
      now,
      programme: PROGRAMMES[i % PROGRAMMES.length],
    });
    if ((i + 1) % 5_000 === 0) console.log(`    ${(i + 1).toLocaleString("en")} records`);
  }
  return (performance.now() - started) / 1000;
}

/** What `deanPdfRounds` measured: every timed round's milliseconds, and the last PDF's shape. */
export interface DeanPdfRounds {
  timings: number[];
  bytes: number;
  pages: number;
  examiners: number;
  late: number;
  lateTotal: number;
}

/**
 * The dean's PDF of one programme for the last twelve months (the page's default period), made as
 * GET /admin/reports/dean.pdf makes it: reportDocumentData, then renderDeanPdf read to its last
 * byte; `rounds` timed rounds after one warm-up. Also timed over bench-reports.ts's 1M data.
 */
export async function deanPdfRounds(
  db: Db,
  programme: string,
  now: Date,
  rounds: number,
): Promise<DeanPdfRounds> {
  const query = reportQuerySchema.parse({ programme });
  const result: DeanPdfRounds = {
    timings: [],
    bytes: 0,
    pages: 0,
    examiners: 0,
    late: 0,
    lateTotal: 0,
  };
  for (let round = 0; round <= rounds; round += 1) {
    const started = performance.now();
    const data = await reportDocumentData(db, query, now, SETTINGS);
    const doc = renderDeanPdf({
      programme: data.figures.filters.programme,
      cohort: data.figures.filters.cohort,
      period: { from: data.figures.current.from, to: data.figures.current.to },
      generatedAt: now,
      headline: data.headline,
      tables: data.tables,
      late: data.late,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of doc) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    const ms = performance.now() - started;
    // Round 0 warms the statement caches and pdfkit's font metrics; it is not counted.
    if (round > 0) result.timings.push(ms);
    result.bytes = pdf.length;
    // Page objects' dictionaries are not compressed by pdfkit (only content streams are).
    result.pages = pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
    result.examiners = data.tables.find((t) => t.id === "examiners")?.rows.length ?? 0;
    result.late = data.late.rows.length;
    result.lateTotal = data.figures.late.total;
  }
  return result;
}

async function measure(db: Db, database: string, options: Options): Promise<Result> {
  const now = new Date();
  console.log(`  ${database}: writing ${options.records.toLocaleString("en")} records' histories`);
  const loadSeconds = await load(db, options, now.getTime());
  // The last twelve months of one programme, as the page's default period.
  const { timings, bytes, pages, examiners, late } = await deanPdfRounds(
    db,
    PROGRAMME,
    now,
    options.rounds,
  );
  return {
    database,
    records: options.records,
    loadSeconds,
    timings,
    bytes,
    pages,
    examiners,
    late,
  };
}

async function onSqlite(options: Options): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-pdf-"));
  const db = createDatabase({ kind: "sqlite", path: path.join(dir, "bench.sqlite") });
  try {
    const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    return await measure(db, `SQLite ${version.rows[0]?.v ?? "?"}`, options);
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(serverUrl: string, options: Options): Promise<Result> {
  const name = `ets_bench_pdf_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ kind: "postgres", url: url.toString() });
  try {
    const version = await sql<{ server_version: string }>`show server_version`.execute(db);
    const v = (version.rows[0]?.server_version ?? "?").replace(/ \(.*\)$/, "");
    return await measure(db, `PostgreSQL ${v}`, options);
  } finally {
    await db.destroy();
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  }
}

const fmt = (ms: number) => `${Math.round(ms).toLocaleString("en")} ms`;

export async function benchReportsPdf(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const results = [await onSqlite(options)];
  if (options.postgresUrl) {
    results.push(
      await onPostgres(options.postgresUrl, { ...options, records: options.postgresRecords }),
    );
  }
  const lines = results.map((r) => {
    const sorted = [...r.timings].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const worst = sorted[sorted.length - 1] ?? 0;
    const verdict = worst <= TARGET_MS ? "meets" : "MISSES";
    return `| ${r.database} | ${fmt(median)} | ${fmt(worst)} | ${verdict} | ${r.records.toLocaleString("en")} | ${r.pages} | ${(r.bytes / 1024).toFixed(0)} kB | ${r.examiners} | ${r.late} | ${Math.round(r.loadSeconds)} s |`;
  });
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const body = [
    "## The dean's PDF: a year of one programme",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench -- reports-pdf --records ${options.records} --postgres-records ${options.postgresRecords} --examiners ${options.examiners}\` on ${cpu} (${os.cpus().length} cores), Node ${process.version}: records with their generated histories (the count per database in the table; a third in ${PROGRAMME}, two years), ${options.examiners} examiners; the PDF of ${PROGRAMME} for the last twelve months, made as the route makes it (every figure, every examiner page, the late list, the PDF read to its last byte); ${options.rounds} rounds after one warm-up. Target: <= ${TARGET_MS.toLocaleString("en")} ms.`,
    "",
    "| Database | Median | Slowest | Target | Records | Pages | Size | Examiners listed | Late listed | Load |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n");
  console.log(body);
  if (options.write) writeBenchSection("reports-pdf", body);
}

// The Reports figures timed at scale (issue 22), for `npm run bench -- reports`: submissions
// bulk-loaded (scripts/bench-data.ts), each with a history that leads to the stage it stands in
// (a create event, the checklist, every stage move, a few moved back; an import for some), the
// examinations and outcomes of those with the examiners, then the rollups computed from that
// history (rebuildReportRollups, as migrations 019 and 022 do) and every query of the Reports page
// timed through reportFigures, the route's service call. In the same run, over the same data, the
// dean's PDF for the last twelve months of one programme is timed as the route makes it
// (reportDocumentData, then renderDeanPdf read to its last byte): the reports-pdf bench writes its
// histories record by record and cannot reach a million.
//
//   npm run bench -- reports [--size 1000000] [--rounds 20] [--pdf-rounds 5]
//                            [--sqlite-only | --postgres-only] [--postgres URL] [--no-write]
//                            [--keep DIR] [--load-only]
//
// --keep DIR keeps the loaded data for another run: the SQLite file DIR/bench-reports-SIZE.sqlite
// and the PostgreSQL database ets_bench_reports_SIZE (dropped by hand). A run that finds them
// loaded (as many submissions as --size, rollups written) skips the load, brings them to the
// latest migration (timed: a new migration's fill at this size) and times again. --load-only
// loads (or brings up to date) and stops, so the load can run outside the bench lock and the
// timed run inside it:
//   npm run bench -- reports --keep /var/tmp/ets --load-only
//   flock /tmp/ets-bench.lock npm run bench -- reports --keep /var/tmp/ets
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import pg from "pg";
import { reportQuerySchema, type ReportQueryInput } from "../common/reports.js";
import { SGS_STAGES } from "../common/workflow.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { dialectOf } from "../server/db/dialect.js";
import { fillOpenRollups, rebuildJourneyRollups } from "../server/db/report-rollups.js";
import type { Database } from "../server/db/schema.js";
import { reportFigures } from "../server/reports/service.js";
import { generateSubmissions, loadSubmissions, mulberry32, pick } from "./bench-data.js";
import { deanPdfRounds } from "./bench-reports-pdf.js";
import type { Insertable } from "kysely";

interface Options {
  size: number;
  rounds: number;
  sqlite: boolean;
  postgresUrl: string | null;
  write: boolean;
  pdfRounds: number;
  keep: string | null;
  loadOnly: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const size = Number(value("--size") ?? 1_000_000);
  if (!Number.isInteger(size) || size < 1000)
    throw new Error("--size must be a whole number ≥ 1000");
  const rounds = Number(value("--rounds") ?? 20);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error("--rounds must be a whole number ≥ 1");
  return {
    size,
    rounds,
    sqlite: !argv.includes("--postgres-only"),
    postgresUrl: argv.includes("--sqlite-only")
      ? null
      : (value("--postgres") ?? "postgres://postgres@127.0.0.1:5432/test"),
    write: !argv.includes("--no-write"),
    pdfRounds: Number(value("--pdf-rounds") ?? 5),
    keep: value("--keep") ?? null,
    loadOnly: argv.includes("--load-only"),
  };
}

const DAY = 86_400_000;
const NOW = new Date("2026-01-15T12:00:00.000Z");
const DOCS = [
  "thesis",
  "turnitinReport",
  "supervisorForm",
  "statementOfResult",
  "financialClearance",
];
const DECISIONS = ["pass", "minor_corrections", "major_corrections", "resubmit", "fail"] as const;

type Event = Insertable<Database["submission_events"]>;
type Examination = Insertable<Database["examinations"]>;
type Outcome = Insertable<Database["examination_outcomes"]>;

async function insertChunks<T extends keyof Database>(
  db: Db,
  table: T,
  rows: Insertable<Database[T]>[],
  size: number,
): Promise<void> {
  for (let start = 0; start < rows.length; start += size) {
    // Kysely's insert types are per table; the rows were made for this one.
    await db
      .insertInto(table)
      .values(rows.slice(start, start + size) as never)
      .execute();
  }
}

/** The histories, examinations and outcomes of the loaded submissions (ids 1..n in load order). */
async function loadHistories(db: Db, size: number, log: (phase: string) => void): Promise<number> {
  const random = mulberry32(0x22);
  const examinerIds: number[] = [];
  const firstNames = ["Kofi", "Ama", "Kwame", "Akosua", "Yaw", "Efua", "Kwesi", "Abena"];
  const surnames = ["Mensah", "Owusu", "Boateng", "Asante", "Osei", "Agyeman", "Darko", "Appiah"];
  for (let i = 0; i < 400; i += 1) {
    const at = "2022-01-01T00:00:00.000Z";
    const row = await db
      .insertInto("examiners")
      .values({
        name: `Dr. ${pick(random, firstNames)} ${pick(random, surnames)}`,
        email: `examiner${i}@uni.test`,
        institution: pick(random, ["KNUST", "University of Ghana", "UCC", "UDS"]),
        kind: i % 2 === 0 ? "internal" : "external",
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    examinerIds.push(row.id);
  }
  const postgres = dialectOf(db) === "postgres";
  const chunk = postgres ? 5000 : 1000;
  let events = 0;
  const batch = 20_000;
  for (let first = 1; first <= size; first += batch) {
    const last = Math.min(size, first + batch - 1);
    const subs = await db
      .selectFrom("submissions")
      .select([
        "id",
        "created_at",
        "sgs_stage",
        "internal_examiner",
        "external_examiner",
        "index_number",
      ])
      .where("id", ">=", first)
      .where("id", "<=", last)
      .execute();
    const ev: Event[] = [];
    const xs: Examination[] = [];
    const outs: Outcome[] = [];
    for (const s of subs) {
      const known = random() < 0.85;
      let clock = Date.parse(s.created_at);
      const at = () => new Date(clock).toISOString();
      const step = (max: number) => {
        clock = Math.min(NOW.getTime() - 1000, clock + Math.floor(random() * max * DAY));
      };
      const add = (field: string, from: string | null, to: string | null, kind: string) =>
        ev.push({
          submission_id: s.id,
          actor_user_id: null,
          at: at(),
          field,
          from_value: from,
          to_value: to,
          kind,
          confirmed_out_of_order: 0,
        });
      add("submission", null, s.index_number, known ? "create" : "import");
      const target = s.sgs_stage === null ? -1 : SGS_STAGES.indexOf(s.sgs_stage as never);
      if (known) {
        for (const item of DOCS) {
          if (target < 0 && random() < 0.4) break;
          step(4);
          add(`documents.${item}`, null, "submitted", "edit");
        }
        let stage = -1;
        let back = random() < 0.1;
        while (stage < target) {
          step(30);
          if (back && stage >= 1) {
            add("sgsStage", SGS_STAGES[stage] ?? null, SGS_STAGES[stage - 1] ?? null, "reverse");
            stage -= 1;
            back = false;
          } else {
            add("sgsStage", SGS_STAGES[stage] ?? null, SGS_STAGES[stage + 1] ?? null, "next");
            stage += 1;
          }
        }
      }
      if (s.sgs_stage !== "sent_to_examiners") continue;
      let reports = 0;
      let lastReport = clock;
      for (const role of ["internal", "external"] as const) {
        const state = role === "internal" ? s.internal_examiner : s.external_examiner;
        if (state === null) continue;
        step(5);
        const sentAt = at();
        const received = state === "received" || state === "report_submitted";
        const receivedAt = received ? new Date(clock + Math.floor(random() * 10 * DAY)) : null;
        const reportAt =
          state === "report_submitted" && receivedAt
            ? new Date(receivedAt.getTime() + Math.floor(random() * 70 * DAY))
            : null;
        const clamp = (d: Date | null) =>
          d === null ? null : new Date(Math.min(d.getTime(), NOW.getTime() - 1000)).toISOString();
        if (reportAt) {
          reports += 1;
          lastReport = Math.max(lastReport, Math.min(reportAt.getTime(), NOW.getTime() - 1000));
        }
        xs.push({
          submission_id: s.id,
          examiner_id: pick(random, examinerIds),
          role,
          state: reportAt ? "report_submitted" : received ? "received" : "sent",
          nominated_by: null,
          nominated_at: sentAt,
          sent_at: sentAt,
          due_on: new Date(Date.parse(sentAt) + 42 * DAY).toISOString().slice(0, 10),
          received_at: clamp(receivedAt),
          report_uploaded_at: clamp(reportAt),
          created_at: sentAt,
          updated_at: sentAt,
        });
        add(`examination.${role}`, "nominated", "sent", "send");
      }
      if (reports === 2 && random() < 0.8) {
        clock = lastReport;
        step(20);
        const decision = pick(random, DECISIONS);
        const releasedAt = at();
        const corrections = decision === "minor_corrections" || decision === "major_corrections";
        step(60);
        const approved = corrections && random() < 0.7 ? at() : null;
        outs.push({
          submission_id: s.id,
          decision,
          corrections: null,
          released_by: null,
          released_at: releasedAt,
          thesis_version_at_release: null,
          corrections_approved_at: approved,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      await insertChunks(trx as unknown as Db, "submission_events", ev, chunk);
      await insertChunks(trx as unknown as Db, "examinations", xs, Math.floor(chunk / 2));
      await insertChunks(trx as unknown as Db, "examination_outcomes", outs, chunk);
    });
    events += ev.length;
    if (last % 200_000 === 0 || last === size) log(`history to ${last}`);
  }
  return events;
}

interface Figure {
  database: string;
  query: string;
  runs: number;
  median: number;
  p95: number;
  max: number;
}

const QUERIES: { name: string; query: ReportQueryInput }[] = [
  { name: "every record, last 12 months", query: {} },
  {
    name: "every record, a year with the year before",
    query: { from: "2025-01", to: "2025-12", compare: "true" },
  },
  {
    name: "one programme, a year",
    query: { programme: "PROGRAMME", from: "2025-01", to: "2025-12" },
  },
  { name: "one cohort, three years", query: { cohort: "2024", from: "2023-01", to: "2025-12" } },
  {
    name: "one programme and cohort, with the year before, examiners page 3",
    query: { programme: "PROGRAMME", cohort: "2024", compare: "true", examinerPage: "3" },
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Whether a kept database holds a whole load of this size (its rollups are written last). */
async function loadedBefore(db: Db, size: number): Promise<boolean> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === "report_rollups")) return false;
  const [subs, rollups] = await Promise.all([
    db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db.selectFrom("report_rollups").select("n").limit(1).execute(),
  ]);
  return Number(subs.n) === size && rollups.length > 0;
}

interface PdfTiming {
  database: string;
  median: number;
  slowest: number;
  pages: number;
  bytes: number;
  examiners: number;
  late: number;
  lateTotal: number;
}

async function measure(
  db: Db,
  name: string,
  options: Options,
): Promise<{ figures: Figure[]; setup: string; pdf: PdfTiming | null }> {
  const phases: string[] = [];
  let last = performance.now();
  const log = (phase: string) => {
    const now = performance.now();
    phases.push(`${phase} ${((now - last) / 1000).toFixed(0)} s`);
    console.log(`  ${name}: ${phase} (${((now - last) / 1000).toFixed(1)} s)`);
    last = now;
  };
  const reuse = options.keep !== null && (await loadedBefore(db, options.size));
  await migrateToLatest(db);
  if (reuse) {
    log("kept data brought to the latest migration");
  } else {
    const rows = generateSubmissions(options.size, NOW);
    await loadSubmissions(db, rows);
    log("submissions");
    const events = await loadHistories(db, options.size, log);
    log(`${events} events`);
    // Statistics before the rebuild reads the history by record, as a database in service has them.
    if (dialectOf(db) === "postgres") await sql`vacuum analyze`.execute(db);
    else await sql`analyze`.execute(db);
    log("analyze");
    // rebuildReportRollups in its two parts, timed apart: the journeys (migration 019) and the
    // open reports (migration 022's set-based fill).
    await rebuildJourneyRollups(db);
    log("journey rollups rebuilt");
    await fillOpenRollups(db);
    log("open reports filled");
  }
  // Statistics and (PostgreSQL) a visibility map for every table the load wrote, as after any bulk
  // load (scripts/bench-data.ts does the same for the submissions).
  if (dialectOf(db) === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  const { n } = await db
    .selectFrom("report_rollups")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  log(`${Number(n)} rollup rows`);
  if (options.loadOnly) return { figures: [], setup: `${name}: ${phases.join(", ")}`, pdf: null };
  // The first record's programme: bench-data's first row (ids follow the load order).
  const first = await db
    .selectFrom("submissions")
    .select("programme")
    .orderBy("id")
    .limit(1)
    .executeTakeFirstOrThrow();
  const programme = first.programme;
  const figures: Figure[] = [];
  for (const { name: query, query: input } of QUERIES) {
    const parsed = reportQuerySchema.parse(
      Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, v === "PROGRAMME" ? programme : v]),
      ),
    );
    await reportFigures(db, parsed, NOW, SETTINGS);
    const times: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const started = performance.now();
      await reportFigures(db, parsed, NOW, SETTINGS);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    figures.push({
      database: name,
      query,
      runs: times.length,
      median: percentile(times, 50),
      p95: percentile(times, 95),
      max: times[times.length - 1] ?? 0,
    });
    console.log(`  ${name}: ${query}: p95 ${percentile(times, 95).toFixed(1)} ms`);
  }
  const pdf = await timePdf(db, name, programme, options.pdfRounds);
  return { figures, setup: `${name}: ${phases.join(", ")}`, pdf };
}

const SETTINGS = { reportOverdueDays: 60 };

/**
 * The dean's PDF of one programme for the last twelve months (the route's default period), made
 * as GET /admin/reports/dean.pdf makes it: reportDocumentData, renderDeanPdf read to its last byte.
 */
async function timePdf(
  db: Db,
  name: string,
  programme: string,
  rounds: number,
): Promise<PdfTiming> {
  const { timings, pages, bytes, examiners, late, lateTotal } = await deanPdfRounds(
    db,
    programme,
    NOW,
    rounds,
  );
  timings.sort((a, b) => a - b);
  const result = {
    database: name,
    median: percentile(timings, 50),
    slowest: timings[timings.length - 1] ?? 0,
    pages,
    bytes,
    examiners,
    late,
    lateTotal,
  };
  console.log(
    `  ${name}: dean's PDF: median ${result.median.toFixed(0)} ms, slowest ${result.slowest.toFixed(0)} ms`,
  );
  return result;
}

export async function benchReports(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const figures: Figure[] = [];
  const setups: string[] = [];
  const pdfs: PdfTiming[] = [];
  const keep = (run: { figures: Figure[]; setup: string; pdf: PdfTiming | null }) => {
    figures.push(...run.figures);
    setups.push(run.setup);
    if (run.pdf) pdfs.push(run.pdf);
  };
  if (options.sqlite) {
    const dir = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-reports-"));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(
      dir,
      options.keep ? `bench-reports-${options.size}.sqlite` : "bench.sqlite",
    );
    const db = createDatabase({ kind: "sqlite", path: file });
    try {
      const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
      keep(await measure(db, `SQLite ${version.rows[0]?.v ?? "?"}`, options));
    } finally {
      await db.destroy();
      if (options.keep === null) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (options.postgresUrl !== null) {
    const name = options.keep
      ? `ets_bench_reports_${options.size}`
      : `ets_bench_reports_${process.pid}`;
    const admin = new pg.Client({ connectionString: options.postgresUrl });
    await admin.connect();
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (options.keep === null || exists.rowCount === 0) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ kind: "postgres", url: url.toString() });
    try {
      const version = await sql<{ server_version: string }>`show server_version`.execute(db);
      const v = (version.rows[0]?.server_version ?? "?").replace(/ \(.*\)$/, "");
      keep(await measure(db, `PostgreSQL ${v}`, options));
    } finally {
      await db.destroy();
      for (let attempt = 0; options.keep === null && attempt < 50; attempt += 1) {
        try {
          await admin.query(`drop database if exists ${name}`);
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await admin.end();
    }
  }
  const lines = [
    "| Database | Query | Runs | Median (ms) | p95 (ms) | Max (ms) | Target (p95) |",
    "|---|---|---:|---:|---:|---:|---|",
    ...figures.map(
      (f) =>
        `| ${f.database} | ${f.query} | ${f.runs} | ${f.median.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(1)} | ≤ 100 ms ${f.p95 <= 100 ? "met" : "MISSED"} |`,
    ),
    "",
    "| Database | Dean's PDF, one programme, last 12 months | Median (ms) | Slowest (ms) | Pages | Size | Examiners listed | Late listed (of) | Target (≤ 2 s) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ...pdfs.map(
      (p) =>
        `| ${p.database} | ${options.pdfRounds} rounds after a warm-up | ${p.median.toFixed(0)} | ${p.slowest.toFixed(0)} | ${p.pages} | ${(p.bytes / 1024).toFixed(0)} kB | ${p.examiners} | ${p.late} (${p.lateTotal}) | ${p.slowest <= 2000 ? "met" : "MISSED"} |`,
    ),
  ];
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
  console.log(`\n${lines.join("\n")}\n\n${setups.join("\n")}\nLoad average at the end: ${load}`);
  if (options.write && !options.loadOnly) {
    fs.writeFileSync(
      path.join(os.tmpdir(), "ets-bench-reports.md"),
      `${lines.join("\n")}\n\n${setups.join("\n")}\nLoad average at the end: ${load}\n`,
    );
    console.log(
      `Wrote ${path.join(os.tmpdir(), "ets-bench-reports.md")} (copy it into docs/benchmarks.md).`,
    );
  }
}

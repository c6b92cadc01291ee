// The Reports figures timed at scale (issue 22), for `npm run bench -- reports`: submissions
// bulk-loaded (scripts/bench-data.ts), each with a history that leads to the stage it stands in
// (a create event, the checklist, every stage move, a few moved back; an import for some), the
// examinations and outcomes of those with the examiners, then the rollups computed from that
// history (rebuildReportRollups, as migration 019 does) and every query of the Reports page
// timed through reportFigures, the route's service call.
//
//   npm run bench -- reports [--size 1000000] [--rounds 20] [--sqlite-only | --postgres-only]
//                            [--postgres URL] [--no-write]
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
import { rebuildReportRollups } from "../server/db/report-rollups.js";
import type { Database } from "../server/db/schema.js";
import { reportFigures } from "../server/reports/service.js";
import { generateSubmissions, loadSubmissions, mulberry32, pick } from "./bench-data.js";
import type { Insertable } from "kysely";

interface Options {
  size: number;
  rounds: number;
  sqlite: boolean;
  postgresUrl: string | null;
  write: boolean;
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

async function measure(
  db: Db,
  name: string,
  options: Options,
): Promise<{ figures: Figure[]; setup: string }> {
  const phases: string[] = [];
  let last = performance.now();
  const log = (phase: string) => {
    const now = performance.now();
    phases.push(`${phase} ${((now - last) / 1000).toFixed(0)} s`);
    console.log(`  ${name}: ${phase} (${((now - last) / 1000).toFixed(1)} s)`);
    last = now;
  };
  await migrateToLatest(db);
  const rows = generateSubmissions(options.size, NOW);
  await loadSubmissions(db, rows);
  log("submissions");
  const events = await loadHistories(db, options.size, log);
  log(`${events} events`);
  // Statistics before the rebuild reads the history by record, as a database in service has them.
  if (dialectOf(db) === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  log("analyze");
  await rebuildReportRollups(db);
  log("rollups rebuilt");
  // Statistics and (PostgreSQL) a visibility map for every table the load wrote, as after any bulk
  // load (scripts/bench-data.ts does the same for the submissions).
  if (dialectOf(db) === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  const { n } = await db
    .selectFrom("report_rollups")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  log(`${Number(n)} rollup rows`);
  const programme = rows[0]?.fields.programme ?? "";
  const figures: Figure[] = [];
  for (const { name: query, query: input } of QUERIES) {
    const parsed = reportQuerySchema.parse(
      Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, v === "PROGRAMME" ? programme : v]),
      ),
    );
    await reportFigures(db, parsed, NOW, { reportOverdueDays: 60 });
    const times: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const started = performance.now();
      await reportFigures(db, parsed, NOW, { reportOverdueDays: 60 });
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
  return { figures, setup: `${name}: ${phases.join(", ")}` };
}

export async function benchReports(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const figures: Figure[] = [];
  const setups: string[] = [];
  if (options.sqlite) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-reports-"));
    const db = createDatabase({ kind: "sqlite", path: path.join(dir, "bench.sqlite") });
    try {
      const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
      const run = await measure(db, `SQLite ${version.rows[0]?.v ?? "?"}`, options);
      figures.push(...run.figures);
      setups.push(run.setup);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (options.postgresUrl !== null) {
    const name = `ets_bench_reports_${process.pid}`;
    const admin = new pg.Client({ connectionString: options.postgresUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ kind: "postgres", url: url.toString() });
    try {
      const version = await sql<{ server_version: string }>`show server_version`.execute(db);
      const v = (version.rows[0]?.server_version ?? "?").replace(/ \(.*\)$/, "");
      const run = await measure(db, `PostgreSQL ${v}`, options);
      figures.push(...run.figures);
      setups.push(run.setup);
    } finally {
      await db.destroy();
      for (let attempt = 0; attempt < 50; attempt += 1) {
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
  ];
  console.log(`\n${lines.join("\n")}\n\n${setups.join("\n")}`);
  if (options.write) {
    fs.writeFileSync(
      path.join(os.tmpdir(), "ets-bench-reports.md"),
      `${lines.join("\n")}\n\n${setups.join("\n")}\n`,
    );
    console.log(
      `Wrote ${path.join(os.tmpdir(), "ets-bench-reports.md")} (copy it into docs/benchmarks.md).`,
    );
  }
}

// `npm run bench -- exports`: the library's bulk export (issue 20, ADR 026) streamed in flat
// memory. For SQLite (a fresh file) and PostgreSQL (a database of its own, created and dropped
// here) it loads --size generated submissions (scripts/bench-data.ts: very common Ghanaian names),
// publishes every one of them (a publications row with keywords, supervisors, an award date spread
// over six years, the licence and a degree) with a final thesis PDF (one small stored file that
// every thesis row names, so the zip carries a file per item without filling the disk), creates an
// administrator, and starts the built server as ONE child process (`npm run build` first; stopped
// by PID). Then, sampling the server's VmRSS every 100 ms, it reads to the end
//   GET /api/admin/publication/export/saf     (DSpace Simple Archive Format zip, a file per item)
//   GET /api/admin/publication/export/marcxml (one MARCXML collection)
// over the whole award range: records per second, bytes, RSS growth. Target: RSS growth < 100 MB
// (issue 11's figure for bulk exports) whatever the size; the zip is written by our streaming
// writer (server/files/zip.ts, ADR 026 amendment), so a size past MAX_SAF_THESES is refused.
// Writes the exports section of docs/benchmarks.md (with the commit and the load average).
//
// Options: --size N (20000), --sqlite-only, --postgres URL (default TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/test), --no-write (print only).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import { builtServerEntry } from "../cluster/cluster.js";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { createStorage } from "../server/files/create-storage.js";
import { createUser } from "../testing/factories.js";
import { validPdf } from "../testing/pdf-fixtures.js";
import { generateSubmissions, loadSubmissions, mulberry32, pick } from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";

const MB = 1024 * 1024;
const TARGET_GROWTH_MB = 100;
const KEYWORDS = ["hydrology", "cocoa", "malaria", "Volta", "microfinance", "maize", "Accra"];
const SUPERVISORS = ["Kofi Mensah", "Ama Owusu", "Kwame Boateng", "Efua Asante", "Yaw Appiah"];

interface Options {
  size: number;
  sqlite: boolean;
  postgresUrl: string | null;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: "string" },
      "sqlite-only": { type: "boolean" },
      postgres: { type: "string" },
      "no-write": { type: "boolean" },
    },
  });
  const size = Number(values.size ?? 20_000);
  if (!Number.isInteger(size) || size < 1)
    throw new Error("--size must be a positive whole number");
  return {
    size,
    sqlite: true,
    postgresUrl:
      values["sqlite-only"] === true
        ? null
        : (values.postgres ??
          readTestEnv().databaseUrl ??
          "postgres://postgres@127.0.0.1:5432/test"),
    write: values["no-write"] !== true,
  };
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/** Publishes every submission, with the thesis file stored once and named by every row. */
async function publishAll(db: Db, filesDir: string): Promise<number> {
  const now = new Date().toISOString();
  const storage = createStorage({ kind: "file", root: filesDir });
  const pdf = validPdf();
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  const staged = path.join(os.tmpdir(), `bench-exports-${process.pid}.pdf`);
  fs.writeFileSync(staged, pdf);
  await storage.put(sha256, staged);
  fs.rmSync(staged, { force: true });
  await storage.close();

  const degree = await db
    .insertInto("degrees")
    .values({
      name: "Doctor of Philosophy",
      abbreviation: "PhD",
      level: "doctoral",
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("licence_versions")
    .values({
      version: 1,
      text: "I grant the school a non-exclusive licence to distribute my thesis.",
      created_by: null,
      created_at: now,
    })
    .execute();
  const ids = (await db.selectFrom("submissions").select("id").orderBy("id").execute()).map((r) =>
    Number(r.id),
  );
  const random = mulberry32(0x11b);
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    await db
      .updateTable("submissions")
      .set({
        thesis_title: "Groundwater recharge and cocoa yields in the Volta basin",
        thesis_abstract: "We measure recharge across the basin and relate it to yields. ".repeat(8),
      })
      .where("id", "in", chunk)
      .execute();
    await db
      .insertInto("publications")
      .values(
        chunk.map((id) => {
          const year = 2020 + Math.floor(random() * 6);
          const month = String(1 + Math.floor(random() * 12)).padStart(2, "0");
          return {
            submission_id: id,
            keywords: JSON.stringify([pick(random, KEYWORDS), "groundwater"]),
            language: "eng",
            degree_id: Number(degree.id),
            department: "Department of Earth Science",
            supervisors: JSON.stringify([{ name: pick(random, SUPERVISORS), orcid: null }]),
            examination_date: `${year}-${month}-01`,
            award_date: `${year}-${month}-15`,
            confirmed_at: now,
            licence_version: 1,
            licence_accepted_at: now,
            embargo_choice: random() < 0.2 ? ("1y" as const) : ("none" as const),
            embargo_until: `${year + 1}-${month}-15`,
            published_at: now,
            datestamp: now,
            created_at: now,
            updated_at: now,
          };
        }),
      )
      .execute();
    await db
      .insertInto("submission_documents")
      .values(
        chunk.map((id) => ({
          submission_id: id,
          item: "thesis",
          version: 1,
          is_current: 1,
          file_name: "thesis-final.pdf",
          size_bytes: pdf.length,
          sha256,
          page_count: 1,
          has_javascript: 0,
          has_embedded_files: 0,
          uploaded_by: null,
          uploaded_at: now,
          review_state: "accepted" as const,
          reviewed_by: null,
          reviewed_at: now,
          return_reason: null,
        })),
      )
      .execute();
  }
  return ids.length;
}

/** Reads an export to its end, counting bytes, while the server's RSS is sampled. */
function readToEnd(url: string, authorization: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { authorization } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

interface Row {
  database: string;
  format: string;
  records: number;
  seconds: number;
  bytes: number;
  before: number;
  peak: number;
}

async function measure(
  options: Options,
  database: string,
  databaseUrl: string,
  db: Db,
  dir: string,
): Promise<Row[]> {
  console.log(`${database}: loading and publishing ${options.size.toLocaleString("en")} theses…`);
  const t0 = performance.now();
  await migrateToLatest(db);
  await loadSubmissions(db, generateSubmissions(options.size, new Date()));
  console.log(`${database}: loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const records = await publishAll(db, path.join(dir, "files"));
  console.log(`${database}: ${records.toLocaleString("en")} theses published; starting the server`);
  const admin = await createUser(db, "admin", { email: "bench-exports-admin@school.test" });
  const port = await freePort();
  const child: Child = startChild({
    name: "the app server",
    command: process.execPath,
    args: [builtServerEntry()],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ETS_MAIL_TO_LOG: "on",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      STORAGE_URL: `file:${path.join(dir, "files")}`,
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
      ETS_WORKERS: "1",
    },
    cwd: process.cwd(),
    logFile: path.join(dir, "app.log"),
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];
  try {
    await waitForOk(`${base}/api/health`, child, 120_000);
    for (const format of ["saf", "marcxml"]) {
      const before = rssBytes(child.pid);
      let peak = before;
      const timer = setInterval(() => {
        try {
          peak = Math.max(peak, rssBytes(child.pid));
        } catch {
          // Gone: the read fails on its own.
        }
      }, 100);
      const started = performance.now();
      try {
        const answer = await readToEnd(
          `${base}/api/admin/publication/export/${format}?awardFrom=2000-01-01&awardTo=2099-12-31`,
          admin.bearer.authorization ?? "",
        );
        if (answer.status !== 200) throw new Error(`${format} export answered ${answer.status}`);
        const seconds = (performance.now() - started) / 1000;
        peak = Math.max(peak, rssBytes(child.pid));
        rows.push({ database, format, records, seconds, bytes: answer.bytes, before, peak });
        console.log(
          `${database} ${format}: ${records.toLocaleString("en")} theses in ${seconds.toFixed(1)} s (${Math.round(records / seconds).toLocaleString("en")}/s), ${(answer.bytes / MB).toFixed(0)} MB, RSS ${(before / MB).toFixed(0)} -> ${(peak / MB).toFixed(0)} MB (+${((peak - before) / MB).toFixed(0)} MB)`,
        );
      } finally {
        clearInterval(timer);
      }
    }
  } finally {
    await stopChild(child);
  }
  return rows;
}

export async function benchExports(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const loadBefore = os.loadavg()[0] ?? 0;
  const rows: Row[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-exports-"));
  try {
    const sqliteDir = path.join(dir, "sqlite");
    fs.mkdirSync(sqliteDir);
    const file = path.join(sqliteDir, "bench.sqlite");
    const sqliteDb = createDatabase({ kind: "sqlite", path: file });
    try {
      rows.push(...(await measure(options, "SQLite", `sqlite:${file}`, sqliteDb, sqliteDir)));
    } finally {
      await sqliteDb.destroy();
    }
    if (options.postgresUrl) {
      const name = `ets_bench_exports_${process.pid}`;
      const admin = new pg.Client({ connectionString: options.postgresUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
      const url = new URL(options.postgresUrl);
      url.pathname = `/${name}`;
      const pgDir = path.join(dir, "postgres");
      fs.mkdirSync(pgDir);
      const pgDb = createDatabase({ kind: "postgres", url: url.toString() });
      try {
        rows.push(...(await measure(options, "PostgreSQL", url.toString(), pgDb, pgDir)));
      } finally {
        await pgDb.destroy();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const lines = rows.map((r) => {
    const growth = (r.peak - r.before) / MB;
    return `| ${r.database} | ${r.format} | ${r.records.toLocaleString("en")} | ${r.seconds.toFixed(1)} s | ${Math.round(r.records / r.seconds).toLocaleString("en")} | ${(r.bytes / MB).toFixed(0)} MB | ${(r.before / MB).toFixed(0)} -> ${(r.peak / MB).toFixed(0)} MB | +${growth.toFixed(0)} MB | ${growth < TARGET_GROWTH_MB ? "met" : "NOT met"} |`;
  });
  const loadAfter = os.loadavg()[0] ?? 0;
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    // Not a checkout: the commit stays unknown.
  }
  const failed = rows.filter((r) => (r.peak - r.before) / MB >= TARGET_GROWTH_MB);
  const body = [
    "## Library exports (issue 20, ADR 026)",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench -- exports --size ${options.size}\` at commit ${commit} on ${os.cpus()[0]?.model ?? "this machine"} (${os.cpus().length} cores), Node ${process.version}, load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end: every thesis published with a PDF, the whole award range read to its end through the route, the built server as one process, its VmRSS sampled every 100 ms. Target: RSS growth < ${TARGET_GROWTH_MB} MB.`,
    "",
    "| Database | Format | Theses | Time | Theses/s | Size | RSS before -> peak | Growth | Target |",
    "|---|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n");
  console.log(`\n${body}`);
  if (options.write) writeBenchSection("exports", body);
  if (failed.length > 0) throw new Error("An export's RSS growth missed its target.");
}

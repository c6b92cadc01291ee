// `npm run bench -- bulk`: bulk data through the real routes, with the server's memory watched.
// For SQLite (a fresh file) and PostgreSQL (a database of its own, created and dropped here) it
// loads --size generated submissions (scripts/bench-data.ts), creates an administrator with a
// session, and starts the built app server as ONE child process (`node dist/server/server.js`, as
// `npm start` runs it: `npm run build` first; stopped by PID). Then, sampling the server's VmRSS from
// /proc/<pid>/status every 100 ms:
//   - GET /api/admin/export?format=csv without and with Accept-Encoding (brotli), and
//     ?format=xlsx, each read to its end: rows per second, bytes, RSS growth;
//   - POST a --import-rows CSV (an exported file's columns: 40 % rows updating existing
//     submissions, 60 % new ones) to /api/admin/import/preview, then /apply, each timed; once with
//     a few bad rows (the preview lists them, the apply is refused whole), then clean;
//   - POST a registrar-shaped XLSX (scripts/bench-workbook.ts: --import-rows rows, 14 columns, long
//     cells, Excel's shared strings; 50,000 rows unpack to about 67 MB) to the preview: issue 24's
//     target, RSS growth < 150 MB (exceljs, which read it whole before, took 3.4 s and 280 MB).
// Issue 11's targets: export >= 50,000 rows/s with RSS growth < 100 MB; the import's preview plus
// apply <= 30 s on SQLite with RSS growth < 150 MB. Writes the bulk section of docs/benchmarks.md.
//
// Options: --size N (export rows, 1000000), --import-rows N (50000), --sqlite-only,
// --postgres URL (postgres://postgres@127.0.0.1:5432/test), --no-write (print only),
// --app-root DIR (measure another checkout's server, e.g. the code before a change; it uses
// this checkout's database setup), --postgres-only, --export-only (skip the import; these two
// print only), --node-options TEXT (NODE_OPTIONS for the server, e.g. "--require a-probe.cjs";
// node refuses V8 flags such as --trace-gc there), --server-log FILE (keep the server's output
// there, one file per database: FILE.sqlite, FILE.postgres), --xlsx-only (the XLSX import alone,
// on SQLite; writes its own section of docs/benchmarks.md, bulk-xlsx), --xlsx-cold (with
// --xlsx-only: no warm-up workbook first, a fresh server; prints only).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { sql } from "kysely";
import type { Submission } from "../common/submission.js";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import { builtServerEntry } from "../cluster/cluster.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import { CSV_BOM, csvLine } from "../server/submissions/csv.js";
import { EXPORT_COLUMNS, exportRow } from "../server/submissions/spreadsheet.js";
import { createUser } from "../testing/factories.js";
import {
  generateSubmissions,
  loadSubmissions,
  mulberry32,
  type GeneratedSubmission,
} from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";
import { registrarWorkbook } from "./bench-workbook.js";

interface Options {
  size: number;
  importRows: number;
  postgresUrl: string | null;
  write: boolean;
  appRoot: string;
  sqlite: boolean;
  exportOnly: boolean;
  xlsxOnly: boolean;
  xlsxCold: boolean;
  nodeOptions: string;
  serverLog: string | null;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: "string" },
      "import-rows": { type: "string" },
      "sqlite-only": { type: "boolean" },
      postgres: { type: "string" },
      "no-write": { type: "boolean" },
      "app-root": { type: "string" },
      "postgres-only": { type: "boolean" },
      "export-only": { type: "boolean" },
      "xlsx-only": { type: "boolean" },
      "xlsx-cold": { type: "boolean" },
      "node-options": { type: "string" },
      "server-log": { type: "string" },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number, least: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < least)
      throw new Error(`--${name} must be a whole number ≥ ${least}`);
    return n;
  };
  return {
    size: whole("size", values.size, 1_000_000, 1000),
    importRows: whole("import-rows", values["import-rows"], 50_000, 100),
    postgresUrl:
      values["sqlite-only"] === true || values["xlsx-only"] === true
        ? null
        : (values.postgres ?? "postgres://postgres@127.0.0.1:5432/test"),
    // A partial run (no import, or one database) never replaces the full figures.
    write:
      values["no-write"] !== true &&
      values["xlsx-cold"] !== true &&
      values["export-only"] !== true &&
      values["postgres-only"] !== true,
    appRoot: path.resolve(values["app-root"] ?? resolveFromRoot()),
    sqlite: values["postgres-only"] !== true,
    exportOnly: values["export-only"] === true,
    xlsxOnly: values["xlsx-only"] === true,
    xlsxCold: values["xlsx-cold"] === true,
    nodeOptions: values["node-options"] ?? "",
    serverLog: values["server-log"] === undefined ? null : path.resolve(values["server-log"]),
  };
}

// ---------------------------------------------------------------------------------------------
// Memory of the server process

const MB = 1024 * 1024;

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/** Samples the child's RSS every 100 ms while `work` runs: its RSS before, and the peak. */
async function watched<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; before: number; peak: number }> {
  const before = rssBytes(pid);
  let peak = before;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // The process is gone; the work fails on its own.
    }
  }, 100);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, rssBytes(pid));
    return { result, seconds: (performance.now() - started) / 1000, before, peak };
  } finally {
    clearInterval(timer);
  }
}

function loadAverage(): string {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").trim().split(/\s+/).slice(0, 3).join(" ");
  } catch {
    return os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

/** GETs a URL with node:http (no decompression), reading the body to its end. */
function download(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; crlf: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      let bytes = 0;
      let crlf = 0;
      const encoding = String(response.headers["content-encoding"] ?? "identity");
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (encoding === "identity") {
          for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) crlf += 1;
        }
      });
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, bytes, crlf, encoding }),
      );
      response.once("error", reject);
    });
    request.once("error", reject);
  });
}

async function upload(
  url: string,
  authorization: string,
  file: Buffer,
  name = "records.csv",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(file)]), name);
  const response = await fetch(url, { method: "POST", headers: { authorization }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------
// The import files

/**
 * A CSV as an administrator would send back: the export's columns, 40 % of the rows updating
 * existing submissions (a new contact; a quarter of them a new stage too), 60 % new index numbers (starting with 9, which
 * the generator never uses). With `badRows`, that many rows are spread through it with a blank
 * name or an unknown stage.
 */
function importFile(existing: GeneratedSubmission[], rows: number, badRows: number): Buffer {
  const random = mulberry32(0x1b7a);
  const lines: string[] = [CSV_BOM + csvLine(EXPORT_COLUMNS)];
  const updates = Math.floor(rows * 0.4);
  const badEvery = badRows > 0 ? Math.floor(rows / badRows) : 0;
  const at = new Date().toISOString();
  for (let i = 0; i < rows; i += 1) {
    let submission: Submission;
    if (i < updates) {
      const source = existing[Math.floor(random() * existing.length)] ?? existing[0];
      if (!source) throw new Error("nothing to update");
      submission = {
        ...source.fields,
        id: i + 1,
        version: 1,
        createdAt: at,
        updatedAt: at,
        contact: `055 ${String(i).padStart(7, "0")}`,
        // A quarter of the updates move the stage too, which records a notice for the student.
        ...(i % 4 === 0
          ? {
              sgsStage:
                source.fields.sgsStage === "awaiting_review"
                  ? "sent_to_department"
                  : "awaiting_review",
              internalExaminer: null,
              externalExaminer: null,
            }
          : {}),
      } as Submission;
    } else {
      const template = existing[i % existing.length];
      if (!template) throw new Error("no template row");
      submission = {
        ...template.fields,
        id: i + 1,
        version: 1,
        createdAt: at,
        updatedAt: at,
        indexNumber: `9${String(i).padStart(7, "0")}`,
      } as Submission;
    }
    const cells = exportRow(submission);
    if (badEvery > 0 && i % badEvery === badEvery - 1) {
      // Every other bad row has a blank name; the rest an unknown stage.
      const column = (i / badEvery) % 2 < 1 ? "StudentName" : "SGSAdmin";
      const index = EXPORT_COLUMNS.indexOf(column);
      cells[index] = column === "StudentName" ? "" : "Somewhere else";
    }
    lines.push(csvLine(cells));
  }
  // Distinct index numbers for the updates: a repeated one would be a (real) problem.
  return Buffer.from(dedupe(lines).join(""), "utf8");
}

/** Drops later rows repeating an index number (the updates pick existing rows at random). */
function dedupe(lines: string[]): string[] {
  const column = EXPORT_COLUMNS.indexOf("IndexNumber");
  const seen = new Set<string>();
  return lines.filter((line, index) => {
    if (index === 0) return true;
    const indexNumber = line.split(",")[column] ?? "";
    if (seen.has(indexNumber)) return false;
    seen.add(indexNumber);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// One database

interface Row {
  operation: string;
  rows: number;
  seconds: number;
  bytes: number | null;
  before: number;
  peak: number;
  note: string;
  target: string;
  met: boolean;
}

interface Run {
  database: string;
  loadSeconds: number;
  rows: Row[];
  load: string;
}

async function prepare(
  db: Db,
  rows: GeneratedSubmission[],
): Promise<{ authorization: string; loadSeconds: number }> {
  await migrateToLatest(db);
  const started = performance.now();
  await loadSubmissions(db, rows);
  const loadSeconds = (performance.now() - started) / 1000;
  const admin = await createUser(db, "admin", { email: "bench-bulk-admin@school.test" });
  return { authorization: admin.bearer.authorization ?? "", loadSeconds };
}

/** This checkout's built server (checked newer than its sources), or another checkout's. */
function serverEntryOf(appRoot: string): string {
  if (path.resolve(appRoot) === resolveFromRoot()) return builtServerEntry();
  const entry = path.join(appRoot, "dist", "server", "server.js");
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` there.`);
  return entry;
}

async function startServer(
  options: Options,
  databaseUrl: string,
  dir: string,
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = startChild({
    name: "the app server",
    command: process.execPath,
    // The built server, as `npm start` runs it: under tsx the server also holds tsx's loader
    // (about 200 MB between its thread and the compiled sources), which inflates both the baseline
    // and how far V8 lets the heap grow before collecting.
    args: [serverEntryOf(options.appRoot)],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      // No SMTP server here: mail goes to the log (without its codes and links).
      ETS_MAIL_TO_LOG: "on",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      STORAGE_URL: `file:${path.join(dir, "files")}`,
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
      // One process, the one whose RSS is sampled: by default the server starts a worker per core
      // under a primary (server/workers.ts), and the primary's RSS never moves.
      ETS_WORKERS: "1",
      ...(options.nodeOptions ? { NODE_OPTIONS: options.nodeOptions } : {}),
    },
    cwd: options.appRoot,
    logFile: path.join(dir, "app.log"),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/api/health`, child, 120_000);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { child, url };
}

async function measure(
  options: Options,
  database: string,
  databaseUrl: string,
  db: Db,
  generated: GeneratedSubmission[],
  dir: string,
): Promise<Run> {
  console.log(`${database}: loading ${options.size.toLocaleString("en")} submissions…`);
  const { authorization, loadSeconds } = await prepare(db, generated);
  const total = Number(
    (
      await db
        .selectFrom("submissions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const { child, url } = await startServer(options, databaseUrl, dir);
  const out: Row[] = [];
  // Each figure is printed as soon as it is measured: a long run cut short keeps what it has.
  const record = (row: Row) => {
    out.push(row);
    console.log(
      `  ${table([{ database, loadSeconds, rows: [row], load: loadAverage() }]).split("\n")[2]}`,
    );
  };
  try {
    if (options.xlsxOnly) {
      record(await xlsxPreview(options, database, url, authorization, child.pid));
      return { database, loadSeconds, rows: out, load: loadAverage() };
    }
    const exportTarget = "≥ 50,000 rows/s, RSS growth < 100 MB";
    for (const [operation, format, encoding] of [
      ["export CSV (identity)", "csv", "identity"],
      ["export CSV (Accept-Encoding: br, gzip)", "csv", "br, gzip"],
      ["export XLSX", "xlsx", "identity"],
    ] as const) {
      console.log(`${database}: ${operation}…`);
      const m = await watched(child.pid, () =>
        download(`${url}/api/admin/export?format=${format}`, {
          authorization,
          "accept-encoding": encoding,
        }),
      );
      if (m.result.status !== 200) throw new Error(`${operation} answered ${m.result.status}`);
      const note =
        m.result.encoding === "identity"
          ? format === "csv"
            ? `${(m.result.crlf - 1).toLocaleString("en")} rows received`
            : "identity"
          : `Content-Encoding: ${m.result.encoding}`;
      record({
        operation,
        rows: total,
        seconds: m.seconds,
        bytes: m.result.bytes,
        before: m.before,
        peak: m.peak,
        note,
        target: exportTarget,
        met: total / m.seconds >= 50_000 && m.peak - m.before < 100 * MB,
      });
    }
    if (options.exportOnly) return { database, loadSeconds, rows: out, load: loadAverage() };

    const bad = importFile(generated, options.importRows, 10);
    const clean = importFile(generated, options.importRows, 0);
    const cleanRows = clean.toString("utf8").split("\r\n").length - 2;
    const importTarget = "preview + apply ≤ 30 s (SQLite), RSS growth < 150 MB";
    const step = async (
      operation: string,
      route: string,
      file: Buffer,
      rows: number,
      expect: number,
    ) => {
      console.log(`${database}: ${operation}…`);
      const m = await watched(child.pid, () => upload(`${url}${route}`, authorization, file));
      if (m.result.status !== expect) {
        throw new Error(
          `${operation} answered ${m.result.status}: ${JSON.stringify(m.result.body).slice(0, 300)}`,
        );
      }
      const body = m.result.body;
      const errors = Array.isArray(body.errors) ? body.errors.length : 0;
      const note = route.endsWith("preview")
        ? `${String(body.inserts)} new, ${String(body.updates)} updates, ${errors} problems listed`
        : m.result.status === 200
          ? `${String(body.inserted)} inserted, ${String(body.updated)} updated`
          : `refused whole (${m.result.status}), ${errors} problems`;
      return {
        operation,
        rows,
        seconds: m.seconds,
        bytes: file.length,
        before: m.before,
        peak: m.peak,
        note,
      };
    };
    const badPreview = await step(
      "import preview, 10 bad rows",
      "/api/admin/import/preview",
      bad,
      options.importRows,
      200,
    );
    const badApply = await step(
      "import apply, 10 bad rows",
      "/api/admin/import/apply",
      bad,
      options.importRows,
      400,
    );
    const preview = await step(
      "import preview, clean",
      "/api/admin/import/preview",
      clean,
      cleanRows,
      200,
    );
    const apply = await step(
      "import apply, clean",
      "/api/admin/import/apply",
      clean,
      cleanRows,
      200,
    );
    const within = (r: { before: number; peak: number }) => r.peak - r.before < 150 * MB;
    for (const r of [badPreview, badApply])
      out.push({ ...r, target: "RSS growth < 150 MB", met: within(r) });
    const both = preview.seconds + apply.seconds;
    for (const r of [preview, apply]) {
      record({
        ...r,
        target: importTarget,
        met: within(preview) && within(apply) && (both <= 30 || !database.startsWith("SQLite")),
      });
    }
    record({
      operation: "import preview + apply, clean",
      rows: cleanRows,
      seconds: both,
      bytes: clean.length,
      before: Math.min(preview.before, apply.before),
      peak: Math.max(preview.peak, apply.peak),
      note: "",
      target: importTarget,
      met: within(preview) && within(apply) && (both <= 30 || !database.startsWith("SQLite")),
    });
    record(await xlsxPreview(options, database, url, authorization, child.pid));
  } finally {
    await stopChild(child);
    if (options.serverLog) {
      const kind = database.startsWith("SQLite") ? "sqlite" : "postgres";
      fs.copyFileSync(path.join(dir, "app.log"), `${options.serverLog}.${kind}`);
    }
  }
  return { database, loadSeconds, rows: out, load: loadAverage() };
}

/** The registrar-shaped workbook sent to the preview: how long, and how much the server grows. */
async function xlsxPreview(
  options: Options,
  database: string,
  url: string,
  authorization: string,
  pid: number,
): Promise<Row> {
  // A first, smaller workbook of the same shape, not measured: the server has then loaded and
  // compiled the reader and grown its young generation, as a server in use has (the full run
  // measures this after the CSV imports, which do the same).
  if (!options.xlsxCold) {
    const warm = await registrarWorkbook(Math.min(5000, options.importRows));
    const warmed = await upload(
      `${url}/api/admin/import/preview`,
      authorization,
      warm.bytes,
      "registrar.xlsx",
    );
    if (warmed.status !== 200) throw new Error(`the warm-up preview answered ${warmed.status}`);
  }
  const { bytes, unpacked } = await registrarWorkbook(options.importRows);
  const operation = `import preview, XLSX (14 columns, long cells, ${mb(unpacked)} MB unpacked)`;
  console.log(`${database}: ${operation}…`);
  const m = await watched(pid, () =>
    upload(`${url}/api/admin/import/preview`, authorization, bytes, "registrar.xlsx"),
  );
  if (m.result.status !== 200) {
    throw new Error(
      `${operation} answered ${m.result.status}: ${JSON.stringify(m.result.body).slice(0, 300)}`,
    );
  }
  const body = m.result.body;
  return {
    operation,
    rows: Number(body.rows),
    seconds: m.seconds,
    bytes: bytes.length,
    before: m.before,
    peak: m.peak,
    note: `${String(body.rows)} rows read, ${String(body.inserts)} new, ${Array.isArray(body.errors) ? body.errors.length : 0} problems; ${options.xlsxCold ? "a fresh server" : "after a 5,000-row warm-up"}`,
    target: "every row read, RSS growth < 150 MB",
    met: Number(body.rows) === options.importRows && m.peak - m.before < 150 * MB,
  };
}

async function benchSqlite(options: Options, generated: GeneratedSubmission[]): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-bulk-"));
  const file = path.join(dir, "bench.sqlite");
  const db = createDatabase({ kind: "sqlite", path: file });
  try {
    const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    return await measure(
      options,
      `SQLite ${version.rows[0]?.v ?? "?"}`,
      `sqlite:${file}`,
      db,
      generated,
      dir,
    );
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(
  options: Options,
  serverUrl: string,
  generated: GeneratedSubmission[],
): Promise<Run> {
  const name = `ets_bench_bulk_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-bulk-"));
  const db = createDatabase({ kind: "postgres", url: url.toString() });
  try {
    const version = await sql<{ server_version: string }>`show server_version`.execute(db);
    const v = version.rows[0]?.server_version ?? "?";
    return await measure(options, `PostgreSQL ${v}`, url.toString(), db, generated, dir);
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    // The server has stopped and the pool is closed: nothing holds the database now.
    await dropDatabase(admin, name);
    await admin.end();
  }
}

/** Drops the database once the last connections have gone (their closing takes a moment). */
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

// ---------------------------------------------------------------------------------------------

const mb = (bytes: number) => (bytes / MB).toFixed(0);

function table(runs: Run[]): string {
  const lines = [
    "| Database | Operation | Rows | Seconds | Rows/s | MB sent | RSS before (MB) | RSS peak (MB) | Growth (MB) | Notes | Target | Met |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
  ];
  for (const run of runs) {
    for (const r of run.rows) {
      lines.push(
        `| ${run.database} | ${r.operation} | ${r.rows.toLocaleString("en")} | ${r.seconds.toFixed(1)} | ${Math.round(r.rows / r.seconds).toLocaleString("en")} | ${r.bytes === null ? "" : (r.bytes / MB).toFixed(1)} | ${mb(r.before)} | ${mb(r.peak)} | ${mb(r.peak - r.before)} | ${r.note} | ${r.target} | ${r.met ? "yes" : "**no**"} |`,
      );
    }
  }
  return lines.join("\n");
}

export async function benchBulk(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const now = new Date();
  const loadAtStart = loadAverage();
  const started = performance.now();
  console.log(`Generating ${options.size.toLocaleString("en")} submissions…`);
  const generated = generateSubmissions(options.size, now);
  const runs: Run[] = [];
  const write = () => {
    if (!options.write) return;
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    if (options.xlsxOnly) {
      writeBenchSection(
        "bulk-xlsx",
        [
          `Measured ${now.toISOString().slice(0, 10)} by \`npm run bench -- bulk --xlsx-only\` on ${cpu} (${os.cpus().length} cores), Node ${process.version};`,
          `load average (1/5/15 min) at the start ${loadAtStart}, after ${runs.map((r) => r.load).join(", ")}. A registrar-shaped workbook (scripts/bench-workbook.ts) sent to`,
          `\`/api/admin/import/preview\` of the built server on SQLite holding ${options.size.toLocaleString("en")} submissions. RSS is the server's VmRSS sampled every 100 ms; growth is the peak during the request minus the RSS just before it.`,
          "",
          table(runs),
        ].join("\n"),
      );
      console.log("Wrote the bulk-xlsx section of docs/benchmarks.md.");
      return;
    }
    writeBenchSection(
      "bulk",
      [
        `Measured ${now.toISOString().slice(0, 10)} by \`npm run bench -- bulk\` on ${cpu} (${os.cpus().length} cores), Node ${process.version};`,
        `load average (1/5/15 min) at the start ${loadAtStart}, after each database ${runs.map((r) => `${r.database} ${r.load}`).join(", ")}.`,
        `${options.size.toLocaleString("en")} generated submissions exported through \`GET /api/admin/export\`; a ${options.importRows.toLocaleString("en")}-row CSV`,
        `(40 % updates, a quarter of them moving the stage; 60 % new) sent to \`/api/admin/import/preview\` then \`/apply\`. RSS is the server's VmRSS sampled every 100 ms; growth is the peak during the request minus the RSS just before it. Run so far: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
        "",
        table(runs),
        "",
        runs
          .map(
            (r) =>
              `- ${r.database}: ${options.size.toLocaleString("en")} rows loaded in ${r.loadSeconds.toFixed(0)} s (not part of the targets).`,
          )
          .join("\n"),
      ].join("\n"),
    );
    console.log("Wrote the bulk section of docs/benchmarks.md.");
  };
  if (options.sqlite) {
    runs.push(await benchSqlite(options, generated));
    write();
  }
  if (options.postgresUrl) {
    runs.push(await benchPostgres(options, options.postgresUrl, generated));
    write();
  }
  const figures = table(runs);
  console.log(`\n${figures}\n`);
  for (const run of runs) {
    console.log(
      `${run.database}: ${options.size.toLocaleString("en")} rows loaded in ${run.loadSeconds.toFixed(0)} s; load average after: ${run.load}`,
    );
  }
}

// `npm run lighthouse`: Lighthouse (mobile defaults: simulated throttling on a mid-range phone)
// on the four pages issue 11 names, two of them signed in, and the public pages issue 20 names
// (`/theses` and two `/theses/:id`: the sample data's open thesis and its embargoed one), against
// the built app.
//
// It needs `npm run build` (dist/web and dist/server). On a temporary SQLite database holding the
// sample data it creates a student (with a sample index number, so the status page has a record)
// and an administrator, each with a session written straight to the database, then starts the
// built server as one child process (mail goes to its log) and stops it by PID at the end. Debian's
// Chromium is launched by chrome-launcher, also stopped by PID. Signed-in pages are audited with
// the session cookie in Lighthouse's extraHeaders, so the browser sends it on every request, as a
// signed-in browser would.
//
// Each page is audited --runs times (3), round by round so a change in the machine's load falls on
// every page; the table gives the median of each figure and the load average of every run. Writes
// the lighthouse section of docs/benchmarks.md; the JSON reports stay in a temporary folder whose
// path is printed (read them for the failing audits). Not part of `npm test`: a score is a
// measurement, not a test.
//
// Options: --runs N (3), --page PATH (only this page; repeatable; the two thesis pages are named
// `/theses/:open` and `/theses/:embargoed`), --stale-ok (audit a server build older than its
// sources, with a warning), --no-write.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { builtServerEntry, NotBuiltError } from "../cluster/cluster.js";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest } from "../server/db/database.js";
import {
  loadSampleData,
  readSampleRecords,
  sampleContextForFolder,
} from "../server/sample-data.js";
import { resolveFromRoot } from "../server/paths.js";
import { readPublishedRecord } from "../server/publication/repository.js";
import { findSubmissionByIndexNumber } from "../server/submissions/repository.js";
import { createUser } from "../testing/factories.js";
import { writeBenchSection } from "./bench-report.js";

const INSTALL_HINT = "apt-get update && apt-get install -y chromium";

/** The flags of the browser tests (e2e/support/browser.ts): headless, no sandbox, no noise. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 95, scriptKb: 110 };

type Who = "nobody" | "student" | "admin";

interface Page {
  /** The path audited, or for a thesis page its name (`/theses/:open`): --page and the tables. */
  path: string;
  who: Who;
  /** A published thesis's index number in the sample data: its page is `/theses/<submission id>`. */
  thesis?: string;
}

const PAGES: Page[] = [
  { path: "/", who: "nobody" },
  { path: "/auth/login", who: "nobody" },
  { path: "/dashboard/status", who: "student" },
  { path: "/admin/all_submissions", who: "admin" },
  { path: "/theses", who: "nobody" },
  // The sample data's two published theses: one open (with its PDF), one under a 1-year embargo.
  { path: "/theses/:open", who: "nobody", thesis: "19433289" },
  { path: "/theses/:embargoed", who: "nobody", thesis: "16075856" },
];

interface Options {
  runs: number;
  pages: Page[];
  staleOk: boolean;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: "string" },
      page: { type: "string", multiple: true },
      "stale-ok": { type: "boolean" },
      "no-write": { type: "boolean" },
    },
  });
  const runs = values.runs === undefined ? 3 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number ≥ 1");
  const chosen = values.page ?? [];
  const pages = chosen.length === 0 ? PAGES : PAGES.filter((p) => chosen.includes(p.path));
  if (pages.length === 0 || chosen.some((c) => !PAGES.some((p) => p.path === c))) {
    throw new Error(`--page must be one of ${PAGES.map((p) => p.path).join(", ")}`);
  }
  return {
    runs,
    pages,
    staleOk: values["stale-ok"] === true,
    write: values["no-write"] !== true,
  };
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

function findChromium(): string {
  const candidates = [readTestEnv().browserPath, "/usr/bin/chromium"].filter((p): p is string =>
    Boolean(p),
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      `No Chromium found for Lighthouse (looked at: ${candidates.join(", ")}). Install Debian's with \`${INSTALL_HINT}\` (as root), or set ETS_CHROMIUM_PATH.`,
    );
  }
  return found;
}

function serverEntry(staleOk: boolean): string {
  if (!fs.existsSync(resolveFromRoot("dist", "web", "index.html"))) {
    throw new Error(
      "The web app is not built (dist/web/index.html is missing): run `npm run build` first.",
    );
  }
  try {
    return builtServerEntry();
  } catch (error) {
    if (!(error instanceof NotBuiltError) || !staleOk) throw error;
    console.warn(`Warning (--stale-ok): ${error.message}`);
    return resolveFromRoot("dist", "server", "server.js");
  }
}

interface Prepared {
  cookies: Record<Who, string | null>;
  /** The submission id of each thesis page's index number. */
  theses: Map<string, number>;
}

/**
 * Sample data plus a student (owning a sample record) and an administrator, signed in, and the
 * submission ids of the published theses the thesis pages show.
 */
async function prepareDatabase(file: string, filesDir: string, pages: Page[]): Promise<Prepared> {
  const db = createDatabase({ kind: "sqlite", path: file });
  try {
    await migrateToLatest(db);
    await loadSampleData(db, sampleContextForFolder(filesDir));
    const indexNumber = readSampleRecords()
      .map((r) => r.IndexNumber)
      .find((n): n is string => typeof n === "string" && n.trim() !== "");
    if (!indexNumber) throw new Error("the sample data has no index number");
    const admin = await createUser(db, "admin", { email: "lighthouse-admin@school.test" });
    const student = await createUser(db, "student", {
      email: "lighthouse-student@st.school.test",
      indexNumber,
    });
    const theses = new Map<string, number>();
    for (const page of pages) {
      if (!page.thesis) continue;
      const submission = await findSubmissionByIndexNumber(db, page.thesis);
      const record = submission
        ? await readPublishedRecord(db, submission.id, new Date().toISOString())
        : null;
      if (!submission || !record) {
        throw new Error(`the sample data has no published thesis with index number ${page.thesis}`);
      }
      theses.set(page.thesis, submission.id);
    }
    return {
      cookies: {
        nobody: null,
        student: student.headers.cookie ?? null,
        admin: admin.headers.cookie ?? null,
      },
      theses,
    };
  } finally {
    await db.destroy();
  }
}

async function startServer(
  dir: string,
  file: string,
  entry: string,
): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = startChild({
    name: "the app server",
    command: process.execPath,
    args: [entry],
    env: {
      NODE_ENV: "production",
      ETS_MAIL_TO_LOG: "on",
      // One process: the figures (and the RSS read by PID) are one server's, as before ETS_WORKERS.
      ETS_WORKERS: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATABASE_URL: `sqlite:${file}`,
      STORAGE_URL: `file:${path.join(dir, "files")}`,
      // Loaded above, before the accounts; SMTP_URL unset: mail is written to the log.
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
    },
    cwd: resolveFromRoot(),
    logFile: path.join(dir, "server.log"),
  });
  try {
    await waitForOk(`${url}/api/health`, child, 60_000);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, child };
}

// ---------------------------------------------------------------------------------------------
// One audit

interface Failing {
  id: string;
  title: string;
  score: number | null;
  displayValue: string | null;
}

interface Audit {
  page: string;
  run: number;
  loadAverage: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  scriptKb: number;
  report: string;
  failing: {
    accessibility: Failing[];
    bestPractices: Failing[];
    seo: Failing[];
    performance: Failing[];
  };
}

interface Lhr {
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      displayValue?: string;
      numericValue?: number;
      details?: { items?: { resourceType?: string; transferSize?: number }[] };
    }
  >;
}

function failingAudits(lhr: Lhr, category: string, all: boolean): Failing[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => all || ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((a): a is NonNullable<typeof a> => a !== undefined)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 1 &&
        (a.scoreDisplayMode === "binary" ||
          a.scoreDisplayMode === "numeric" ||
          a.scoreDisplayMode === "metricSavings"),
    )
    .map((a) => ({
      id: a.id,
      title: a.title,
      score: a.score,
      displayValue: a.displayValue ?? null,
    }));
}

class LighthouseRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Failures of Lighthouse's own trace recording, not of the page: seen now and then with Debian's
 * Chromium (NO_NAVSTART on the first page of a run, fine when run again). Such a run is repeated,
 * up to twice; every other failure ends the measurement.
 */
const RECORDING_FAILURES = new Set(["NO_NAVSTART", "NO_TRACING_STARTED", "NO_RESOURCE_REQUEST"]);

async function audit(
  chromePort: number,
  url: string,
  cookie: string | null,
  reportFile: string,
): Promise<Omit<Audit, "page" | "run" | "loadAverage">> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(chromePort, url, cookie, reportFile);
    } catch (error) {
      if (
        !(error instanceof LighthouseRunError) ||
        !RECORDING_FAILURES.has(error.code) ||
        attempt > 2
      ) {
        throw error;
      }
      console.log(`${error.message}: running it again`);
    }
  }
}

async function auditOnce(
  chromePort: number,
  url: string,
  cookie: string | null,
  reportFile: string,
): Promise<Omit<Audit, "page" | "run" | "loadAverage">> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const report = Array.isArray(result.report) ? result.report.join("\n") : result.report;
  fs.writeFileSync(reportFile, report);
  const lhr = result.lhr as unknown as Lhr;
  if (lhr.runtimeError) {
    throw new LighthouseRunError(
      lhr.runtimeError.code,
      `Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
    );
  }
  // A signed-in page that lands elsewhere (the login page) would be measuring the wrong page.
  const landed = new URL(lhr.finalDisplayedUrl);
  if (landed.pathname !== new URL(url).pathname) {
    throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: the session was not accepted?`);
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const scripts = (lhr.audits["resource-summary"]?.details?.items ?? []).find(
    (item) => item.resourceType === "script",
  );
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? 0,
    scriptKb: (scripts?.transferSize ?? 0) / 1024,
    report: reportFile,
    failing: {
      accessibility: failingAudits(lhr, "accessibility", true),
      bestPractices: failingAudits(lhr, "best-practices", true),
      seo: failingAudits(lhr, "seo", true),
      performance: failingAudits(lhr, "performance", false),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const atLeast = (value: number, target: number) =>
  `${value} (≥ ${target}, ${value >= target ? "met" : "missed"})`;

function summaryTable(audits: Audit[], pages: Page[]): string {
  const lines = [
    "| Page | Signed in | Performance | Accessibility | Best practices | SEO | LCP | JS transferred |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const page of pages) {
    const of = audits.filter((a) => a.page === page.path);
    const m = (pick: (a: Audit) => number) => median(of.map(pick));
    const kb = m((a) => a.scriptKb);
    lines.push(
      `| ${page.path} | ${page.who === "nobody" ? "no" : page.who} | ${atLeast(Math.round(m((a) => a.performance)), TARGETS.performance)} | ${atLeast(Math.round(m((a) => a.accessibility)), TARGETS.accessibility)} | ${atLeast(Math.round(m((a) => a.bestPractices)), TARGETS.bestPractices)} | ${atLeast(Math.round(m((a) => a.seo)), TARGETS.seo)} | ${(m((a) => a.lcpMs) / 1000).toFixed(1)} s | ${kb.toFixed(1)} kB (≤ ${TARGETS.scriptKb}, ${kb <= TARGETS.scriptKb ? "met" : "missed"}) |`,
    );
  }
  return lines.join("\n");
}

function runsTable(audits: Audit[]): string {
  const lines = [
    "| Page | Run | /proc/loadavg at start | Performance | Accessibility | Best practices | SEO | LCP | JS transferred |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const a of audits) {
    lines.push(
      `| ${a.page} | ${a.run} | ${a.loadAverage} | ${a.performance} | ${a.accessibility} | ${a.bestPractices} | ${a.seo} | ${(a.lcpMs / 1000).toFixed(1)} s | ${a.scriptKb.toFixed(1)} kB |`,
    );
  }
  return lines.join("\n");
}

function printFailing(a: Audit): void {
  const show = (label: string, items: Failing[]) => {
    for (const f of items) {
      console.log(
        `    ${label}: ${f.id} (${f.score ?? "-"}) ${f.title}${f.displayValue ? ` — ${f.displayValue}` : ""}`,
      );
    }
  };
  show("accessibility", a.failing.accessibility);
  show("best practices", a.failing.bestPractices);
  show("seo", a.failing.seo);
  show("performance", a.failing.performance);
}

/** Which thesis each `/theses/:name` page showed (the sample data's index number and its page). */
function thesisLines(pages: Page[], theses: Map<string, number>): string[] {
  const named = pages.flatMap((p) => {
    const id = p.thesis ? theses.get(p.thesis) : undefined;
    return id === undefined
      ? []
      : [`\`${p.path}\` is \`/theses/${id}\` (index number ${p.thesis})`];
  });
  return named.length === 0 ? [] : [`${named.join("; ")}.`];
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const chromePath = findChromium();
  const entry = serverEntry(options.staleOk);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-lighthouse-"));
  // The reports outlive the run (the database and the server's files do not).
  const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-lighthouse-reports-"));
  fs.mkdirSync(path.join(dir, "files"));
  const file = path.join(dir, "ets.sqlite");

  let server: { url: string; child: Child } | null = null;
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    const { cookies, theses } = await prepareDatabase(file, path.join(dir, "files"), options.pages);
    server = await startServer(dir, file, entry);
    chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: CHROMIUM_FLAGS,
      logLevel: "error",
    });
    console.log(
      `Lighthouse ${options.runs} run(s) per page against ${server.url}; reports in ${reportsDir}`,
    );

    const audits: Audit[] = [];
    for (let run = 1; run <= options.runs; run += 1) {
      for (const page of options.pages) {
        const loadAtStart = loadAverage();
        const name = `${page.path === "/" ? "home" : page.path.slice(1).replace(/[^a-z0-9_-]+/gi, "_")}-${run}.json`;
        const thesisId = page.thesis ? theses.get(page.thesis) : undefined;
        const result = await audit(
          chrome.port,
          `${server.url}${thesisId === undefined ? page.path : `/theses/${thesisId}`}`,
          page.who === "nobody" ? null : cookies[page.who],
          path.join(reportsDir, name),
        );
        const a: Audit = { page: page.path, run, loadAverage: loadAtStart, ...result };
        audits.push(a);
        console.log(
          `${page.path} | run ${run} | loadavg ${loadAtStart} | performance ${a.performance} | accessibility ${a.accessibility} | best practices ${a.bestPractices} | SEO ${a.seo} | LCP ${(a.lcpMs / 1000).toFixed(2)} s | JS ${a.scriptKb.toFixed(1)} kB`,
        );
        printFailing(a);
      }
    }

    const summary = summaryTable(audits, options.pages);
    console.log(`\n${summary}`);
    if (options.write) {
      const when = new Date().toISOString().slice(0, 10);
      const cpus = os.cpus();
      writeBenchSection(
        "lighthouse",
        [
          `Measured ${when} with \`npm run lighthouse\` (Lighthouse 12, mobile defaults: simulated`,
          `throttling, Debian's Chromium headless) on ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, the built`,
          `app on SQLite with the sample data; median of ${options.runs} run(s) per page, targets in brackets.`,
          ...thesisLines(options.pages, theses),
          "",
          summary,
          "",
          "Every run, with the machine's load average when it started (Lighthouse's simulated",
          "throttling scales with the CPU the page actually got, so a loaded machine lowers the score):",
          "",
          runsTable(audits),
        ].join("\n"),
      );
      console.log("\nWrote the lighthouse section of docs/benchmarks.md.");
    }
  } finally {
    if (chrome) await chrome.kill();
    if (server) await stopChild(server.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

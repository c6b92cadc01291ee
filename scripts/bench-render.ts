// `npm run bench -- render`: the administrator's list rendered in Chromium (issue 11 item 5).
//
// It fills a fresh SQLite file with generated submissions (scripts/bench-data.ts), writes an
// administrator and a session straight into it, starts the app server as ONE child process
// (stopped by PID) serving the built web app, and drives Debian's Chromium (the browser the e2e
// tests use) through Playwright with the session cookie set. What it measures, per round on a
// freshly loaded /admin/all_submissions:
//   - "25 → 100 rows per page": the Rows per page select changed to 100, until 100 rows are on
//     screen, the list is no longer fetching and two frames have passed;
//   - "ArrowDown to the next row" and "Space selects a row": one key on a page of 100 rows, the
//     interactions that must not re-render every row;
//   - "nothing": the same steps with no interaction, the measurement's own cost.
// Each figure is the renderer's ScriptDuration (CDP Performance.getMetrics) after minus before:
// the main thread's JavaScript, including the JSON parse of the answer and React's render and
// commit. Layout and style recalculation are reported beside it, and the wall time from the event
// to the frame after the change. The rounds run on the desktop CPU, then again with the CPU
// throttled 4 times (a phone-like figure; the 100 ms target is on the desktop run). Median and
// p95 go into the render section of docs/benchmarks.md with the machine, the load average and
// the date.
//
// Options: --rows N (generated submissions, default 5000), --rounds N (counted rounds per
// interaction, default 15; one more is run first and not counted), --web-root DIR (the built web
// app to serve, default dist/web: `npm run build` first), --no-throttle, --no-write, --label TEXT,
// --profile FILE (instead of the figures: a CPU profile of one 25 → 100 switch, summarised).
// `--serve-web DIR` is internal: the child process runs the app server with that web root (the
// server binary has no setting for it, and the bench must not depend on a dist/web that another
// build may be rewriting).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type CDPSession, type Page } from "@playwright/test";
import { freePort, startChild, stopChild, waitForOk, type Child } from "../cluster/processes.js";
import { CHROMIUM_ARGS, findChromium } from "../e2e/support/browser.js";
import { buildApp } from "../server/app.js";
import { SESSION_COOKIE } from "../server/auth/session.js";
import { loadConfig } from "../server/config.js";
import { createDatabase, migrateToLatest } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import { createUser } from "../testing/factories.js";
import { generateSubmissions, loadSubmissions } from "./bench-data.js";
import { writeBenchSection } from "./bench-report.js";

const TARGET_MS = 100;
const THROTTLE_RATE = 4;

interface Options {
  rows: number;
  rounds: number;
  webRoot: string;
  throttle: boolean;
  write: boolean;
  label: string | null;
  /** Where to write a CPU profile of one desktop 25 → 100 switch, or null. */
  profile: string | null;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: "string" },
      rounds: { type: "string" },
      "web-root": { type: "string" },
      "no-throttle": { type: "boolean" },
      "no-write": { type: "boolean" },
      label: { type: "string" },
      profile: { type: "string" },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number, min: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return n;
  };
  return {
    rows: whole("rows", values.rows, 5000, 200),
    rounds: whole("rounds", values.rounds, 15, 1),
    webRoot: path.resolve(values["web-root"] ?? resolveFromRoot("dist", "web")),
    throttle: values["no-throttle"] !== true,
    write: values["no-write"] !== true,
    label: values.label ?? null,
    profile: values.profile ? path.resolve(values.profile) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The server: this script again, in a child process, with --serve-web

/** The child's side: server/server.ts's start, with the web root this bench chose. */
async function serveWeb(webRoot: string): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const app = await buildApp(config, { db, webRoot });
  await app.listen({ port: config.port, host: config.host });
  const stop = () => {
    void app
      .close()
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

function checkWebRoot(webRoot: string): void {
  if (!fs.existsSync(path.join(webRoot, "index.html"))) {
    throw new Error(
      `No built web app in ${webRoot} (index.html is missing). Run \`npm run build\` first, ` +
        "or pass --web-root DIR with the output of `npx vite build --outDir DIR`.",
    );
  }
}

async function prepareDatabase(file: string, rows: number): Promise<string> {
  const db = createDatabase({ kind: "sqlite", path: file });
  try {
    await migrateToLatest(db);
    await loadSubmissions(db, generateSubmissions(rows, new Date()));
    const admin = await createUser(db, "admin", { email: "bench-render@school.test" });
    const cookie = admin.headers.cookie ?? "";
    const token = cookie.slice(cookie.indexOf("=") + 1);
    if (!cookie.startsWith(`${SESSION_COOKIE}=`) || token === "") {
      throw new Error("the test factory gave no session cookie");
    }
    return token;
  } finally {
    await db.destroy();
  }
}

async function startServer(dir: string, file: string, webRoot: string) {
  const port = await freePort();
  const child = startChild({
    name: "the app server",
    command: process.execPath,
    args: [
      "--import",
      "tsx",
      resolveFromRoot("scripts", "bench.ts"),
      "render",
      "--serve-web",
      webRoot,
    ],
    env: {
      NODE_ENV: "production",
      // No SMTP server here: mail goes to the log (without its codes and links).
      ETS_MAIL_TO_LOG: "on",
      // One process: the figures (and the RSS read by PID) are one server's, as before ETS_WORKERS.
      ETS_WORKERS: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${file}`,
      STORAGE_URL: `file:${path.join(dir, "files")}`,
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
    },
    cwd: resolveFromRoot(),
    logFile: path.join(dir, "app.log"),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/api/health`, child, 60_000);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, child };
}

// ---------------------------------------------------------------------------------------------
// The browser side

const ROWS = ".submissions-table tbody tr";

interface Sample {
  scriptMs: number;
  layoutMs: number;
  wallMs: number;
}

/**
 * The page's side of the bench, as plain JavaScript text added to every document before the app's
 * scripts. Text, not functions: tsx compiles this file with helpers a page does not have, and a
 * string given to Playwright is evaluated through the DevTools protocol, which the app's Content
 * Security Policy does not restrict.
 *   benchWait(done): resolves once the condition holds (checked on every DOM change).
 *   benchArm(done) then benchArmed: resolves with the milliseconds from the arming to two frames
 *   after the condition held (the frame showing the change has been produced).
 */
const PAGE_SCRIPT = `
(() => {
  const rows = () => document.querySelectorAll(".submissions-table tbody tr");
  const conditions = {
    "25 rows": () => rows().length === 25 && !document.querySelector('[aria-busy="true"]'),
    "100 rows": () => rows().length === 100 && !document.querySelector('[aria-busy="true"]'),
    "row 11 focused": () => document.activeElement === rows()[10],
    "row 10 checked": () =>
      rows()[9]?.dataset.checked === "true" && document.querySelector(".bulk-actions") !== null,
  };
  const when = (done) => new Promise((resolve) => {
    if (conditions[done]()) return resolve();
    const observer = new MutationObserver(() => {
      if (!conditions[done]()) return;
      observer.disconnect();
      resolve();
    });
    // Focus alone (ArrowDown) changes tabindex attributes, which the observer sees too.
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
  window.benchWait = when;
  window.benchArm = (done) => {
    const start = performance.now();
    window.benchArmed = when(done).then(() => new Promise((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)))));
  };
})();
`;

type Done = "25 rows" | "100 rows" | "row 11 focused" | "row 10 checked";

const wait = (page: Page, done: Done) => page.evaluate(`window.benchWait(${JSON.stringify(done)})`);

interface Interaction {
  name: string;
  /** Gets the page ready; not measured. */
  prepare(page: Page): Promise<void>;
  done: Done;
  act(page: Page): Promise<void>;
}

const INTERACTIONS: Interaction[] = [
  {
    // The floor: the same steps with nothing happening (the driver's calls, the settling wait).
    name: "nothing (the measurement's own cost)",
    prepare: async () => {},
    done: "25 rows",
    act: async () => {},
  },
  {
    name: "25 → 100 rows per page",
    prepare: async () => {},
    done: "100 rows",
    // The change event a person's choice in the select fires, dispatched by a one-line evaluation
    // so that almost none of the measured script is the driver's.
    act: async (page) => {
      await page.evaluate(`(() => {
        const select = document.querySelector(".pagination__size select");
        select.value = "100";
        select.dispatchEvent(new Event("change", { bubbles: true }));
      })()`);
    },
  },
  {
    name: "ArrowDown to the next row (100 rows)",
    prepare: async (page) => {
      await showHundredRows(page);
      await page.focus(`${ROWS}:nth-child(10)`);
    },
    done: "row 11 focused",
    act: (page) => page.keyboard.press("ArrowDown"),
  },
  {
    name: "Space selects a row (100 rows)",
    prepare: async (page) => {
      await showHundredRows(page);
      await page.focus(`${ROWS}:nth-child(10)`);
    },
    done: "row 10 checked",
    act: (page) => page.keyboard.press(" "),
  },
];

const HUNDRED_ROWS = INTERACTIONS.find((i) => i.done === "100 rows")!;

async function showHundredRows(page: Page): Promise<void> {
  await page.selectOption(".pagination__size select", "100");
  await wait(page, "100 rows");
}

async function metric(cdp: CDPSession): Promise<{ script: number; layout: number }> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    script: get("ScriptDuration") * 1000,
    layout: (get("LayoutDuration") + get("RecalcStyleDuration")) * 1000,
  };
}

async function openList(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin/all_submissions`);
  await wait(page, "25 rows");
  await page.waitForLoadState("networkidle");
}

async function measureOnce(page: Page, cdp: CDPSession, interaction: Interaction): Promise<Sample> {
  await page.evaluate(`window.benchArm(${JSON.stringify(interaction.done)})`);
  const before = await metric(cdp);
  await interaction.act(page);
  const wallMs = Number(await page.evaluate("window.benchArmed"));
  // Effects scheduled after the frame belong to the interaction too.
  await page.waitForTimeout(150);
  const after = await metric(cdp);
  return { scriptMs: after.script - before.script, layoutMs: after.layout - before.layout, wallMs };
}

interface Row {
  cpu: string;
  interaction: string;
  rounds: number;
  script: { median: number; p95: number; max: number };
  layoutMedian: number;
  wallMedian: number;
  loadAverage: string;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function measure(
  browser: Browser,
  url: string,
  token: string,
  rounds: number,
  throttle: number,
): Promise<Row[]> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addCookies([
    { name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true },
  ]);
  await context.addInitScript({ content: PAGE_SCRIPT });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
  const cpu = throttle === 1 ? "desktop" : `CPU throttled ×${throttle}`;
  const out: Row[] = [];
  try {
    for (const interaction of INTERACTIONS) {
      const samples: Sample[] = [];
      // Round 0 warms the JIT, the server's statements and the browser's HTTP cache; not counted.
      for (let round = 0; round <= rounds; round += 1) {
        await openList(page, url);
        await interaction.prepare(page);
        const sample = await measureOnce(page, cdp, interaction);
        if (round > 0) samples.push(sample);
      }
      const scripts = samples.map((s) => s.scriptMs).sort((a, b) => a - b);
      const median = (values: number[]) =>
        percentile(
          [...values].sort((a, b) => a - b),
          50,
        );
      const row: Row = {
        cpu,
        interaction: interaction.name,
        rounds: samples.length,
        script: {
          median: percentile(scripts, 50),
          p95: percentile(scripts, 95),
          max: scripts[scripts.length - 1] ?? 0,
        },
        layoutMedian: median(samples.map((s) => s.layoutMs)),
        wallMedian: median(samples.map((s) => s.wallMs)),
        loadAverage: loadAverage(),
      };
      console.log(
        `${cpu.padEnd(22)} ${interaction.name.padEnd(38)} scripting median ${row.script.median.toFixed(1)} ms, p95 ${row.script.p95.toFixed(1)} ms; layout+style ${row.layoutMedian.toFixed(1)} ms; to the frame ${row.wallMedian.toFixed(0)} ms (load ${row.loadAverage})`,
      );
      out.push(row);
    }
  } finally {
    await context.close();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report

function loadAverage(): string {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").trim().split(/\s+/).slice(0, 3).join(" / ");
  } catch {
    return os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" / ");
  }
}

function report(
  rows: Row[],
  options: Options,
  meta: {
    browser: string;
    started: string;
    loadAtStart: string;
    loadAtEnd: string;
    seconds: number;
  },
): string {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const ms = (n: number) => n.toFixed(1);
  const lines = [
    "",
    `Measured ${meta.started} by \`npm run bench -- render\`${options.label ? ` (${options.label})` : ""} on ${cpu} (${os.cpus().length} cores), Node ${process.version}, ${meta.browser} headless;`,
    `load average at the start ${meta.loadAtStart} and at the end ${meta.loadAtEnd} (other work on the machine inflates the figures);`,
    `${options.rows.toLocaleString("en-GB")} generated submissions on SQLite, the list sorted by name, a 1366×900 window, ${options.rounds} counted rounds per line (one more first, not counted), each on a freshly loaded page. Whole run: ${meta.seconds.toFixed(0)} s.`,
    "",
    "| CPU | Interaction | Rounds | Scripting median (ms) | Scripting p95 (ms) | Max (ms) | Layout + style median (ms) | Event to frame median (ms) | Load average after |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (r) =>
        `| ${r.cpu} | ${r.interaction} | ${r.rounds} | ${ms(r.script.median)} | ${ms(r.script.p95)} | ${ms(r.script.max)} | ${ms(r.layoutMedian)} | ${ms(r.wallMedian)} | ${r.loadAverage} |`,
    ),
    "",
  ];
  const target = rows.find((r) => r.cpu === "desktop" && r.interaction.startsWith("25 → 100"));
  if (target) {
    const meets = target.script.p95 < TARGET_MS;
    lines.push(
      `- Target: choosing 100 rows per page in under ${TARGET_MS} ms of scripting on the desktop run: median ${ms(target.script.median)} ms, p95 ${ms(target.script.p95)} ms (${meets ? "meets the target" : "does NOT meet the target"}).`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------

/**
 * --profile FILE: one desktop 25 → 100 switch under the V8 profiler (sampling every 100 µs),
 * written as a .cpuprofile (DevTools opens it) and summarised by self time, to find what to make
 * cheaper. Not part of the figures.
 */
async function profileSwitch(browser: Browser, url: string, token: string, file: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    await context.addCookies([
      { name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true },
    ]);
    await context.addInitScript({ content: PAGE_SCRIPT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await openList(page, url);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    await page.evaluate(`window.benchArm("100 rows")`);
    await HUNDRED_ROWS.act(page);
    await page.evaluate("window.benchArmed");
    const { profile } = await cdp.send("Profiler.stop");
    fs.writeFileSync(file, JSON.stringify(profile));
    const intervals = profile.timeDeltas ?? [];
    const selfUs = new Map<number, number>();
    (profile.samples ?? []).forEach((id, i) =>
      selfUs.set(id, (selfUs.get(id) ?? 0) + (intervals[i] ?? 0)),
    );
    const byName = new Map<string, number>();
    for (const node of profile.nodes) {
      const { functionName, url: script, lineNumber } = node.callFrame;
      const name = `${functionName || "(anonymous)"} ${path.basename(script)}:${lineNumber + 1}`;
      byName.set(name, (byName.get(name) ?? 0) + (selfUs.get(node.id) ?? 0));
    }
    console.log(`CPU profile written to ${file}; most self time:`);
    for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`);
    }
  } finally {
    await context.close();
  }
}

export async function benchRender(argv: string[]): Promise<void> {
  const serveAt = argv.indexOf("--serve-web");
  if (serveAt >= 0) {
    const webRoot = argv[serveAt + 1];
    if (!webRoot) throw new Error("--serve-web needs a folder");
    return serveWeb(webRoot);
  }

  const options = readOptions(argv);
  checkWebRoot(options.webRoot);
  const started = new Date();
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-render-"));
  let server: { url: string; child: Child } | null = null;
  let browser: Browser | null = null;
  try {
    const file = path.join(dir, "bench.sqlite");
    console.log(`Loading ${options.rows} generated submissions into ${file}…`);
    const token = await prepareDatabase(file, options.rows);
    server = await startServer(dir, file, options.webRoot);
    console.log(`Server (PID ${server.child.pid}) at ${server.url}, serving ${options.webRoot}`);
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    const browserVersion = `Chromium ${browser.version()}`;
    if (options.profile) {
      await profileSwitch(browser, server.url, token, options.profile);
      return;
    }
    const rows = await measure(browser, server.url, token, options.rounds, 1);
    if (options.throttle) {
      rows.push(...(await measure(browser, server.url, token, options.rounds, THROTTLE_RATE)));
    }
    const body = report(rows, options, {
      browser: browserVersion,
      started: started.toISOString().slice(0, 10),
      loadAtStart,
      loadAtEnd: loadAverage(),
      seconds: (Date.now() - started.getTime()) / 1000,
    });
    console.log(body);
    if (options.write) {
      writeBenchSection("render", body);
      console.log("Written to docs/benchmarks.md (render section).");
    }
  } finally {
    await browser?.close();
    if (server) await stopChild(server.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

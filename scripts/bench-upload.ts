// `npm run bench -- upload`: streams a 100 MB thesis PDF through the real server's upload route and
// reports the throughput and the server's memory: its resident size before the upload and its
// peak (VmHWM from /proc, reset just before the upload) after, so a server that buffered the file would show ~100 MB more.
// Runs without a scanner (with a file a tenth of the size too, for comparison), and with a real
// clamd (Debian's clamav-daemon) when installed.
// Writes the upload section of docs/benchmarks.md.
//
// Options: --mb N (default 100), --no-write (print only).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDatabase, migrateToLatest } from "../server/db/database.js";
import { resolveFromRoot } from "../server/paths.js";
import { startClamd } from "../testing/clamd.js";
import { createUser, makeSubmission } from "../testing/factories.js";
import { writeLargePdf } from "../testing/pdf-fixtures.js";
import { writeBenchSection } from "./bench-report.js";

interface Run {
  scanner: string;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
  status: number;
}

const MB = 1024 * 1024;

function readOptions(argv: string[]) {
  const at = argv.indexOf("--mb");
  const mb = at >= 0 ? Number(argv[at + 1]) : 100;
  if (!Number.isInteger(mb) || mb < 1 || mb > 2000) throw new Error("--mb must be 1 to 2000");
  return { mb, write: !argv.includes("--no-write") };
}

/** Resident and peak resident size of a process, in MB, from /proc (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not start within 60 s");
}

/** Sends the file as multipart/form-data, streamed from disk, and resolves with the status. */
function upload(url: string, cookie: string, file: string): Promise<number> {
  const boundary = `----ets-bench-${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="thesis.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          cookie,
          origin: target.origin,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + size + tail.length,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on("error", reject);
    stream.on("end", () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** The built server: the benchmark measures what runs in production, not the TypeScript loader. */
function serverEntry(): string {
  const entry = resolveFromRoot("dist", "server", "server.js");
  if (!fs.existsSync(entry)) throw new Error("The server is not built: run `npm run build` first.");
  return entry;
}

async function runOnce(
  pdf: string,
  smallPdf: string,
  megabytes: number,
  clamdUrl: string | null,
): Promise<Run> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-upload-"));
  const dbFile = path.join(work, "ets.sqlite");
  const db = createDatabase({ kind: "sqlite", path: dbFile });
  await migrateToLatest(db);
  const submission = await makeSubmission(db);
  await db
    .updateTable("submissions")
    .set({ thesis_title: "A benchmark thesis", thesis_abstract: "Pages of padding." })
    .where("id", "=", submission.id)
    .execute();
  const student = await createUser(db, "student", { indexNumber: submission.indexNumber });
  await db.destroy();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [serverEntry()], {
    cwd: resolveFromRoot(),
    env: {
      NODE_ENV: "production",
      // No SMTP server here: mail goes to the log (without its codes and links).
      ETS_MAIL_TO_LOG: "on",
      // One process: the figures (and the RSS read by PID) are one server's, as before ETS_WORKERS.
      ETS_WORKERS: "1",
      PORT: String(port),
      PUBLIC_URL: base,
      DATABASE_URL: `sqlite:${dbFile}`,
      STORAGE_URL: `file:${path.join(work, "files")}`,
      ETS_SAMPLE_DATA: "off",
      ETS_MAX_THESIS_MB: String(Math.max(100, megabytes + 1)),
      LOG_LEVEL: "warn",
      ...(clamdUrl ? { CLAMD_URL: clamdUrl } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitForHealth(base, child);
    const pid = child.pid ?? 0;
    const url = `${base}/api/submissions/${encodeURIComponent(submission.indexNumber)}/documents/thesis`;
    const cookie = student.headers.cookie ?? "";
    // A first, small upload loads what every upload needs once (pdf.js and its worker module,
    // the multipart parser); the measured upload is the next one.
    const warmUp = await upload(url, cookie, smallPdf);
    if (warmUp !== 201) throw new Error(`the warm-up upload answered ${warmUp}`);
    // Start the peak afresh: start-up (compiling, migrations) has its own, higher, peak.
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const before = memoryOf(pid);
    const started = performance.now();
    const status = await upload(url, cookie, pdf);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(pid);
    return {
      scanner: clamdUrl ? "clamd (INSTREAM)" : "none",
      megabytes,
      seconds,
      rssBeforeMb: before.rss,
      peakRssMb: after.peak,
      status,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function benchUpload(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-pdf-"));
  const pdf = path.join(dir, "thesis.pdf");
  const smallPdf = path.join(dir, "warm-up.pdf");
  const loadAtStart = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");
  try {
    console.log(`Writing a ${options.mb} MB PDF…`);
    await writeLargePdf(pdf, options.mb * MB);
    await writeLargePdf(smallPdf, MB);
    // A tenth of the size beside it: memory that stays flat shows the same growth for both.
    const tenthMb = Math.max(1, Math.round(options.mb / 10));
    const tenthPdf = path.join(dir, "tenth.pdf");
    await writeLargePdf(tenthPdf, tenthMb * MB);
    const runs: Run[] = [];
    console.log("Uploading without a scanner…");
    runs.push(await runOnce(tenthPdf, smallPdf, tenthMb, null));
    runs.push(await runOnce(pdf, smallPdf, options.mb, null));
    let clamd: Awaited<ReturnType<typeof startClamd>> | null = null;
    try {
      clamd = await startClamd();
    } catch (error) {
      console.log(`No clamd run: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (clamd) {
      try {
        console.log("Uploading through clamd…");
        runs.push(await runOnce(pdf, smallPdf, options.mb, clamd.url));
      } finally {
        await clamd.stop();
      }
    }
    const rows = runs.map(
      (r) =>
        `| ${r.scanner} | ${r.megabytes} | ${r.status} | ${r.seconds.toFixed(1)} | ${(r.megabytes / r.seconds).toFixed(1)} | ${r.rssBeforeMb.toFixed(0)} | ${r.peakRssMb.toFixed(0)} | ${(r.peakRssMb - r.rssBeforeMb).toFixed(0)} |`,
    );
    const bad = runs.filter((r) => r.status !== 201);
    const body = [
      `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench -- upload\` on ${os.cpus()[0]?.model ?? "unknown CPU"} (${os.cpus().length} cores), Node ${process.version}; load average at the start ${loadAtStart}.`,
      "One student uploads a generated PDF as their thesis through `POST /api/submissions/:indexNumber/documents/thesis` on the built server (SQLite, file storage), over loopback, after a 1 MB warm-up upload; the time includes streaming to staging, hashing, the scan, reading the PDF and storing it. The peak is the server's VmHWM, reset just before the measured upload.",
      "",
      "| Scanner | File (MB) | Status | Time (s) | Throughput (MB/s) | Server RSS before (MB) | Server peak RSS (MB) | Peak growth (MB) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
    ].join("\n");
    console.log(`\n${body}\n`);
    if (bad.length > 0)
      throw new Error(`an upload answered ${bad.map((r) => r.status).join(", ")}`);
    if (options.write) {
      writeBenchSection("upload", body);
      console.log("Wrote the upload section of docs/benchmarks.md.");
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// `npm run bench -- webhooks`: webhook deliveries per second through the queue
// (server/webhooks/delivery.ts) to a receiver on 127.0.0.1 that checks every signature, on SQLite
// and PostgreSQL. The events are written as changes write them (enqueueWebhookEvent, one
// transaction per change), spread over submissions with everyday names, so that the order per
// submission holds some back; then passes of the delivery worker run until the queue is empty,
// with one server and with two servers on one database. Options: --events N (default 5,000),
// --submissions N (500), --endpoints N (1), --postgres URL, --sqlite-only, --postgres-only,
// --no-write (print only). Written to docs/benchmarks.md, section "webhooks".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import { sql } from "kysely";
import { readTestEnv } from "../server/config.js";
import { createDatabase, migrateToLatest, type Db } from "../server/db/database.js";
import { deliverDueWebhooks, type WebhookDeps } from "../server/webhooks/delivery.js";
import { insertEndpoint } from "../server/webhooks/endpoints.js";
import { enqueueWebhookEvent } from "../server/webhooks/events.js";
import { verifySignature } from "../server/webhooks/signing.js";
import { insertSubmissions } from "../server/submissions/repository.js";
import { submissionFields } from "../testing/factories.js";
import { startWebhookReceiver } from "../testing/webhook-receiver.js";
import { writeBenchSection } from "./bench-report.js";

interface Options {
  events: number;
  submissions: number;
  endpoints: number;
  postgresUrl: string | null;
  sqlite: boolean;
  write: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const count = (name: string, fallback: number) => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0`);
    return n;
  };
  return {
    events: count("--events", 5000),
    submissions: count("--submissions", 500),
    endpoints: count("--endpoints", 1),
    postgresUrl: argv.includes("--sqlite-only")
      ? null
      : (value("--postgres") ??
        readTestEnv().databaseUrl ??
        "postgres://postgres@127.0.0.1:5432/test"),
    sqlite: !argv.includes("--postgres-only"),
    write: !argv.includes("--no-write"),
  };
}

const silent = {
  level: "silent",
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
  child() {
    return silent;
  },
} as unknown as FastifyBaseLogger;

const FIRST = ["Ama", "Kofi", "Kwame", "Akosua", "Yaw", "Abena", "Kojo", "Efua", "Kwabena", "Esi"];
const LAST = ["Mensah", "Owusu", "Boateng", "Asante", "Osei", "Agyeman", "Appiah", "Darko"];

interface Figure {
  database: string;
  servers: number;
  deliveries: number;
  seconds: number;
  perSecond: number;
  enqueuePerSecond: number;
  verified: boolean;
}

async function run(db: Db, label: string, options: Options, servers: number, openOther: () => Db) {
  await migrateToLatest(db);
  await db.deleteFrom("webhook_attempts").execute();
  await db.deleteFrom("webhook_deliveries").execute();
  await db.deleteFrom("webhook_events").execute();
  await db.deleteFrom("webhook_endpoints").execute();
  const receiver = await startWebhookReceiver();
  const secrets: string[] = [];
  for (let i = 0; i < options.endpoints; i += 1) {
    const { secret } = await insertEndpoint(db, {
      url: `${receiver.url}/${i}`,
      events: ["submission.stage_changed"],
      active: true,
      createdBy: null,
    });
    secrets.push(secret);
  }
  let bad = 0;
  receiver.answer = (request) => {
    const endpoint = Number(request.path.split("/").pop());
    const header = request.headers["ets-signature"];
    if (
      !verifySignature(
        secrets[endpoint]!,
        typeof header === "string" ? header : undefined,
        request.body,
      )
    ) {
      bad += 1;
      return 400;
    }
    return 200;
  };
  const existing = await db.selectFrom("submissions").select("id").orderBy("id").execute();
  if (existing.length < options.submissions) {
    const fields = Array.from({ length: options.submissions - existing.length }, (_, i) =>
      submissionFields({
        studentName: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
      }),
    );
    await insertSubmissions(db, fields, new Date().toISOString());
  }
  const ids = (await db.selectFrom("submissions").select("id").orderBy("id").execute())
    .slice(0, options.submissions)
    .map((row) => row.id);

  const enqueueStart = performance.now();
  for (let i = 0; i < options.events; i += 1) {
    const submissionId = ids[i % ids.length]!;
    await db.transaction().execute((trx) =>
      enqueueWebhookEvent(trx, {
        type: "submission.stage_changed",
        submissionId,
        data: { from: "awaiting_review", to: "sent_to_department", move: "next", step: i },
      }),
    );
  }
  const enqueueSeconds = (performance.now() - enqueueStart) / 1000;

  const others = Array.from({ length: servers - 1 }, openOther);
  const depsOf = (d: Db): WebhookDeps => ({ db: d, allowedHosts: ["127.0.0.1"], log: silent });
  const all = [depsOf(db), ...others.map(depsOf)];
  const start = performance.now();
  let delivered = 0;
  try {
    await Promise.all(
      all.map(async (deps) => {
        for (;;) {
          const report = await deliverDueWebhooks(deps);
          delivered += report.delivered;
          if (report.delivered + report.retried + report.failed === 0) {
            const left = await db
              .selectFrom("webhook_deliveries")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("status", "=", "pending")
              .executeTakeFirstOrThrow();
            if (Number(left.n) === 0) return;
            // The rest is in another server's hands or not yet due: look again shortly.
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }
      }),
    );
  } finally {
    await Promise.all(others.map((other) => other.destroy()));
    await receiver.close();
  }
  const seconds = (performance.now() - start) / 1000;
  const figure: Figure = {
    database: label,
    servers,
    deliveries: delivered,
    seconds,
    perSecond: delivered / seconds,
    enqueuePerSecond: options.events / enqueueSeconds,
    verified: bad === 0 && receiver.received.length >= delivered,
  };
  console.log(
    `  ${label}, ${servers} server(s): ${delivered} deliveries in ${seconds.toFixed(1)} s = ${figure.perSecond.toFixed(0)}/s; events written ${figure.enqueuePerSecond.toFixed(0)}/s; signatures ${figure.verified ? "all verified" : `${bad} refused`}`,
  );
  return figure;
}

export async function benchWebhooks(argv: string[]): Promise<void> {
  const options = readOptions(argv);
  const figures: Figure[] = [];
  const began = performance.now();
  if (options.sqlite) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-webhooks-"));
    const file = path.join(dir, "bench.sqlite");
    const open = () => createDatabase({ kind: "sqlite", path: file });
    const db = open();
    try {
      const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
      const label = `SQLite ${version.rows[0]?.v ?? "?"}`;
      for (const servers of [1, 2]) figures.push(await run(db, label, options, servers, open));
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (options.postgresUrl) {
    const name = `ets_bench_webhooks_${process.pid}`;
    const admin = new pg.Client({ connectionString: options.postgresUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    const open = () => createDatabase({ kind: "postgres", url: url.toString() });
    const db = open();
    try {
      const version = await sql<{ server_version: string }>`show server_version`.execute(db);
      const label = `PostgreSQL ${(version.rows[0]?.server_version ?? "?").replace(/ \(.*\)$/, "")}`;
      for (const servers of [1, 2]) figures.push(await run(db, label, options, servers, open));
    } finally {
      await db.destroy();
      await dropWhenClosed(admin, name);
      await admin.end();
    }
  }
  const rows = figures.map(
    (f) =>
      `| ${f.database} | ${f.servers} | ${f.deliveries.toLocaleString("en-GB")} | ${f.seconds.toFixed(1)} | ${Math.round(f.perSecond).toLocaleString("en-GB")} | ${Math.round(f.enqueuePerSecond).toLocaleString("en-GB")} | ${f.verified ? "yes" : "NO"} |`,
  );
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const body = [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`${["npm run bench -- webhooks", ...argv].join(" ")}\` on ${cpu} (${os.cpus().length} cores), Node ${process.version}; load average at the end ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" / ")}.`,
    `${options.events.toLocaleString("en-GB")} events (one transaction each) over ${options.submissions} submissions to ${options.endpoints} endpoint(s) on a receiver at 127.0.0.1 that checks every signature; then delivery passes until the queue is empty. Whole run: ${((performance.now() - began) / 1000).toFixed(0)} s.`,
    "",
    "| Database | Servers delivering | Deliveries | Seconds | Deliveries / s | Events written / s | Every signature verified |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...rows,
  ].join("\n");
  console.log(`\n${body}`);
  if (options.write) writeBenchSection("webhooks", body);
}

/** Drops the bench's database once the pools' connections have gone. */
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

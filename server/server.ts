import "./runtime-check.js";
import type { Server, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { isWorker, runWorkers, tellPrimaryStoppedListening, workerNumber } from "./workers.js";

/**
 * The process entry point: validate configuration before touching anything; with ETS_WORKERS
 * above 1, start that many worker processes, each running the rest (server/workers.ts). A server
 * (the single process, or each worker) opens the database, migrates it and bootstraps under the
 * start-up lock (one server at a time, server/db/startup-lock.ts), listens, and on SIGTERM/SIGINT
 * shuts down gracefully (docs/decisions/008-several-servers.md): stop taking connections at once,
 * let the requests in flight finish until the deadline (ETS_SHUTDOWN_DEADLINE_SECONDS), stop the
 * background work, close the database, exit 0.
 */

/**
 * A client gets this long to send its request's headers. Real clients send them in one packet;
 * a client that dribbles them (slowloris) holds a connection and a socket for nothing. Node checks
 * every 30 s, so such a client is cut within 20 to 50 s instead of Node's default 60 to 90.
 */
const HEADERS_TIMEOUT_MS = 20_000;
/**
 * How long an idle keep-alive connection is kept. Longer than nginx's upstream keepalive_timeout
 * (60 s), so the proxy always closes an idle connection first and never sends a request down one
 * this server is closing at that moment (a request lost on the wire, retried only if idempotent).
 */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/**
 * The whole request, body included, must arrive within the time the largest allowed upload takes
 * at this speed: a thesis of ETS_MAX_THESIS_MB on a poor 1 Mbit/s uplink (100 MB: 14 minutes),
 * and never less than 5 minutes. Beyond it a client is too slow to be served, or is not trying.
 */
const SLOWEST_UPLOAD_BITS_PER_SECOND = 1_000_000;
const MIN_REQUEST_TIMEOUT_MS = 5 * 60_000;
/** After the deadline has cut the requests left, how long closing the rest may still take. */
const CLOSE_AFTER_DEADLINE_MS = 5_000;

function requestTimeoutMs(config: Pick<Config, "maxThesisBytes">): number {
  const slowestUploadMs =
    Math.ceil((config.maxThesisBytes * 8) / SLOWEST_UPLOAD_BITS_PER_SECOND) * 1000;
  return Math.max(MIN_REQUEST_TIMEOUT_MS, slowestUploadMs);
}

/**
 * What the start was doing, for the line a failed start prints: "database is locked" alone does
 * not say whether opening the file, the start-up duties or the jobs at listen met the lock.
 */
let startPhase = "reading the configuration";

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ETS Tracking cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const where = config.database.kind === "sqlite" ? config.database.path : "PostgreSQL";
  if (config.workers > 1 && !isWorker()) {
    const noSmtp = config.smtpUrl ? "" : `\n${NO_SMTP_MESSAGE}`;
    runWorkers({
      workers: config.workers,
      entry: fileURLToPath(import.meta.url),
      shutdownDeadlineMs: config.shutdownDeadlineMs,
      readyMessage: `ETS Tracking is running at ${config.publicUrl} (database: ${where}; ${config.workers} worker processes)${noSmtp}`,
    });
    return;
  }

  // A signal before the server listens is answered once it does: stopping halfway through a
  // migration would leave the schema half changed (SQLite's migrations have no transaction).
  let close: ((signal: string) => Promise<void>) | null = null;
  let signalledEarly: string | null = null;
  const onSignal = (signal: string) => {
    if (close) void close(signal);
    else signalledEarly ??= signal;
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));

  // Loaded here, not at the top: a primary of workers runs none of it, and starts them sooner.
  const [{ buildApp }, { createDatabase, migrateToLatest }, { withStartupLock }, { bootstrap }] =
    await Promise.all([
      import("./app.js"),
      import("./db/database.js"),
      import("./db/startup-lock.js"),
      import("./bootstrap.js"),
    ]);
  startPhase = "opening the database";
  const db = createDatabase(config.database);
  startPhase = "building the app";
  // Built before the duties (it reads nothing until it is ready), so servers starting together
  // hold the lock only for the duties themselves.
  const app = await buildApp(config, { db });
  startPhase = "the start-up duties (migrations, first administrator, sample data)";
  await withStartupLock(config.database, db, async () => {
    await migrateToLatest(db);
    // Only the first worker gives the hint about a missing administrator: once is enough.
    await bootstrap(app, { hints: workerNumber() === 1 });
  });
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  app.server.requestTimeout = requestTimeoutMs(config);
  app.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const inFlight = trackResponses(app.server);
  // Resolved when the last connection has ended after a shutdown began.
  let drained: Promise<void> = Promise.resolve();
  // Fastify runs onClose hooks after its own server close, which returns at once here (the
  // listener is already closed), so the database waits for the requests still running on it.
  app.addHook("onClose", async () => {
    await drained;
    await db.destroy();
  });

  let closing = false;
  close = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Refuse new connections now (a proxy sends the next request to another server); Node also
    // closes the idle keep-alive connections. The callback comes when the last connection ends.
    // A worker's listener is the primary's shared port: the primary closes it when every worker
    // has closed its own, and says so (server/workers.ts).
    drained = new Promise((resolve) => app.server.close(() => resolve()));
    tellPrimaryStoppedListening();
    inFlight.finishing();
    app.log.info(
      { signal, inFlight: inFlight.count(), deadlineMs: config.shutdownDeadlineMs },
      isWorker()
        ? "worker: no new connections; finishing its requests in flight"
        : "shutting down: no new connections; finishing the requests in flight",
    );
    const deadline = setTimeout(() => {
      app.log.warn(
        { cut: inFlight.count() },
        "shutdown deadline reached: cutting the requests still in flight",
      );
      app.server.closeAllConnections();
      setTimeout(() => process.exit(1), CLOSE_AFTER_DEADLINE_MS).unref();
    }, config.shutdownDeadlineMs);
    deadline.unref();
    try {
      // New requests on connections still open get 503; the mail worker and the periodic jobs
      // finish their pass and release their leases; then the database closes (above).
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
    clearTimeout(deadline);
    process.exit(0);
  };

  startPhase = "starting to listen (the mail worker and the periodic jobs start here)";
  await app.listen({ port: config.port, host: config.host });
  if (signalledEarly !== null) return void close(signalledEarly);
  // A worker's primary says this once for all of them.
  if (isWorker()) return;
  console.log(`ETS Tracking is running at ${config.publicUrl} (database: ${where})`);
  if (!config.smtpUrl) console.log(NO_SMTP_MESSAGE);
}

// The mail worker (registered in app.ts, started when the app is ready) logs instead of sending.
const NO_SMTP_MESSAGE = "No SMTP_URL is set: mail, sign-up codes included, is written to the log.";

/**
 * The responses not yet sent. Once the server is finishing, each of them (and any later one)
 * closes its connection when sent: a keep-alive connection left idle would otherwise hold the
 * shutdown until its keep-alive timeout.
 */
function trackResponses(server: Server) {
  const open = new Set<ServerResponse>();
  let finishing = false;
  const closeWhenSent = (res: ServerResponse) => {
    if (!res.headersSent) {
      res.setHeader("connection", "close");
      return;
    }
    // Already streaming (a download): its connection is idle once the body is sent.
    res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
  };
  server.on("request", (_request, res: ServerResponse) => {
    if (finishing) return closeWhenSent(res);
    open.add(res);
    res.once("close", () => open.delete(res));
  });
  return {
    count: () => open.size,
    finishing: () => {
      finishing = true;
      for (const res of open) closeWhenSent(res);
    },
  };
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  console.error(
    `ETS Tracking failed to start while ${startPhase}: ${message}` +
      (typeof code === "string" ? ` (${code})` : ""),
  );
  process.exit(1);
});

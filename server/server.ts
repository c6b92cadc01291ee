import "./runtime-check.js";
import type { Server, ServerResponse } from "node:http";
import { buildApp } from "./app.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { createDatabase, migrateToLatest } from "./db/database.js";
import { bootstrap } from "./bootstrap.js";

/**
 * The process entry point: validate configuration before touching anything, open and migrate the
 * database, bootstrap, listen, and on SIGTERM/SIGINT shut down gracefully
 * (docs/decisions/008-several-servers.md): stop taking connections at once, let the requests in
 * flight finish until the deadline (ETS_SHUTDOWN_DEADLINE_SECONDS), stop the background work, close
 * the database, exit 0.
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

  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const app = await buildApp(config, { db });
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
  await bootstrap(app);

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Refuse new connections now (a proxy sends the next request to another server); Node also
    // closes the idle keep-alive connections. The callback comes when the last connection ends.
    drained = new Promise((resolve) => app.server.close(() => resolve()));
    inFlight.finishing();
    app.log.info(
      { signal, inFlight: inFlight.count(), deadlineMs: config.shutdownDeadlineMs },
      "shutting down: no new connections; finishing the requests in flight",
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
  process.on("SIGTERM", () => void close("SIGTERM"));
  process.on("SIGINT", () => void close("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  const where = config.database.kind === "sqlite" ? config.database.path : "PostgreSQL";
  console.log(`ETS Tracking is running at ${config.publicUrl} (database: ${where})`);
  if (!config.smtpUrl) {
    // The mail worker (registered in app.ts, started when the app is ready) logs instead of sending.
    console.log("No SMTP_URL is set: mail, sign-up codes included, is written to the log.");
  }
}

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
  console.error(
    `ETS Tracking failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

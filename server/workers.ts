import cluster, { type Worker } from "node:cluster";

/**
 * ETS_WORKERS server processes on one machine (docs/decisions/017-workers-on-one-machine.md):
 * this primary process starts them with Node's cluster module, which shares the listening port
 * among them, and watches them. It opens no database and serves no request. Each worker is a
 * whole server (server.ts): it takes its turn at the start-up duties (db/startup-lock.ts), then
 * serves; the workers share everything else through the database, as several servers do
 * (docs/decisions/008-several-servers.md).
 *
 * - Start: ready when every worker listens; it then says where ETS Tracking runs. A worker that
 *   ends before that is a failed start: the others are stopped and the primary exits 1.
 * - A worker that ends later (a crash, an out-of-memory kill) is replaced after a second; the
 *   others go on serving.
 * - SIGTERM or SIGINT: passed to every worker, which shuts down as a single server does (no new
 *   connections, the requests in flight finished, the background work ended). Once every worker
 *   has stopped taking connections the primary says so; the port is closed then. The primary
 *   exits 0 when every worker has exited 0, otherwise 1; a worker still running 10 s after its
 *   own deadline (ETS_SHUTDOWN_DEADLINE_SECONDS plus its 5 s) is killed, and the primary exits 1.
 */

/** What a worker tells the primary once it has closed its listener, during a shutdown. */
const STOPPED_LISTENING = "ets:stopped-listening";

/** In a worker: tells the primary this worker takes no new connections. Nothing elsewhere. */
export function tellPrimaryStoppedListening(): void {
  if (cluster.isWorker) process.send?.({ ets: STOPPED_LISTENING });
}

/** Whether this process is a worker of a primary (then the primary speaks for the server). */
export function isWorker(): boolean {
  return cluster.isWorker;
}

/** The worker's number, 1 for the first one started; 1 in a single process. */
export function workerNumber(): number {
  return cluster.worker?.id ?? 1;
}

export interface WorkersOptions {
  workers: number;
  /** The server's entry file, run by each worker. */
  entry: string;
  shutdownDeadlineMs: number;
  /** Printed once every worker listens. */
  readyMessage: string;
}

const REPLACE_AFTER_MS = 1000;
/** After a worker's own deadline and its 5 s to close, how long the primary still waits. */
const KILL_AFTER_DEADLINE_MS = 10_000;

export function runWorkers(options: WorkersOptions): void {
  cluster.setupPrimary({ exec: options.entry });
  let phase: "starting" | "running" | "stopping" = "starting";
  let failed = false;
  const listening = new Set<number>();
  const stoppedListening = new Set<number>();
  let announcedStop = false;

  const fork = () => cluster.fork();
  for (let i = 0; i < options.workers; i += 1) fork();

  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);

  cluster.on("listening", (worker) => {
    listening.add(worker.id);
    if (phase === "starting" && listening.size === options.workers) {
      phase = "running";
      console.log(options.readyMessage);
    }
  });

  cluster.on("message", (worker, message: unknown) => {
    if ((message as { ets?: unknown } | null)?.ets !== STOPPED_LISTENING) return;
    stoppedListening.add(worker.id);
    announceStopWhenClosed();
  });

  // Every worker that listened has closed its listener: the primary's shared port is closed too
  // (Node closes it with the last worker's), so a new connection is refused from now on.
  function announceStopWhenClosed(): void {
    if (phase !== "stopping" || announcedStop) return;
    const open = live().filter((w) => listening.has(w.id) && !stoppedListening.has(w.id));
    if (open.length > 0) return;
    announcedStop = true;
    console.log(
      `ETS Tracking is shutting down: no new connections; ${live().length} worker processes finish the requests in flight.`,
    );
  }

  cluster.on("exit", (worker, code, signal) => {
    listening.delete(worker.id);
    if (phase === "stopping") {
      if (code !== 0) failed = true;
      announceStopWhenClosed();
      if (live().length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (phase === "starting") {
      console.error(
        `ETS Tracking could not start: a worker process (PID ${worker.process.pid}) ended with ${how}.`,
      );
      failed = true;
      stop("SIGTERM");
      if (live().length === 0) process.exit(1);
      return;
    }
    console.error(
      `A worker process (PID ${worker.process.pid}) ended with ${how}; starting another in its place.`,
    );
    setTimeout(() => {
      if (phase === "running") fork();
    }, REPLACE_AFTER_MS);
  });

  function stop(signal: NodeJS.Signals): void {
    if (phase === "stopping") return;
    phase = "stopping";
    for (const worker of live()) worker.process.kill(signal);
    setTimeout(() => {
      const left = live();
      console.error(
        `${left.length} worker processes did not stop in time (PIDs ${left.map((w) => w.process.pid).join(", ")}); killing them.`,
      );
      for (const worker of left) worker.process.kill("SIGKILL");
      process.exit(1);
    }, options.shutdownDeadlineMs + KILL_AFTER_DEADLINE_MS).unref();
  }

  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

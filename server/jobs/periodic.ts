import type { FastifyInstance } from "fastify";
import { PROCESS_HOLDER, acquireLease, releaseLease } from "./lease.js";

/**
 * Runs a job every `everyMs` on one server at a time, whichever of the servers sharing the
 * database holds the job's lease (docs/decisions/008-several-servers.md).
 *
 * Every server ticks every third of the lease's lifetime (or every `everyMs` when that is
 * shorter). A tick takes or renews the lease; the holder runs the job when it is due. A holder that
 * dies stops renewing, its lease expires after `ttlMs`, and the next tick of another server takes
 * it and runs the job at once (it cannot know when the dead one last ran it), then every
 * `everyMs`. A server closing gracefully waits for a run in progress, then releases the lease.
 *
 * So a job must be safe to run again early (after a take-over) and should finish well within
 * `ttlMs`: the lease is renewed while it runs, but only while the database answers.
 */
export interface PeriodicJobOptions {
  /** The lease's name: one per job, the same on every server ("housekeeping"). */
  name: string;
  /** How often the job runs, on whichever server holds the lease. */
  everyMs: number;
  /** How long the lease lasts without renewal: the longest a dead holder delays the job. */
  ttlMs: number;
  /** The work. Errors are logged; the next run is still `everyMs` later. */
  job: (now: Date) => Promise<void>;
  /** Who this server is in job_leases; one random id per process unless a test gives its own. */
  holder?: string;
  /** The clock for lease times and due runs; tests pass one they can move. */
  clock?: () => Date;
}

export interface PeriodicJob {
  /**
   * One step, as the timer takes it: take or renew the lease and, if this server holds it and the
   * job is due, run the job; then wait for the run, this one or one already under way. Tests call
   * it with their clock instead of waiting for the timer.
   */
  tick(): Promise<void>;
}

/**
 * Registers the job on the app: the first tick when the app is ready (it does not hold up the
 * start), the timer after it, and on close the wait for a run in progress and the release.
 * Call it while the app is being built, before it is ready.
 */
export function runPeriodically(app: FastifyInstance, options: PeriodicJobOptions): PeriodicJob {
  const { name, everyMs, ttlMs, job } = options;
  if (!(everyMs > 0) || !(ttlMs > 0)) {
    throw new Error(`Periodic job ${name}: everyMs and ttlMs must be positive`);
  }
  const holder = options.holder ?? PROCESS_HOLDER;
  const clock = options.clock ?? (() => new Date());
  const tickEveryMs = Math.max(1, Math.min(everyMs, Math.floor(ttlMs / 3)));
  const log = app.log.child({ job: name });

  let holding = false;
  let lastRunAt: number | null = null;
  let stepping: Promise<void> | null = null;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const run = (now: Date): Promise<void> => {
    lastRunAt = now.getTime();
    // Through then(), so a job that throws before its first await is caught like one that rejects.
    running = Promise.resolve()
      .then(() => job(now))
      .catch((error: unknown) => log.error({ err: error }, "periodic job failed"))
      .finally(() => {
        running = null;
      });
    return running;
  };

  /**
   * Renews or takes the lease and starts the job when due; gives back the run it started, boxed,
   * since a promise returned from an async function would be waited for.
   */
  const step = async (): Promise<{ run: Promise<void> } | null> => {
    const now = clock();
    let held: boolean;
    try {
      held = await acquireLease(app.db, name, holder, ttlMs, now);
    } catch (error) {
      // The database is away: nothing can be known about the lease; try again next tick.
      log.warn({ error: describe(error) }, "could not take or renew the job's lease");
      return null;
    }
    if (!held) {
      if (holding) log.warn("the job's lease passed to another server");
      holding = false;
      // Whoever holds it now runs the job; if it comes back here, this server runs it at once.
      lastRunAt = null;
      return null;
    }
    if (!holding) log.info({ holder }, "this server now runs the job");
    holding = true;
    if (stopped || running) return null;
    if (lastRunAt !== null && now.getTime() - lastRunAt < everyMs) return null;
    return { run: run(now) };
  };

  /** One step at a time: a tick while another is under way waits for that one instead. */
  const takeStep = (): Promise<{ run: Promise<void> } | null> => {
    if (stepping) return stepping.then(() => null);
    const current = step();
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    stepping = settled;
    void settled.finally(() => {
      if (stepping === settled) stepping = null;
    });
    return current;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      // The timer does not wait for the job, so the lease is renewed while a long run goes on.
      void takeStep().finally(schedule);
    }, tickEveryMs);
    timer.unref();
  };

  app.addHook("onReady", async () => {
    await takeStep();
    schedule();
  });
  // preClose, not onClose: the database is closed in onClose, and the run and the release need it.
  app.addHook("preClose", async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await stepping;
    await running;
    try {
      await releaseLease(app.db, name, holder);
    } catch (error) {
      log.warn({ error: describe(error) }, "could not release the job's lease; it will expire");
    }
    holding = false;
  });

  return {
    tick: async () => {
      const started = await takeStep();
      await (started?.run ?? running);
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { recordAudit } from "../accounts/audit.js";
import { nowIso, type Db } from "../db/database.js";
import { runPeriodically, type PeriodicJob } from "../jobs/periodic.js";
import { dayOf, liftEndedEmbargoes } from "./repository.js";

/** The job's name in job_leases: one server at a time lifts the embargoes that ended. */
export const EMBARGO_LIFTING_JOB = "publication-embargo-lifting";
/** How often it looks: an embargo ends on a day, so an hour late at most is soon enough. */
export const EMBARGO_LIFTING_EVERY_MS = 60 * 60 * 1000;
/** The holder's lease: another server takes over within this long when the holder dies. */
const EMBARGO_LEASE_MS = 5 * 60 * 1000;
/** Records lifted per transaction; a run goes on until none is left. */
const LIFT_BATCH = 500;

/**
 * Lifts every embargo whose end day has come (`today` from `now`, UTC): moves the record's
 * datestamp so OAI-PMH harvesters fetch it again and see the files, and writes one audit row per
 * batch. Whether the files are served never waits for this job (`filesArePublic` compares the end
 * day with the reader's clock); the job makes the change visible to harvesters. Safe to run twice:
 * a lifted record is not lifted again. Gives back the ids it lifted.
 */
export async function liftDueEmbargoes(db: Db, now: Date): Promise<number[]> {
  const at = nowIso(now);
  const lifted: number[] = [];
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const ids = await liftEndedEmbargoes(trx, dayOf(at), at, LIFT_BATCH);
      if (ids.length > 0) {
        await recordAudit(
          trx,
          {
            event: "publication.embargo_lifted",
            details: { count: ids.length, submissionIds: ids.slice(0, 50).join(",") },
          },
          now,
        );
      }
      return ids;
    });
    lifted.push(...batch);
    if (batch.length < LIFT_BATCH) return lifted;
  }
}

/**
 * Starts the lifting on this app (once across servers, by the job's lease). Call it while the app
 * is being built; tests pass their own clock and holder and call tick().
 */
export function startEmbargoLifting(
  app: FastifyInstance,
  options: { clock?: () => Date; holder?: string } = {},
): PeriodicJob {
  return runPeriodically(app, {
    name: EMBARGO_LIFTING_JOB,
    everyMs: EMBARGO_LIFTING_EVERY_MS,
    ttlMs: EMBARGO_LEASE_MS,
    ...(options.clock && { clock: options.clock }),
    ...(options.holder && { holder: options.holder }),
    job: async (now) => {
      const lifted = await liftDueEmbargoes(app.db, now);
      if (lifted.length > 0) app.log.info({ count: lifted.length }, "embargoes lifted");
    },
  });
}

/** With the other background work (config.mailWorker, off in tests), hourly on one server. */
export const embargoLifting = fp(
  async (app: FastifyInstance) => {
    if (!app.config.mailWorker) return;
    startEmbargoLifting(app);
  },
  { name: "ets-publication-embargo-lifting" },
);

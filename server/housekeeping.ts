import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { sweepRateLimitCounters } from "./auth/rate-limit-store.js";
import { SESSION_LIMITS } from "./auth/session.js";
import { nowIso, type Db } from "./db/database.js";
import { sweepOrphanFiles } from "./documents/sweep.js";
import { sweepSsoRecords } from "./accounts/sso/requests.js";
import { runPeriodically } from "./jobs/periodic.js";
import { sweepDownloadReaders } from "./publication/downloads.js";
import { CODE_TTL_MS } from "./accounts/codes.js";
import { sweepIdempotencyKeys } from "./submissions/idempotency.js";

/**
 * Removes what has stopped being useful but would still be a secret at rest: sessions past their
 * lifetime or idle timeout, used or expired sign-in codes, and the code inside queued or sent
 * sign-in mails still waiting for the SMTP server once that code has expired (the worker scrubs a
 * delivered one at once). The mail row itself stays (who, when, delivered or not); the waiting
 * mail then goes out saying the code has expired.
 */
export const EXPIRED_CODE_TEXT =
  "This mail carried a sign-in code that has expired before it could be used. " +
  "Ask for a new code on the ETS Tracking sign-in page (Forgot your code? Get a new one).";

export interface SweepReport {
  sessions: number;
  codes: number;
  mails: number;
}

export async function sweepExpiredSecrets(db: Db, now: Date = new Date()): Promise<SweepReport> {
  const at = now.getTime();
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", nowIso(now)),
        eb.and([
          eb("persistent", "=", 0),
          eb("last_seen_at", "<=", nowIso(new Date(at - SESSION_LIMITS.idleMs.session))),
        ]),
        eb.and([
          eb("persistent", "=", 1),
          eb("last_seen_at", "<=", nowIso(new Date(at - SESSION_LIMITS.idleMs.persistent))),
        ]),
      ]),
    )
    .executeTakeFirst();
  const codes = await db
    .deleteFrom("login_codes")
    .where((eb) => eb.or([eb("expires_at", "<=", nowIso(now)), eb("used_at", "is not", null)]))
    .executeTakeFirst();
  const mails = await db
    .updateTable("outbox")
    .set({
      text_body: EXPIRED_CODE_TEXT,
      html_body: null,
      template: JSON.stringify({ name: "sign_in_code", params: { expired: true } }),
    })
    // A delivered or failed one was scrubbed by the mail worker already.
    .where("status", "=", "pending")
    .where("template", "like", '{"name":"sign_in_code",%')
    .where("text_body", "!=", EXPIRED_CODE_TEXT)
    .where("created_at", "<=", nowIso(new Date(at - CODE_TTL_MS)))
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    codes: Number(codes.numDeletedRows),
    mails: Number(mails.numUpdatedRows),
  };
}

/** The job's name in job_leases: one server at a time sweeps. */
export const HOUSEKEEPING_JOB = "housekeeping";
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * How long the sweeping server's lease lasts unless renewed (it renews every third of this): when
 * that server dies, another starts sweeping within about this long.
 */
const SWEEP_LEASE_MS = 5 * 60 * 1000;

/**
 * Sweeps when the app is ready and every hour after, with the other background work
 * (config.mailWorker): expired secrets, request counters whose window has passed, and stored
 * document files no version refers to. Of several servers sharing the database, only the one
 * holding the job's lease sweeps (server/jobs, docs/decisions/008-several-servers.md).
 */
export const housekeeping = fp(
  async (app: FastifyInstance) => {
    if (!app.config.mailWorker) return;
    const sweep = async () => {
      try {
        const report = await sweepExpiredSecrets(app.db);
        if (report.sessions + report.codes + report.mails > 0)
          app.log.info({ report }, "expired secrets removed");
      } catch (error) {
        app.log.error({ err: error }, "housekeeping sweep failed");
      }
      try {
        const counters = await sweepRateLimitCounters(app.db);
        if (counters > 0) app.log.info({ counters }, "request counters past their window removed");
      } catch (error) {
        app.log.error({ err: error }, "request counters sweep failed");
      }
      try {
        const keys = await sweepIdempotencyKeys(app.db);
        if (keys > 0) app.log.info({ keys }, "idempotency keys past their time removed");
      } catch (error) {
        app.log.error({ err: error }, "idempotency keys sweep failed");
      }
      try {
        const sso = await sweepSsoRecords(app.db);
        if (sso.requests + sso.replays > 0)
          app.log.info({ report: sso }, "finished single sign-on records removed");
      } catch (error) {
        app.log.error({ err: error }, "single sign-on records sweep failed");
      }
      try {
        const readers = await sweepDownloadReaders(app.db);
        if (readers > 0) app.log.info({ readers }, "download readers past their minute removed");
      } catch (error) {
        app.log.error({ err: error }, "download readers sweep failed");
      }
      // Apart: a file store that cannot be reached must not hold up the database's sweeps.
      try {
        const files = await sweepOrphanFiles(app.db, app.storage);
        if (files.files + files.stagingFiles > 0)
          app.log.info({ report: files }, "orphaned document files removed");
      } catch (error) {
        app.log.error({ err: error }, "orphaned document files sweep failed");
      }
    };
    runPeriodically(app, {
      name: HOUSEKEEPING_JOB,
      everyMs: SWEEP_INTERVAL_MS,
      ttlMs: SWEEP_LEASE_MS,
      job: sweep,
    });
  },
  { name: "ets-housekeeping" },
);

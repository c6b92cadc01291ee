import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { runPeriodically } from "../jobs/periodic.js";
import { sendDueReminders } from "./reminder-service.js";

/** The job's name in job_leases: one server at a time looks for due reminders. */
export const EXAMINER_REMINDERS_JOB = "examiner-reminders";
/**
 * How long the running server's lease lasts unless renewed (every third of this, or every
 * interval when that is shorter): when that server dies, another takes over within about this
 * long. A run of REMINDER_BATCH_LIMIT examinations takes seconds, well within it.
 */
const REMINDER_LEASE_MS = 5 * 60 * 1000;

/**
 * The reminder scheduler (issue 9): with the other background work (config.mailWorker), every
 * ETS_REMINDER_INTERVAL_SECONDS on whichever server holds the job's lease
 * (docs/decisions/008-several-servers.md). The lease keeps two servers from running it at once;
 * what makes each reminder go exactly once is its unique examiner_reminders row, so a run that
 * overlaps another after a take-over sends nothing twice.
 */
export const examinerReminders = fp(
  async (app: FastifyInstance) => {
    if (!app.config.mailWorker) return;
    runPeriodically(app, {
      name: EXAMINER_REMINDERS_JOB,
      everyMs: app.config.examiners.reminderIntervalMs,
      ttlMs: REMINDER_LEASE_MS,
      job: async (now) => {
        const report = await sendDueReminders(app, now);
        if (report.sent + report.failed > 0) app.log.info({ report }, "examiner reminders sent");
      },
    });
  },
  { name: "ets-examiner-reminders" },
);

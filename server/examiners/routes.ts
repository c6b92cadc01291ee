import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** Administrators' examiner list, nomination, sending, outcome; the student's examination view (issue 9). */
export const examinerRoutes: FastifyPluginAsyncZod = async () => {};

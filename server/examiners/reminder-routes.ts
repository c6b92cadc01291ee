import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** Sending a reminder by hand from the overdue list (issue 9). */
export const reminderRoutes: FastifyPluginAsyncZod = async () => {};

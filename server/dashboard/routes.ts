import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Routes of this feature are registered here (issue in progress).
export const dashboardRoutes: FastifyPluginAsyncZod = async () => {};

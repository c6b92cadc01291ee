import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** The school's review of uploaded documents: accept, return, the zip of current documents. */
export const documentReviewRoutes: FastifyPluginAsyncZod = async () => {};

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** The examiner page's API under /api/examiner, authorised by the link's token (issue 9). */
export const examinerLinkRoutes: FastifyPluginAsyncZod = async () => {};

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isDatabaseReachable } from "../db/database.js";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Whether the server and its database answer",
        response: {
          200: z.object({ status: z.literal("ok"), database: z.literal("ok") }),
          503: z.object({ status: z.literal("unavailable"), database: z.literal("unreachable") }),
        },
      },
    },
    async (_request, reply) => {
      if (await isDatabaseReachable(app.db))
        return { status: "ok" as const, database: "ok" as const };
      return reply
        .code(503)
        .send({ status: "unavailable" as const, database: "unreachable" as const });
    },
  );
};

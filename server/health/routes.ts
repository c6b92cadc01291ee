import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isDatabaseReachable } from "../db/database.js";
import { createReadinessCheck } from "./readiness.js";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        operationId: "getHealth",
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

  const readiness = createReadinessCheck(app.db);
  // Logged when it changes, not on every poll: a load balancer asks every few seconds.
  let wasReady: boolean | null = null;
  app.get(
    "/health/ready",
    {
      schema: {
        tags: ["health"],
        operationId: "getReadiness",
        summary:
          "Whether this server should be sent traffic: its database answers and has every migration applied",
        response: {
          200: z.object({ status: z.literal("ready") }),
          503: z.object({ status: z.literal("unavailable"), reason: z.string() }),
        },
      },
    },
    async (request, reply) => {
      const result = await readiness();
      if (result.ready !== wasReady) {
        if (result.ready) request.log.info("ready for traffic");
        else request.log.warn({ reason: result.reason }, "not ready for traffic");
        wasReady = result.ready;
      }
      if (result.ready) return { status: "ready" as const };
      return reply.code(503).send({ status: "unavailable" as const, reason: result.reason });
    },
  );
};

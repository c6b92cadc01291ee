import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { statsResponseSchema } from "../../common/submissions-api.js";
import { requireAdmin } from "../auth/plugin.js";
import { dashboardStats } from "./service.js";

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/admin/stats",
    {
      config: { tokenScope: "stats:read" },
      preHandler: requireAdmin,
      schema: {
        tags: ["dashboard"],
        operationId: "getStats",
        summary: "Figures for the administrator's dashboard",
        response: { 200: statsResponseSchema },
      },
    },
    async () => dashboardStats(app.db, app.config),
  );
};

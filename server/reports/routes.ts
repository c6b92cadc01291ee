import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { reportFiguresSchema, reportQuerySchema } from "../../common/reports.js";
import { requireAdmin } from "../auth/plugin.js";
import { reportFigures } from "./service.js";


/** The Reports figures (issue 22): administrators, or an API token with the "stats:read" scope. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/admin/reports",
    {
      preHandler: requireAdmin,
      config: { tokenScope: "stats:read" },
      schema: {
        tags: ["reports"],
        operationId: "getReportFigures",
        summary: "Figures from the history: stage times, examiner turnaround, outcomes, throughput",
        querystring: reportQuerySchema,
        response: { 200: reportFiguresSchema },
      },
    },
    async (request) => reportFigures(app.db, request.query, new Date(), app.config),
  );
};

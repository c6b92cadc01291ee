import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import { examinationIdParamsSchema, reminderSchema } from "../../common/examiners.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";
import { presentReminder, sendManualReminder } from "./reminder-service.js";

// The 201 body; common/examiners.ts has the reminder's shape but no response wrapper for it.
const reminderResponseSchema = z.object({ data: reminderSchema });

/** Sending a reminder by hand from the overdue list (issue 9). */
export const reminderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/admin/examinations/:id/remind",
    {
      // onRequest: refused before the params are read, so a student learns nothing here.
      onRequest: requireAdmin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "sendExaminerReminder",
        summary:
          "Mail the examiner a reminder now (409 when the report is in, the link is not working, or a reminder went within the hour)",
        params: examinationIdParamsSchema,
        response: { 201: reminderResponseSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const reminder = await sendManualReminder(app, currentUser(request), request.params.id);
      return reply.code(201).send({ data: presentReminder(reminder) });
    },
  );
};

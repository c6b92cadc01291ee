import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { toStatusView } from "../../common/submission.js";
import { submissionStatusResponseSchema } from "../../common/api.js";
import { currentUser, requireUser } from "../auth/plugin.js";
import { canReadSubmission } from "../auth/policy.js";
import { forbidden, notFound } from "../errors.js";
import { findSubmissionByIndexNumber } from "./repository.js";

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/submissions/:indexNumber",
    {
      preHandler: requireUser,
      schema: {
        tags: ["submissions"],
        summary: "A student's submission status (the prototype's status call)",
        params: z.object({ indexNumber: z.string().trim().min(1).max(40) }),
        response: { 200: submissionStatusResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { indexNumber } = request.params;
      // Checked before the lookup, so a student learns nothing about other index numbers.
      if (!canReadSubmission(user, indexNumber)) throw forbidden();
      const submission = await findSubmissionByIndexNumber(app.db, indexNumber);
      if (!submission) {
        throw notFound(
          "No submission is on file for your index number yet. If you have handed in your thesis, please contact the School of Graduate Studies.",
        );
      }
      return { data: toStatusView(submission) };
    },
  );
};

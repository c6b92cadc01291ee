import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID, errorBodySchema, submissionStatusResponseSchema } from "../../common/api.js";
import {
  bulkUpdateResponseSchema,
  bulkUpdateSchema,
  confirmationRequiredSchema,
  staleVersionSchema,
  submissionEventsResponseSchema,
  submissionInputSchema,
  submissionListQuerySchema,
  submissionListResponseSchema,
  submissionResponseSchema,
  submissionUpdateSchema,
  timelineResponseSchema,
} from "../../common/submissions-api.js";
import {
  currentUser,
  requireAdmin,
  requireUser,
  sessionToken,
  useSession,
} from "../auth/plugin.js";
import { canReadSubmission } from "../auth/policy.js";
import { forbidden, notFound } from "../errors.js";
import { presentEvent, presentSubmission, presentSubmissionPage } from "./presenter.js";
import { countDocumentsToReview } from "./repository.js";
import { readStatusForSession, readSubmissionStatus } from "./status-read.js";
import { schemaSerializerCompiler } from "../http/schema-serializer.js";
import {
  bulkUpdateSubmissions,
  createSubmission,
  getSubmission,
  searchSubmissions,
  submissionEvents,
  submissionTimeline,
  updateSubmission,
} from "./service.js";
import { transferRoutes } from "./transfer-routes.js";
import { integrationRoutes } from "./integration-routes.js";
import { TEXT_BODY_LIMIT } from "../body-limits.js";

const idParams = z.object({ id: z.coerce.number().int().positive().max(MAX_ROW_ID) });
const indexNumberParams = z.object({ indexNumber: z.string().trim().min(1).max(40) });

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/submissions/:indexNumber",
    {
      // The session is read in the same statement as the submission (status-read.ts): the auth
      // hook leaves it to the handler, which answers 401 without a session as requireUser does.
      config: { readsSessionItself: true, tokenScope: "submissions:read" },
      // A status is about 800 bytes, around the API's 1 KB compression threshold (server/app.ts):
      // compressing it would save a few hundred bytes, and the hooks cost every request.
      compress: false,
      // The two hot reads are written straight from their schemas (server/http/schema-serializer.ts).
      serializerCompiler: schemaSerializerCompiler,
      schema: {
        tags: ["submissions"],
        operationId: "getSubmissionStatus",
        summary: "A student's submission status (the prototype's status call)",
        params: indexNumberParams,
        response: { 200: submissionStatusResponseSchema },
      },
    },
    async (request) => {
      const { indexNumber } = request.params;
      const token = sessionToken(request);
      // An API token was checked by the auth hook: only the submission is left to read.
      const read = request.apiToken
        ? { user: request.user, status: await readSubmissionStatus(app.db, indexNumber) }
        : token
          ? await readStatusForSession(app.db, token.value, indexNumber)
          : { user: null, status: null };
      const user = useSession(request, token, read.user);
      // Checked before the status is used, so a student learns nothing about other index numbers.
      if (!canReadSubmission(user, indexNumber)) throw forbidden();
      if (!read.status) {
        throw notFound(
          "No submission is on file for your index number yet. If you have handed in your thesis, please contact the School of Graduate Studies.",
        );
      }
      return { data: read.status };
    },
  );

  app.get(
    "/submissions/:indexNumber/timeline",
    {
      config: { tokenScope: "submissions:read" },
      preHandler: requireUser,
      schema: {
        tags: ["submissions"],
        operationId: "getSubmissionTimeline",
        summary: "Dated milestones of a submission, for its student or an administrator",
        params: indexNumberParams,
        response: { 200: timelineResponseSchema },
      },
    },
    async (request) => ({
      items: await submissionTimeline(app.db, currentUser(request), request.params.indexNumber),
    }),
  );

  app.get(
    "/submissions",
    {
      config: { tokenScope: "submissions:read" },
      preHandler: requireAdmin,
      serializerCompiler: schemaSerializerCompiler,
      schema: {
        tags: ["submissions"],
        operationId: "listSubmissions",
        summary: "Search, filter, sort and page through all submissions",
        querystring: submissionListQuerySchema,
        response: { 200: submissionListResponseSchema },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      return presentSubmissionPage(await searchSubmissions(app.db, request.query), page, pageSize);
    },
  );

  app.post(
    "/submissions",
    {
      config: { tokenScope: "submissions:write" },
      bodyLimit: TEXT_BODY_LIMIT,
      preHandler: requireAdmin,
      schema: {
        tags: ["submissions"],
        operationId: "createSubmission",
        summary: "Add a submission",
        body: submissionInputSchema,
        response: { 201: submissionResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await createSubmission(app, currentUser(request), request.body);
      // A new submission has no uploads yet.
      return reply.code(201).send({ data: presentSubmission(created, 0) });
    },
  );

  app.get(
    "/admin/submissions/:id",
    {
      config: { tokenScope: "submissions:read" },
      preHandler: requireAdmin,
      schema: {
        tags: ["submissions"],
        operationId: "getSubmission",
        summary: "One submission with its version, for editing",
        params: idParams,
        response: { 200: submissionResponseSchema },
      },
    },
    async (request) => {
      const submission = await getSubmission(app.db, request.params.id);
      const toReview = await countDocumentsToReview(app.db, [submission.id]);
      return { data: presentSubmission(submission, toReview.get(submission.id) ?? 0) };
    },
  );

  app.patch(
    "/admin/submissions/:id",
    {
      config: { tokenScope: "submissions:write" },
      bodyLimit: TEXT_BODY_LIMIT,
      preHandler: requireAdmin,
      schema: {
        tags: ["submissions"],
        operationId: "updateSubmission",
        summary: "Edit and advance a submission (optimistic concurrency on version)",
        params: idParams,
        body: submissionUpdateSchema,
        response: {
          200: submissionResponseSchema,
          409: z.union([staleVersionSchema, confirmationRequiredSchema, errorBodySchema]),
        },
      },
    },
    async (request) => {
      const saved = await updateSubmission(
        app,
        currentUser(request),
        request.params.id,
        request.body,
      );
      const toReview = await countDocumentsToReview(app.db, [saved.id]);
      return { data: presentSubmission(saved, toReview.get(saved.id) ?? 0) };
    },
  );

  app.get(
    "/admin/submissions/:id/events",
    {
      config: { tokenScope: "submissions:read" },
      preHandler: requireAdmin,
      schema: {
        tags: ["submissions"],
        operationId: "listSubmissionEvents",
        summary: "Every recorded change of a submission, oldest first, with who made it",
        params: idParams,
        response: { 200: submissionEventsResponseSchema },
      },
    },
    async (request) => ({
      items: (await submissionEvents(app.db, request.params.id)).map(presentEvent),
    }),
  );

  app.post(
    "/admin/submissions/bulk",
    {
      config: { tokenScope: "submissions:write" },
      bodyLimit: TEXT_BODY_LIMIT,
      preHandler: requireAdmin,
      schema: {
        tags: ["submissions"],
        operationId: "bulkUpdateSubmissions",
        summary: "Set a stage or examiner state on many submissions in one transaction",
        body: bulkUpdateSchema,
        response: {
          200: bulkUpdateResponseSchema,
          409: z.union([confirmationRequiredSchema, errorBodySchema]),
        },
      },
    },
    async (request) => {
      const result = await bulkUpdateSubmissions(app, currentUser(request), request.body);
      const toReview = await countDocumentsToReview(
        app.db,
        result.items.map((s) => s.id),
      );
      return {
        updated: result.updated,
        items: result.items.map((s) => presentSubmission(s, toReview.get(s.id) ?? 0)),
      };
    },
  );

  await app.register(transferRoutes);
  await app.register(integrationRoutes);
};

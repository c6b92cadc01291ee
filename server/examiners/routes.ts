import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import { confirmationRequiredSchema } from "../../common/submissions-api.js";
import {
  adminExaminationResponseSchema,
  examinationChangesSchema,
  examinationIdParamsSchema,
  examinerChangesSchema,
  examinerIdParamsSchema,
  examinerInputSchema,
  examinerListQuerySchema,
  examinerListResponseSchema,
  examinerResponseSchema,
  examinerRoleParamsSchema,
  nominationInputSchema,
  outcomeInputSchema,
  sendInputSchema,
  studentExaminationResponseSchema,
} from "../../common/examiners.js";
import { currentUser, requireAdmin, requireUser } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT, TEXT_BODY_LIMIT } from "../body-limits.js";
import { contentDisposition } from "../http/content-disposition.js";
import {
  addExaminer,
  approveCorrectionsAsAdmin,
  changeDueDate,
  changeExaminer,
  getExamination,
  getStudentExamination,
  listExaminerRecords,
  nominateExaminer,
  openReport,
  releaseOutcome,
  revokeLink,
  sendToExaminers,
} from "./service.js";

const indexNumberParams = z.object({ indexNumber: z.string().trim().min(1).max(40) });
const refusals = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * Administrators' examiner list, nomination, sending, due dates, revocation, reports and the
 * outcome; the student's examination view (issue 9). Thin handlers over service.ts. The admin
 * routes check the role on request, before the body or params are validated, so a student or an
 * anonymous caller learns nothing from them.
 */
export const examinerRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireAdmin };

  app.get(
    "/admin/examiners",
    {
      config: { tokenScope: "examinations:read" },
      ...admin,
      schema: {
        tags: ["examiners"],
        operationId: "listExaminers",
        summary: "The examiner list: search (name, email, institution), kind, active; paged",
        querystring: examinerListQuerySchema,
        response: { 200: examinerListResponseSchema },
      },
    },
    async (request) => listExaminerRecords(app, request.query),
  );

  app.post(
    "/admin/examiners",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "createExaminer",
        summary: "Add an examiner (409 when the email is already on the list)",
        body: examinerInputSchema,
        response: { 201: examinerResponseSchema, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await addExaminer(app, currentUser(request), request.body) }),
  );

  app.patch(
    "/admin/examiners/:id",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "updateExaminer",
        summary: "Change an examiner's fields; active false hides them from nomination",
        params: examinerIdParamsSchema,
        body: examinerChangesSchema,
        response: { 200: examinerResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await changeExaminer(app, currentUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    "/admin/submissions/:indexNumber/examination",
    {
      config: { tokenScope: "examinations:read" },
      ...admin,
      schema: {
        tags: ["examiners"],
        operationId: "getExamination",
        summary: "A submission's examination: examiners per role, links, reports, outcome",
        params: indexNumberParams,
        response: { 200: adminExaminationResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await getExamination(app, request.params.indexNumber) }),
  );

  app.put(
    "/admin/submissions/:indexNumber/examiners/:role",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "nominateExaminer",
        summary: "Nominate the internal or external examiner, or replace the current one",
        params: examinerRoleParamsSchema,
        body: nominationInputSchema,
        response: { 200: adminExaminationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await nominateExaminer(
        app,
        currentUser(request),
        request.params.indexNumber,
        request.params.role,
        request.body,
      ),
    }),
  );

  app.post(
    "/admin/submissions/:indexNumber/examination/send",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "sendToExaminers",
        summary: "Mail each examiner their personal link (a named role gets a new link)",
        params: indexNumberParams,
        // A POST without a body (the usual "Send" click) reaches here as null.
        body: sendInputSchema.nullish(),
        response: {
          200: adminExaminationResponseSchema,
          ...refusals,
          409: z.union([confirmationRequiredSchema, errorBodySchema]),
        },
      },
    },
    async (request) => {
      // The tokens are mailed, never answered.
      const { view } = await sendToExaminers(
        app,
        currentUser(request),
        request.params.indexNumber,
        request.body ?? {},
      );
      return { data: view };
    },
  );

  app.post(
    "/admin/examinations/:id/revoke",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "revokeExaminerLink",
        summary: "Stop an examiner's link at once",
        params: examinationIdParamsSchema,
        response: { 200: adminExaminationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await revokeLink(app, currentUser(request), request.params.id),
    }),
  );

  app.patch(
    "/admin/examinations/:id",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "changeExaminationDueDate",
        summary: "Change an examination's due date",
        params: examinationIdParamsSchema,
        body: examinationChangesSchema,
        response: { 200: adminExaminationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await changeDueDate(app, currentUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    "/admin/examinations/:id/report",
    {
      config: { tokenScope: "examinations:read" },
      ...admin,
      // A HEAD would read the whole stored file only to throw it away.
      exposeHeadRoute: false,
      schema: {
        tags: ["examiners"],
        operationId: "getExaminerReport",
        summary: "Read an examiner's report (PDF, inline)",
        produces: ["application/pdf"],
        params: examinationIdParamsSchema,
      },
    },
    async (request, reply) => {
      const { report, stream, size } = await openReport(
        app,
        currentUser(request),
        request.params.id,
        request.log,
      );
      return (
        reply
          .type("application/pdf")
          .header("content-length", size)
          .header("x-content-type-options", "nosniff")
          // As for documents: a PDF needs nothing, and the sandbox keeps a script inside it from
          // running with this site's origin.
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("cache-control", "private, no-store")
          .header("content-disposition", contentDisposition("inline", report.fileName))
          .send(stream)
      );
    },
  );

  app.post(
    "/admin/submissions/:indexNumber/examination/outcome",
    {
      ...admin,
      bodyLimit: TEXT_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "releaseOutcome",
        summary: "Release the outcome to the student once both reports are in",
        params: indexNumberParams,
        body: outcomeInputSchema,
        response: { 200: adminExaminationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await releaseOutcome(
        app,
        currentUser(request),
        request.params.indexNumber,
        request.body,
      ),
    }),
  );

  app.post(
    "/admin/submissions/:indexNumber/examination/corrections/approve",
    {
      ...admin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["examiners"],
        operationId: "approveCorrections",
        summary: "Approve the corrected thesis: Thesis Status becomes Corrections approved",
        params: indexNumberParams,
        response: { 200: adminExaminationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await approveCorrectionsAsAdmin(app, currentUser(request), request.params.indexNumber),
    }),
  );

  app.get(
    "/submissions/:indexNumber/examination",
    {
      config: { tokenScope: "examinations:read" },
      preHandler: requireUser,
      schema: {
        tags: ["examiners"],
        operationId: "getStudentExamination",
        summary:
          "The student's view of the examination: dates and the released outcome, never the examiners",
        params: indexNumberParams,
        response: { 200: studentExaminationResponseSchema },
      },
    },
    async (request) => ({
      data: await getStudentExamination(app, currentUser(request), request.params.indexNumber),
    }),
  );
};

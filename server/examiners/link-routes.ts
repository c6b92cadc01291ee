import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  approveCorrectionsInputSchema,
  examinerAssignmentResponseSchema,
  linkRefusedBodySchema,
} from "../../common/examiners.js";
import { TEXT_BODY_LIMIT } from "../body-limits.js";
import { contentDisposition } from "../http/content-disposition.js";
import { currentLink, guardExaminerLinks } from "./link-auth.js";
import { approveCorrectionsByLink, openAssignment, openThesisForExaminer } from "./link-service.js";
import { readReportForm, submitExaminerReport } from "./report-upload.js";

/** Refusals the link's check answers on every route (link-auth.ts). */
const refusals = { 401: linkRefusedBodySchema, 410: linkRefusedBodySchema };

/**
 * The examiner page's API under /api/examiner, authorised by the link's token (issue 9,
 * link-auth.ts): no account, no cookie. Every answer, a refusal included, is `Cache-Control:
 * no-store` (the page and the thesis must not outlive the visit in a shared browser's cache) and
 * `Referrer-Policy: no-referrer`.
 *
 * No CSRF exemption is needed: the credential is a header, which a cross-site page cannot add
 * (a browser sends `Authorization` cross-site only after a CORS preflight this server never
 * grants), and the auth plugin's Origin check refuses cross-site writes before this plugin runs.
 */
export const examinerLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    // The report's file limit is set per request; the fields are a recommendation and a note.
    limits: { files: 1, fields: 4, parts: 5, fieldSize: 32 * 1024 },
  });
  guardExaminerLinks(app);
  app.addHook("onSend", async (_request, reply, payload) => {
    void reply.header("cache-control", "no-store");
    void reply.header("referrer-policy", "no-referrer");
    return payload;
  });

  app.get(
    "/examiner/assignment",
    {
      // A HEAD would count as an opening of the page.
      exposeHeadRoute: false,
      schema: {
        tags: ["examiner"],
        operationId: "getExaminerAssignment",
        summary: "The examiner's assignment: the thesis, the due date, their report (link token)",
        response: { 200: examinerAssignmentResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await openAssignment(app, currentLink(request), request.ip),
    }),
  );

  app.get(
    "/examiner/thesis",
    {
      // A HEAD would read the whole stored file only to throw it away.
      exposeHeadRoute: false,
      schema: {
        tags: ["examiner"],
        operationId: "downloadExaminerThesis",
        summary: "Download the current thesis PDF; the first download marks it received",
        produces: ["application/pdf"],
      },
    },
    async (request, reply) => {
      const { fileName, stream, size } = await openThesisForExaminer(
        app,
        currentLink(request),
        request.ip,
        request.log,
      );
      return (
        reply
          .type("application/pdf")
          .header("content-length", size)
          .header("x-content-type-options", "nosniff")
          // As for the students' PDFs: a sandbox keeps a script inside the file from running
          // with this site's origin.
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("content-disposition", contentDisposition("attachment", fileName))
          .send(stream)
      );
    },
  );

  app.post(
    "/examiner/report",
    {
      config: {
        // Counted per examination, whichever address the uploads come from.
        rateLimit: {
          max: app.config.rateLimits.uploads.max,
          timeWindow: app.config.rateLimits.uploads.windowMs,
          keyGenerator: (request: FastifyRequest) =>
            request.examinerLink
              ? `examination:${request.examinerLink.examinationId}`
              : `ip:${request.ip}`,
        },
      },
      schema: {
        tags: ["examiner"],
        operationId: "uploadExaminerReport",
        summary:
          "Upload the examiner's report: multipart fields recommendation and note first, then file (PDF)",
        consumes: ["multipart/form-data"],
        response: { 201: examinerAssignmentResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      try {
        const assignment = await submitExaminerReport(app, currentLink(request), {
          openForm: (maxBytes) => readReportForm(request, maxBytes),
          ip: request.ip,
          log: request.log,
        });
        return await reply.code(201).send({ data: assignment });
      } catch (error) {
        // A refused upload may leave most of its body unread: end the connection after the
        // answer rather than read (and discard) up to a hundred megabytes first.
        void reply.header("connection", "close");
        throw error;
      }
    },
  );

  app.post(
    "/examiner/corrections/approve",
    {
      bodyLimit: TEXT_BODY_LIMIT,
      schema: {
        tags: ["examiner"],
        operationId: "examinerApproveCorrections",
        summary: "The internal examiner confirms the corrected thesis",
        body: approveCorrectionsInputSchema.optional(),
        response: { 200: examinerAssignmentResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await approveCorrectionsByLink(app, currentLink(request), request.body?.note ?? null),
    }),
  );
};

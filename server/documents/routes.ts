import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  documentVersionResponseSchema,
  submissionDocumentsResponseSchema,
  thesisDetailsInputSchema,
  thesisDetailsSchema,
} from "../../common/documents.js";
import { MAX_ROW_ID } from "../../common/api.js";
import { DOCUMENTS } from "../../common/workflow.js";
import { currentUser, requireUser } from "../auth/plugin.js";
import { clientFileStream, multipartReadError } from "../files/multipart.js";
import type { IncomingFile } from "../files/upload.js";
import { contentDisposition } from "../http/content-disposition.js";
import type { RateLimit } from "../config.js";
import { presentDocumentVersion, presentSubmissionDocuments } from "./presenter.js";
import {
  getSubmissionDocuments,
  noFileAttached,
  openDocumentFile,
  saveThesisDetails,
  uploadDocument,
} from "./service.js";
import { TEXT_BODY_LIMIT } from "../body-limits.js";

const indexNumberParams = z.object({ indexNumber: z.string().trim().min(1).max(40) });
const itemParams = indexNumberParams.extend({ item: z.enum(DOCUMENTS) });
const idParams = z.object({ id: z.coerce.number().int().positive().max(MAX_ROW_ID) });
const fileQuery = z.object({
  download: z.enum(["0", "1"]).optional().describe("1: as an attachment rather than inline"),
});

/** Uploads counted per account (per client address for a request without one). */
function perAccount(limit: RateLimit) {
  return {
    rateLimit: {
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request: FastifyRequest) =>
        request.user ? `upload:user:${request.user.id}` : `upload:ip:${request.ip}`,
    },
  };
}

/**
 * The student's documents: the checklist as slots with their versions, the thesis title and
 * abstract, uploads, and reading a version's PDF. The school's review is in review-routes.ts.
 * Multipart parsing is registered inside this plugin, for the upload route alone.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    // The route sets the file's own limit per item; these keep everything else small.
    limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });

  app.get(
    "/submissions/:indexNumber/documents",
    {
      config: { tokenScope: "documents:read" },
      preHandler: requireUser,
      schema: {
        tags: ["documents"],
        operationId: "listSubmissionDocuments",
        summary: "A submission's documents: each checklist item, its versions, the thesis details",
        params: indexNumberParams,
        response: { 200: submissionDocumentsResponseSchema },
      },
    },
    async (request) => {
      const { submission, versions } = await getSubmissionDocuments(
        app,
        currentUser(request),
        request.params.indexNumber,
      );
      return { data: presentSubmissionDocuments(submission, versions, app.config) };
    },
  );

  app.put(
    "/submissions/:indexNumber/thesis",
    {
      bodyLimit: TEXT_BODY_LIMIT,
      preHandler: requireUser,
      schema: {
        tags: ["documents"],
        operationId: "saveThesisDetails",
        summary: "Save the thesis title and abstract (the student, or an administrator)",
        params: indexNumberParams,
        body: thesisDetailsInputSchema,
        response: { 200: z.object({ data: thesisDetailsSchema }) },
      },
    },
    async (request) => ({
      data: await saveThesisDetails(
        app,
        currentUser(request),
        request.params.indexNumber,
        request.body,
      ),
    }),
  );

  app.post(
    "/submissions/:indexNumber/documents/:item",
    {
      preHandler: requireUser,
      config: perAccount(app.config.rateLimits.uploads),
      schema: {
        tags: ["documents"],
        operationId: "uploadDocument",
        summary:
          "Upload a new version of a checklist item as a PDF (multipart field file; the student only)",
        consumes: ["multipart/form-data"],
        params: itemParams,
        response: { 201: documentVersionResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        const saved = await uploadDocument(app, currentUser(request), {
          indexNumber: request.params.indexNumber,
          item: request.params.item,
          openFile: (maxBytes) => openFilePart(request, maxBytes),
          ip: request.ip,
          log: request.log,
        });
        return await reply.code(201).send({ data: presentDocumentVersion(saved) });
      } catch (error) {
        // A refused upload may leave most of its body unread: end the connection after the
        // answer rather than read (and discard) up to a hundred megabytes first.
        void reply.header("connection", "close");
        throw error;
      }
    },
  );

  app.get(
    "/documents/:id/file",
    {
      config: { tokenScope: "documents:read" },
      // A HEAD would read the whole stored file only to throw it away.
      exposeHeadRoute: false,
      preHandler: requireUser,
      schema: {
        tags: ["documents"],
        operationId: "getDocumentFile",
        summary: "Read an uploaded PDF (its student or an administrator)",
        produces: ["application/pdf"],
        params: idParams,
        querystring: fileQuery,
      },
    },
    async (request, reply) => {
      const { version, stream, size } = await openDocumentFile(
        app,
        currentUser(request),
        request.params.id,
        request.log,
      );
      const disposition = request.query.download === "1" ? "attachment" : "inline";
      return (
        reply
          .type("application/pdf")
          .header("content-length", size)
          .header("x-content-type-options", "nosniff")
          // Replaces the site's policy for this response: a PDF needs nothing, and a sandbox keeps
          // any script inside it from running with this site's origin.
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("cache-control", "private, no-store")
          .header("content-disposition", contentDisposition(disposition, version.fileName))
          .send(stream)
      );
    },
  );
};

async function openFilePart(request: FastifyRequest, maxBytes: number): Promise<IncomingFile> {
  if (!request.isMultipart()) throw noFileAttached();
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    // One byte over the limit, so the upload pipeline sees the file pass it and refuses it.
    part = await request.file({ limits: { fileSize: maxBytes + 1 } });
  } catch (error) {
    throw multipartReadError(error);
  }
  if (!part || part.fieldname !== "file") throw noFileAttached();
  return { stream: clientFileStream(part.file), clientName: part.filename };
}

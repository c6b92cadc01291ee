import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID, errorBodySchema } from "../../common/api.js";
import {
  documentVersionResponseSchema,
  returnDocumentInputSchema,
} from "../../common/documents.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { presentDocumentVersion } from "./presenter.js";
import { acceptDocument, returnDocument } from "./review.js";
import { documentsZip } from "./zip.js";
import { SMALL_BODY_LIMIT, TEXT_BODY_LIMIT } from "../body-limits.js";

const idParams = z.object({
  id: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .positive("must be positive")
    .max(MAX_ROW_ID, "is larger than any id"),
});

/** The school's review of uploaded documents: accept, return, the zip of current documents. */
export const documentReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: checked before the body or params are validated, so a student learns nothing here.
  app.addHook("onRequest", requireAdmin);

  app.post(
    "/admin/documents/:id/accept",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["documents"],
        operationId: "acceptDocument",
        summary:
          "Accept the current version of a document waiting for review: its checklist item is received today",
        params: idParams,
        response: { 200: documentVersionResponseSchema, 409: errorBodySchema },
      },
    },
    async (request) => ({
      data: presentDocumentVersion(
        await acceptDocument(app, currentUser(request), request.params.id),
      ),
    }),
  );

  app.post(
    "/admin/documents/:id/return",
    {
      bodyLimit: TEXT_BODY_LIMIT,
      schema: {
        tags: ["documents"],
        operationId: "returnDocument",
        summary:
          "Return the current version of a document to the student with a reason (also undoes an acceptance)",
        params: idParams,
        body: returnDocumentInputSchema,
        response: { 200: documentVersionResponseSchema, 409: errorBodySchema },
      },
    },
    async (request) => ({
      data: presentDocumentVersion(
        await returnDocument(app, currentUser(request), request.params.id, request.body),
      ),
    }),
  );

  app.get(
    "/admin/submissions/:id/documents.zip",
    {
      config: { tokenScope: "documents:read" },
      schema: {
        tags: ["documents"],
        operationId: "downloadSubmissionDocuments",
        summary: "Every current document of a submission in one zip (404 when none was uploaded)",
        produces: ["application/zip"],
        params: idParams,
      },
    },
    async (request, reply) => {
      const zip = await documentsZip(app.db, app.storage, request.params.id);
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="${zip.fileName}"`)
        .header("cache-control", "private, no-store")
        .send(zip.stream);
    },
  );
};

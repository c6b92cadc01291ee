import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import {
  importPreviewSchema,
  importRejectedSchema,
  importResultSchema,
  submissionExportQuerySchema,
} from "../../common/submissions-api.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { validationError } from "../errors.js";
import { multipartReadError } from "../files/multipart.js";
import { exportSubmissions } from "./export.js";
import { applyImport, previewImport } from "./import.js";

/** The largest spreadsheet accepted: about 40,000 rows of CSV. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Spreadsheet import and export. Multipart parsing is registered here, inside this plugin, so no
 * other route accepts uploads.
 */
export const transferRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });

  const importSchema = (summary: string) => ({
    tags: ["import"],
    summary,
    consumes: ["multipart/form-data"],
  });

  app.post(
    "/admin/import/preview",
    {
      preHandler: requireAdmin,
      schema: {
        ...importSchema("Check a CSV or XLSX file of records and say what importing it would do"),
        response: { 200: importPreviewSchema },
      },
    },
    async (request) => previewImport(app.db, await uploadedFile(request)),
  );

  app.post(
    "/admin/import/apply",
    {
      preHandler: requireAdmin,
      schema: {
        ...importSchema("Import a CSV or XLSX file of records: all rows or none"),
        // Other 400s (no file attached) carry the usual error body.
        response: {
          200: importResultSchema,
          400: z.union([importRejectedSchema, errorBodySchema]),
        },
      },
    },
    async (request) => applyImport(app, currentUser(request), await uploadedFile(request)),
  );

  app.get(
    "/admin/export",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["import"],
        summary: "Download the listed submissions (same filters as the list) as CSV or XLSX",
        querystring: submissionExportQuerySchema,
      },
    },
    async (request, reply) => {
      const file = exportSubmissions(app.db, request.query);
      return reply
        .type(file.contentType)
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("cache-control", "no-store")
        .send(file.body);
    },
  );
};

/** The bytes of the multipart field "file"; over IMPORT_MAX_BYTES answers 413. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  const missing = validationError(
    "file",
    "Attach the spreadsheet (CSV or XLSX) as a form upload named file.",
  );
  if (!request.isMultipart()) throw missing;
  try {
    const file = await request.file();
    if (!file || file.fieldname !== "file") throw missing;
    // Throws the plugin's 413 error when the file passes the size limit.
    return await file.toBuffer();
  } catch (error) {
    throw multipartReadError(error);
  }
}

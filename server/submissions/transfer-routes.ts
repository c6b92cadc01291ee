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
import { EXPORT_COMPRESSION } from "../http/compression.js";
import { validationError } from "../errors.js";
import { clientFileStream, multipartReadError } from "../files/multipart.js";
import { exportForDownload } from "./export.js";
import { applyImport, previewImport, type ImportFile } from "./import.js";

/**
 * The largest spreadsheet accepted. SHEET_LIMITS.maxRows (50,000) decides how many rows are read;
 * this only has to let such a file in. An exported row is about 140 bytes (the bulk benchmark's
 * rows: 6.8 MB for 50,000), one with every date, examiner state and a long programme name about
 * 250; 20 MB leaves room for 50,000 rows of 400 bytes. A CSV is parsed as it arrives and never
 * held whole, so the limit costs no memory; an XLSX is held whole, and 20 MB of it is bounded
 * again by the zip guard's limits on what it unpacks to.
 */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

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
      config: { tokenScope: "submissions:write" },
      preHandler: requireAdmin,
      schema: {
        ...importSchema("Check a CSV or XLSX file of records and say what importing it would do"),
        operationId: "previewImport",
        response: { 200: importPreviewSchema },
      },
    },
    async (request) => previewImport(app.db, await uploadedFile(request)),
  );

  app.post(
    "/admin/import/apply",
    {
      config: { tokenScope: "submissions:write" },
      preHandler: requireAdmin,
      schema: {
        ...importSchema("Import a CSV or XLSX file of records: all rows or none"),
        operationId: "applyImport",
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
      config: { tokenScope: "submissions:read" },
      preHandler: requireAdmin,
      compress: EXPORT_COMPRESSION,
      schema: {
        tags: ["import"],
        operationId: "exportSubmissions",
        summary: "Download the listed submissions (same filters as the list) as CSV or XLSX",
        produces: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        querystring: submissionExportQuerySchema,
      },
    },
    async (request, reply) => {
      // Read through a reader of the export's own, released when the body ends or is destroyed,
      // and at the latest when the answer closes.
      const file = exportForDownload(app.db, request.query);
      reply.raw.once("close", () => void file.release());
      return reply
        .type(file.contentType)
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("cache-control", "no-store")
        .send(file.body);
    },
  );
};

/**
 * The multipart field "file", read as it arrives (never gathered whole): a file past
 * IMPORT_MAX_BYTES ends in the plugin's 413 once the limit is reached, a body cut short in
 * multipartReadError's 400.
 */
async function uploadedFile(request: FastifyRequest): Promise<ImportFile> {
  const missing = validationError(
    "file",
    "Attach the spreadsheet (CSV or XLSX) as a form upload named file.",
  );
  if (!request.isMultipart()) throw missing;
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await request.file();
  } catch (error) {
    throw multipartReadError(error);
  }
  if (!part || part.fieldname !== "file") throw missing;
  const file = part.file;
  const tooLarge = request.server.multipartErrors.RequestFileTooLargeError;
  const stream = clientFileStream(file);
  return (async function* () {
    for await (const chunk of stream) yield chunk as Buffer;
    // busboy stops at the limit and ends the part early, marked truncated.
    if (file.truncated) throw new tooLarge();
  })();
}

import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isoDateSchema } from "../../common/publication.js";
import { requireAdmin } from "../auth/plugin.js";
import { validationError } from "../errors.js";
import { contentDisposition } from "../http/content-disposition.js";
import { EXPORT_FORMATS, exportAwarded, exportThesis, type ExportDownload } from "./exports.js";
import { submissionIdOf } from "./deposit-service.js";

const formatParams = z.object({
  format: z.enum(EXPORT_FORMATS, {
    error: `must be one of ${EXPORT_FORMATS.join(", ")}`,
  }),
});
const thesisParams = formatParams.extend({
  indexNumber: z.string().trim().min(1, "is required").max(40, "must be at most 40 characters"),
});
const rangeQuery = z.object({
  awardFrom: isoDateSchema.describe("First award date in the export (YYYY-MM-DD)"),
  awardTo: isoDateSchema.describe("Last award date in the export (YYYY-MM-DD), inclusive"),
});

/**
 * A token may read exports with the submissions:read scope (API tokens, routes' config.tokenScope);
 * given as a constant so the route's config type does not depend on which scopes exist here.
 */
const READ_SCOPE = { tokenScope: "submissions:read" } as const;

/**
 * The library's exports (ADR 026): one published thesis, or every one awarded in a date range,
 * as DSpace Simple Archive Format (zip), MARCXML, ETD-MS or Dublin Core, streamed.
 */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/admin/submissions/:indexNumber/publication/export/:format",
    {
      exposeHeadRoute: false,
      config: READ_SCOPE,
      schema: {
        operationId: "exportPublishedThesis",
        tags: ["publication"],
        summary:
          "One published thesis for the library: saf (DSpace Simple Archive Format zip), marcxml, etdms or dc",
        params: thesisParams,
      },
    },
    async (request, reply) => {
      const submissionId = await submissionIdOf(app.db, request.params.indexNumber);
      const download = await exportThesis(exportDeps(), submissionId, request.params.format);
      return sendDownload(reply, download);
    },
  );

  app.get(
    "/admin/publication/export/:format",
    {
      exposeHeadRoute: false,
      config: READ_SCOPE,
      schema: {
        operationId: "exportPublishedTheses",
        tags: ["publication"],
        summary:
          "Every published thesis awarded in a date range, streamed: saf (zip), marcxml, etdms or dc",
        params: formatParams,
        querystring: rangeQuery,
      },
    },
    async (request, reply) => {
      const { awardFrom, awardTo } = request.query;
      if (awardFrom > awardTo) {
        throw validationError("awardTo", "must be on or after awardFrom");
      }
      const download = await exportAwarded(
        exportDeps(),
        { from: awardFrom, to: awardTo },
        request.params.format,
      );
      return sendDownload(reply, download);
    },
  );

  function exportDeps() {
    return { db: app.db, storage: app.storage, links: app.config };
  }
};

function sendDownload(reply: FastifyReply, download: ExportDownload): FastifyReply {
  return reply
    .header("content-type", download.contentType)
    .header("content-disposition", contentDisposition("attachment", download.fileName))
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(download.stream);
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { reportQuerySchema } from "../../common/reports.js";
import { requireAdmin } from "../auth/plugin.js";
import { validationError } from "../errors.js";
import { EXPORT_COMPRESSION } from "../http/compression.js";
import { contentDisposition } from "../http/content-disposition.js";
import { reportDocumentData } from "./export-data.js";
import { CSV_TYPE, XLSX_TYPE, fileSlug, tableCsv, tablesXlsx } from "./export.js";
import { renderDeanPdf } from "./pdf.js";

/**
 * The Reports page's files (issue 22): every table as CSV or XLSX, and the dean's report as a PDF,
 * for the same filters as GET /api/admin/reports. Administrators only; an API token needs the
 * stats:read scope.
 */

/** The tables an export can name (common/report-tables.ts' ids, and the late reports). */
export const REPORT_TABLE_IDS = [
  "stage-times",
  "examiner-turnaround",
  "examiners",
  "outcomes",
  "corrections",
  "throughput-summary",
  "throughput",
  "late-reports",
] as const;

const exportQuerySchema = reportQuerySchema.safeExtend({
  format: z.enum(["csv", "xlsx"], { error: 'must be "csv" or "xlsx"' }),
  table: z
    .enum(REPORT_TABLE_IDS, { error: `must be one of ${REPORT_TABLE_IDS.join(", ")}` })
    .optional(),
});

/** Read by the API-token check (server/auth): these routes read figures, never change anything. */
const STATS_READ: { tokenScope: "stats:read"; readsSessionItself?: boolean } = {
  tokenScope: "stats:read",
};

const fileName = (
  kind: string,
  figures: { current: { from: string; to: string }; filters: { programme: string | null } },
  extension: string,
) =>
  `ets-${kind}-${fileSlug(figures.filters.programme ?? "all programmes")}-${figures.current.from}-to-${figures.current.to}.${extension}`;

export const reportDocumentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/admin/reports/export",
    {
      preHandler: requireAdmin,
      compress: EXPORT_COMPRESSION,
      config: STATS_READ,
      schema: {
        operationId: "exportReportTable",
        tags: ["reports"],
        summary:
          "Download a Reports table as CSV (table required) or the tables as XLSX (one sheet each, or the one named)",
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, table, ...query } = request.query;
      if (format === "csv" && table === undefined) {
        throw validationError("table", "name the table to export as CSV (one table per file)");
      }
      const now = new Date();
      const data = await reportDocumentData(app.db, query, now, app.config);
      const all = [...data.tables, data.late];
      const chosen = table === undefined ? all : all.filter((t) => t.id === table);
      const first = chosen[0];
      if (first === undefined) throw validationError("table", "no such table");
      const body = format === "csv" ? tableCsv(first) : tablesXlsx(chosen, now);
      return reply
        .type(format === "csv" ? CSV_TYPE : XLSX_TYPE)
        .header(
          "content-disposition",
          contentDisposition("attachment", fileName(table ?? "reports", data.figures, format)),
        )
        .header("cache-control", "no-store")
        .send(body);
    },
  );

  app.get(
    "/admin/reports/dean.pdf",
    {
      preHandler: requireAdmin,
      config: STATS_READ,
      schema: {
        operationId: "getDeanReportPdf",
        tags: ["reports"],
        summary:
          "The dean's report as a PDF: cover with the period and headline figures, charts, tables, late reports",
        querystring: reportQuerySchema,
      },
    },
    async (request, reply) => {
      const now = new Date();
      const data = await reportDocumentData(app.db, request.query, now, app.config);
      const pdf = renderDeanPdf({
        programme: data.figures.filters.programme,
        cohort: data.figures.filters.cohort,
        period: { from: data.figures.current.from, to: data.figures.current.to },
        generatedAt: now,
        headline: data.headline,
        tables: data.tables,
        late: data.late,
      });
      return reply
        .type("application/pdf")
        .header(
          "content-disposition",
          contentDisposition("attachment", fileName("dean-report", data.figures, "pdf")),
        )
        .header("cache-control", "no-store")
        .send(pdf);
    },
  );
};

import { withQuery } from "../../../lib/api-client.js";
import type { paths } from "../../../lib/api-types.js";

/** The contract's download routes (web/lib/api-types.ts): renamed there, these fail the typecheck. */
const EXPORT_ROUTE = "/api/admin/reports/export" satisfies keyof paths;
const DEAN_PDF_ROUTE = "/api/admin/reports/dean.pdf" satisfies keyof paths;

/**
 * The Reports page's filters as the page's address holds them, so a view can be shared: a link
 * opens the same programme, cohort, months and comparison. Only what differs from the defaults is
 * written; the server checks every value (and names the field when one is wrong).
 */
export interface ReportFilters {
  programme: string;
  /** A year, as typed ("" for every cohort). */
  cohort: string;
  /** First and last month, YYYY-MM ("" for the server's default: the last twelve months). */
  from: string;
  to: string;
  compare: boolean;
  examinerPage: number;
}

export const NO_FILTERS: ReportFilters = {
  programme: "",
  cohort: "",
  from: "",
  to: "",
  compare: false,
  examinerPage: 1,
};

export function filtersFromSearch(params: URLSearchParams): ReportFilters {
  const page = Number(params.get("examinerPage"));
  return {
    programme: params.get("programme")?.trim() ?? "",
    cohort: params.get("cohort")?.trim() ?? "",
    from: params.get("from")?.trim() ?? "",
    to: params.get("to")?.trim() ?? "",
    compare: params.get("compare") === "true",
    examinerPage: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The filters as query values: blanks and defaults left out, in a stable order. */
export function filterQuery(filters: ReportFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.programme) query.programme = filters.programme;
  if (filters.cohort) query.cohort = filters.cohort;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.compare) query.compare = "true";
  if (filters.examinerPage > 1) query.examinerPage = String(filters.examinerPage);
  return query;
}

export function searchFromFilters(filters: ReportFilters): URLSearchParams {
  return new URLSearchParams(filterQuery(filters));
}

/** The filters that choose the records and period (not the examiner page): what files use. */
function documentQuery(filters: ReportFilters): Record<string, string> {
  return filterQuery({ ...filters, examinerPage: 1 });
}

/** A table as CSV, or every table (or one) as XLSX. */
export function exportHref(filters: ReportFilters, format: "csv" | "xlsx", table?: string): string {
  return withQuery(EXPORT_ROUTE, {
    ...documentQuery(filters),
    format,
    table,
  });
}

export function deanPdfHref(filters: ReportFilters): string {
  return withQuery(DEAN_PDF_ROUTE, documentQuery(filters));
}

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReportFigures } from "../../../../common/reports.js";
import { api } from "../../../lib/api-client.js";
import { adminKeys } from "../query-keys.js";
import { filterQuery, type ReportFilters } from "./filters.js";

/** GET /api/admin/reports: every figure of the page for the filters. */
export function getReportFigures(filters: ReportFilters, signal?: AbortSignal) {
  return api.get<ReportFigures>("/admin/reports", filterQuery(filters), { signal });
}

export function useReportFigures(filters: ReportFilters) {
  return useQuery({
    queryKey: [...adminKeys.all, "reports", filterQuery(filters)] as const,
    queryFn: ({ signal }) => getReportFigures(filters, signal),
    placeholderData: keepPreviousData,
  });
}

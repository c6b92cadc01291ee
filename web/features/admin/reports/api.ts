import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReportFigures } from "../../../../common/reports.js";
import { api, unwrap } from "../../../lib/api-client.js";
import type { operations } from "../../../lib/api-types.js";
import { adminKeys } from "../query-keys.js";
import { filterQuery, type ReportFilters } from "./filters.js";

type FiguresQuery = NonNullable<operations["getReportFigures"]["parameters"]["query"]>;

/**
 * GET /api/admin/reports: every figure of the page for the filters. The values go as the page's
 * address holds them (a cohort as typed): the server checks each and names the field when one is
 * wrong, so they are passed through rather than converted here.
 */
export function getReportFigures(
  filters: ReportFilters,
  signal?: AbortSignal,
): Promise<ReportFigures> {
  const query = filterQuery(filters) as unknown as FiguresQuery;
  return unwrap(api.GET("/api/admin/reports", { params: { query }, signal }));
}

export function useReportFigures(filters: ReportFilters) {
  return useQuery({
    queryKey: [...adminKeys.all, "reports", filterQuery(filters)] as const,
    queryFn: ({ signal }) => getReportFigures(filters, signal),
    placeholderData: keepPreviousData,
  });
}

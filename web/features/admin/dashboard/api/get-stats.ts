import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StatsResponse } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/stats: the dashboard's figures, counted by the server. */
export function getStats(signal?: AbortSignal): Promise<StatsResponse> {
  return unwrap(api.GET("/api/admin/stats", { signal }));
}

export const statsQueryOptions = queryOptions({
  queryKey: adminKeys.stats(),
  queryFn: ({ signal }) => getStats(signal),
});

export function useStats() {
  return useQuery(statsQueryOptions);
}

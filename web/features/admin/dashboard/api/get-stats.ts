import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StatsResponse } from "../../../../../common/submissions-api.js";
import { api } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/stats: the dashboard's figures, counted by the server. */
export function getStats(signal?: AbortSignal) {
  return api.get<StatsResponse>("/admin/stats", undefined, { signal });
}

export const statsQueryOptions = queryOptions({
  queryKey: adminKeys.stats(),
  queryFn: ({ signal }) => getStats(signal),
});

export function useStats() {
  return useQuery(statsQueryOptions);
}

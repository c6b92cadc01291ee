import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { SubmissionListQuery } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/submissions: one page of the administrator's list, searched and filtered on the server. */
export function getSubmissions(query: SubmissionListQuery, signal?: AbortSignal) {
  return unwrap(api.GET("/api/submissions", { params: { query }, signal }));
}

export function submissionsQueryOptions(query: SubmissionListQuery) {
  return queryOptions({
    queryKey: adminKeys.submissionList(query),
    queryFn: ({ signal }) => getSubmissions(query, signal),
    // Typing a search keeps the previous rows on screen until the new ones arrive: no flicker.
    placeholderData: keepPreviousData,
  });
}

export function useSubmissions(query: SubmissionListQuery) {
  return useQuery(submissionsQueryOptions(query));
}

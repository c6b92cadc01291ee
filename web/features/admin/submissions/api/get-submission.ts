import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/submissions/:id: one record, fresh, for the details panel. */
export async function getSubmission(id: number, signal?: AbortSignal): Promise<SubmissionDto> {
  const { data } = await unwrap(
    api.GET("/api/admin/submissions/{id}", { params: { path: { id } }, signal }),
  );
  return data;
}

export function submissionQueryOptions(id: number) {
  return queryOptions({
    queryKey: adminKeys.submission(id),
    queryFn: ({ signal }) => getSubmission(id, signal),
  });
}

/** The list row (when there is one) shows at once; the fresh record replaces it when it arrives. */
export function useSubmission(id: number, fromList?: SubmissionDto) {
  return useQuery({ ...submissionQueryOptions(id), placeholderData: fromList });
}

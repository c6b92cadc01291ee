import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SubmissionEvent } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/submissions/:id/events: the record's history, for the panel's timeline. */
export async function getSubmissionEvents(
  id: number,
  signal?: AbortSignal,
): Promise<SubmissionEvent[]> {
  const { items } = await unwrap(
    api.GET("/api/admin/submissions/{id}/events", { params: { path: { id } }, signal }),
  );
  return items;
}

export function submissionEventsQueryOptions(id: number) {
  return queryOptions({
    queryKey: adminKeys.submissionEvents(id),
    queryFn: ({ signal }) => getSubmissionEvents(id, signal),
  });
}

export function useSubmissionEvents(id: number) {
  return useQuery(submissionEventsQueryOptions(id));
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SubmissionStatusResponse } from "../../../../common/api.js";
import { api, unwrap } from "../../../lib/api-client.js";

/** GET /api/submissions/:indexNumber: the prototype's status call, for the signed-in student. */
export function submissionStatusQuery(indexNumber: string) {
  return queryOptions({
    queryKey: ["submission-status", indexNumber],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/submissions/{indexNumber}", { params: { path: { indexNumber } }, signal }),
      ).then((answer): SubmissionStatusResponse["data"] => answer.data),
  });
}

export function useSubmissionStatus(indexNumber: string | null) {
  return useQuery({ ...submissionStatusQuery(indexNumber ?? ""), enabled: indexNumber !== null });
}

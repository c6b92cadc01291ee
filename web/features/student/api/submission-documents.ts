import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SubmissionDocumentsResponse } from "../../../../common/documents.js";
import { api, unwrap } from "../../../lib/api-client.js";

export type SubmissionDocuments = SubmissionDocumentsResponse["data"];

export function submissionDocumentsKey(indexNumber: string) {
  return ["submission-documents", indexNumber] as const;
}

/**
 * GET /api/submissions/:indexNumber/documents: the five checklist items with their versions and
 * the thesis title and abstract. Not parsed again here: the server serializes the answer through
 * the shared schema (submissionDocumentsResponseSchema), so it cannot leave in another shape, and
 * parsing it on the status page would load zod with the page (issue 11), as submission-status.ts
 * avoids too.
 */
export function submissionDocumentsQuery(indexNumber: string) {
  return queryOptions({
    queryKey: submissionDocumentsKey(indexNumber),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/submissions/{indexNumber}/documents", {
          params: { path: { indexNumber } },
          signal,
        }),
      ).then((answer): SubmissionDocuments => answer.data),
  });
}

export function useSubmissionDocuments(indexNumber: string | null) {
  return useQuery({
    ...submissionDocumentsQuery(indexNumber ?? ""),
    enabled: indexNumber !== null,
  });
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  submissionDocumentsResponseSchema,
  type SubmissionDocumentsResponse,
} from "../../../../../common/documents.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

export type SubmissionDocuments = SubmissionDocumentsResponse["data"];

/**
 * GET /api/submissions/:indexNumber/documents: each checklist item with its current upload and
 * earlier versions. Read through the contract's schema, so a reviewer never decides on a
 * half-understood answer.
 */
export async function getSubmissionDocuments(
  indexNumber: string,
  signal?: AbortSignal,
): Promise<SubmissionDocuments> {
  const body = await unwrap(
    api.GET("/api/submissions/{indexNumber}/documents", {
      params: { path: { indexNumber } },
      signal,
    }),
  );
  return submissionDocumentsResponseSchema.parse(body).data;
}

/** Keyed by the submission's id (what decisions invalidate); the index number is only the address. */
export function submissionDocumentsQueryOptions(submissionId: number, indexNumber: string) {
  return queryOptions({
    queryKey: [...adminKeys.submissionDocuments(submissionId), indexNumber] as const,
    queryFn: ({ signal }) => getSubmissionDocuments(indexNumber, signal),
  });
}

export function useSubmissionDocuments(submissionId: number, indexNumber: string) {
  return useQuery(submissionDocumentsQueryOptions(submissionId, indexNumber));
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  submissionDocumentsResponseSchema,
  type SubmissionDocumentsResponse,
} from "../../../../common/documents.js";
import { api } from "../../../lib/api-client.js";

export type SubmissionDocuments = SubmissionDocumentsResponse["data"];

export function submissionDocumentsKey(indexNumber: string) {
  return ["submission-documents", indexNumber] as const;
}

/**
 * GET /api/submissions/:indexNumber/documents: the five checklist items with their versions and
 * the thesis title and abstract. Parsed with the shared schema, so a reply of the wrong shape is
 * a load error the page can show, not a crash deep inside a row.
 */
export function submissionDocumentsQuery(indexNumber: string) {
  return queryOptions({
    queryKey: submissionDocumentsKey(indexNumber),
    queryFn: async ({ signal }) => {
      const answer = await api.get<unknown>(
        `/submissions/${encodeURIComponent(indexNumber)}/documents`,
        undefined,
        { signal },
      );
      return submissionDocumentsResponseSchema.parse(answer).data;
    },
  });
}

export function useSubmissionDocuments(indexNumber: string | null) {
  return useQuery({
    ...submissionDocumentsQuery(indexNumber ?? ""),
    enabled: indexNumber !== null,
  });
}

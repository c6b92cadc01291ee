import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  documentVersionResponseSchema,
  type DocumentVersion,
  type ReturnDocumentInput,
} from "../../../../../common/documents.js";
import { ApiError, api, unwrap } from "../../../../lib/api-client.js";
import { refreshAfterReview } from "./review-decision.js";

/**
 * POST /api/admin/documents/:id/return with the reason the student will read in full (message
 * and email); they upload a new version. Also undoes an acceptance.
 */
export async function returnDocument(
  versionId: number,
  input: ReturnDocumentInput,
): Promise<DocumentVersion> {
  const body = await unwrap(
    api.POST("/api/admin/documents/{id}/return", {
      params: { path: { id: versionId } },
      body: input,
    }),
  );
  return documentVersionResponseSchema.parse(body).data;
}

export function useReturnDocument(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ versionId, input }: { versionId: number; input: ReturnDocumentInput }) =>
      returnDocument(versionId, input),
    onSettled: (_saved, error) => {
      // A 400 on the reason changed nothing on the server: the dialog stays open, no refetch.
      if (error instanceof ApiError && error.status === 400) return;
      refreshAfterReview(queryClient, submissionId);
    },
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  documentVersionResponseSchema,
  type DocumentVersion,
} from "../../../../../common/documents.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { refreshAfterReview } from "./review-decision.js";

/**
 * POST /api/admin/documents/:id/accept: the checklist item is received today. 409 when the
 * version is no longer current or no longer waits for review (the server's message says which).
 */
export async function acceptDocument(versionId: number): Promise<DocumentVersion> {
  const body = await unwrap(
    api.POST("/api/admin/documents/{id}/accept", { params: { path: { id: versionId } } }),
  );
  return documentVersionResponseSchema.parse(body).data;
}

export function useAcceptDocument(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptDocument,
    // A refusal also refreshes: it means the panel was showing an outdated state.
    onSettled: () => refreshAfterReview(queryClient, submissionId),
  });
}

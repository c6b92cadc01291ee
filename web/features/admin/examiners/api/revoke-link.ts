import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../../lib/api-client.js";
import { refreshAfterExaminationChange } from "./examination-refresh.js";

/**
 * POST /api/admin/examinations/:id/revoke: the examiner's link stops working at once. Read for its
 * success only: the panel reads the whole view again through the invalidation.
 */
export async function revokeLink(examinationId: number): Promise<void> {
  await unwrap(
    api.POST("/api/admin/examinations/{id}/revoke", { params: { path: { id: examinationId } } }),
  );
}

export function useRevokeLink(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeLink,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

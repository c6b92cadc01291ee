import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api-client.js";
import { examinationView, refreshAfterExaminationChange } from "./examination-refresh.js";

/**
 * POST /api/admin/submissions/:indexNumber/examination/corrections/approve: the administrator
 * confirms the corrected thesis; the Thesis Status becomes "Corrections approved".
 */
export function approveCorrections(input: { indexNumber: string }) {
  return examinationView(
    api.POST("/api/admin/submissions/{indexNumber}/examination/corrections/approve", {
      params: { path: { indexNumber: input.indexNumber } },
    }),
  );
}

export function useApproveCorrections(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveCorrections,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

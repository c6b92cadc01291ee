import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  examinationView,
  refreshAfterExaminationChange,
  submissionPath,
} from "./examination-refresh.js";

/**
 * POST /api/admin/submissions/:indexNumber/examination/corrections/approve: the administrator
 * confirms the corrected thesis; the Thesis Status becomes "Corrections approved".
 */
export function approveCorrections(input: { indexNumber: string }) {
  return examinationView(
    "POST",
    `${submissionPath(input.indexNumber)}/examination/corrections/approve`,
    {},
  );
}

export function useApproveCorrections(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveCorrections,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

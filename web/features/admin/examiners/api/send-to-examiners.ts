import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ExaminerKind } from "../../../../../common/examiners.js";
import {
  examinationView,
  refreshAfterExaminationChange,
  submissionPath,
} from "./examination-refresh.js";

/**
 * POST /api/admin/submissions/:indexNumber/examination/send: without roles, every nominated
 * examiner not sent yet; with roles, a new link for those (the old one stops working).
 */
export function sendToExaminers(input: { indexNumber: string; roles?: ExaminerKind[] }) {
  return examinationView(
    "POST",
    `${submissionPath(input.indexNumber)}/examination/send`,
    input.roles ? { roles: input.roles } : {},
  );
}

export function useSendToExaminers(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendToExaminers,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

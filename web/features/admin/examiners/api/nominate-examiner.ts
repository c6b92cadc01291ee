import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ExaminerKind } from "../../../../../common/examiners.js";
import { api } from "../../../../lib/api-client.js";
import { examinationView, refreshAfterExaminationChange } from "./examination-refresh.js";

/**
 * PUT /api/admin/submissions/:indexNumber/examiners/:role: nominate, or replace the current
 * examiner (whose link stops working at once). Answers with the examination view.
 */
export function nominateExaminer(input: {
  indexNumber: string;
  role: ExaminerKind;
  examinerId: number;
}) {
  return examinationView(
    api.PUT("/api/admin/submissions/{indexNumber}/examiners/{role}", {
      params: { path: { indexNumber: input.indexNumber, role: input.role } },
      body: { examinerId: input.examinerId },
    }),
  );
}

export function useNominateExaminer(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: nominateExaminer,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OutcomeInput } from "../../../../../common/examiners.js";
import { api } from "../../../../lib/api-client.js";
import { examinationView, refreshAfterExaminationChange } from "./examination-refresh.js";

/** POST /api/admin/submissions/:indexNumber/examination/outcome: the student is told at once. */
export function releaseOutcome(input: { indexNumber: string; outcome: OutcomeInput }) {
  return examinationView(
    api.POST("/api/admin/submissions/{indexNumber}/examination/outcome", {
      params: { path: { indexNumber: input.indexNumber } },
      body: input.outcome,
    }),
  );
}

export function useReleaseOutcome(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseOutcome,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

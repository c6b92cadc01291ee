import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ExaminationChanges } from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { refreshAfterExaminationChange } from "./examination-refresh.js";

/**
 * PATCH /api/admin/examinations/:id: a new due date; the scheduled reminders follow it. Read for
 * its success only: the panel reads the whole view again through the invalidation.
 */
export async function changeDueDate(input: {
  examinationId: number;
  changes: ExaminationChanges;
}): Promise<void> {
  await unwrap(
    api.PATCH("/api/admin/examinations/{id}", {
      params: { path: { id: input.examinationId } },
      body: input.changes,
    }),
  );
}

export function useChangeDueDate(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeDueDate,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}

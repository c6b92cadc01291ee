import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  examinerResponseSchema,
  type ExaminerChanges,
  type ExaminerRecord,
} from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/**
 * PATCH /api/admin/examiners/:id: changed fields, or `active: false` to stop offering the examiner
 * for nomination (and `true` to offer them again).
 */
export async function updateExaminer({
  id,
  changes,
}: {
  id: number;
  changes: ExaminerChanges;
}): Promise<ExaminerRecord> {
  const body = await unwrap(
    api.PATCH("/api/admin/examiners/{id}", { params: { path: { id } }, body: changes }),
  );
  return examinerResponseSchema.parse(body).data;
}

export function useUpdateExaminer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateExaminer,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.examiners() });
      // A renamed examiner shows under the new name in the submissions' examination panels.
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissions() });
    },
  });
}

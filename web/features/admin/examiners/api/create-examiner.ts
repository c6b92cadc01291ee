import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  examinerResponseSchema,
  type ExaminerInput,
  type ExaminerRecord,
} from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/examiners: 201 with the new record; 409 when the email is on the list already. */
export async function createExaminer(input: ExaminerInput): Promise<ExaminerRecord> {
  const body = await unwrap(api.POST("/api/admin/examiners", { body: input }));
  return examinerResponseSchema.parse(body).data;
}

/** Refreshes every examiner list, the nomination pickers' included. */
export function useCreateExaminer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExaminer,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.examiners() }),
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SubmissionDto, SubmissionInput } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/submissions: the new_submission form. A duplicate index number answers 409. */
export async function createSubmission(input: SubmissionInput): Promise<SubmissionDto> {
  const { data } = await unwrap(api.POST("/api/submissions", { body: input }));
  return data;
}

export function useCreateSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubmission,
    onSuccess: (created) => {
      queryClient.setQueryData(adminKeys.submission(created.id), created);
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissionLists() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkUpdate, SubmissionDto } from "../../../../../common/submissions-api.js";
import { api } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/submissions/bulk: one stage or examiner state for several submissions. */
export function bulkUpdateSubmissions(update: BulkUpdate) {
  return api.post<{ updated: number; items: SubmissionDto[] }>("/admin/submissions/bulk", update);
}

export function useBulkUpdateSubmissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkUpdateSubmissions,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissions() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

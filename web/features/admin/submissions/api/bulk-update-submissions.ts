import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkUpdate } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/submissions/bulk: one stage or examiner state for several submissions. */
export function bulkUpdateSubmissions(update: BulkUpdate) {
  return unwrap(api.POST("/api/admin/submissions/bulk", { body: update }));
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

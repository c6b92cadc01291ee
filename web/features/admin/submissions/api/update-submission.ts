import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  confirmationRequiredSchema,
  staleVersionSchema,
  type SubmissionDto,
  type SubmissionUpdate,
  type WorkflowMove,
} from "../../../../../common/submissions-api.js";
import { ApiError, api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** PATCH /api/admin/submissions/:id with the version the administrator saw. */
export async function updateSubmission(
  id: number,
  update: SubmissionUpdate,
): Promise<SubmissionDto> {
  const { data } = await unwrap(
    api.PATCH("/api/admin/submissions/{id}", { params: { path: { id } }, body: update }),
  );
  return data;
}

export function useUpdateSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: number; update: SubmissionUpdate }) =>
      updateSubmission(id, update),
    onSuccess: (saved) => {
      // The answer is the saved record: no need to fetch it again, only what lists or counts it.
      queryClient.setQueryData(adminKeys.submission(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissionLists() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissionEvents(saved.id) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

/**
 * The two 409 answers a save can get, read with the API's own schemas:
 * "confirmation_required" (moves that skip or go back; nothing written) and "conflict" (someone
 * else saved first; the answer carries their version).
 */
export type SaveRefusal =
  | { kind: "confirmation_required"; moves: WorkflowMove[]; message: string }
  | { kind: "conflict"; current: SubmissionDto; message: string };

export function readSaveRefusal(error: unknown): SaveRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const confirm = confirmationRequiredSchema.safeParse(error.body);
  if (confirm.success) {
    return {
      kind: "confirmation_required",
      moves: confirm.data.moves,
      message: confirm.data.message,
    };
  }
  const stale = staleVersionSchema.safeParse(error.body);
  if (stale.success)
    return { kind: "conflict", current: stale.data.current, message: stale.data.message };
  return null;
}

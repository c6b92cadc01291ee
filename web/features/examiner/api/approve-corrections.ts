import { useMutation, useQueryClient } from "@tanstack/react-query";
import { examinerAssignmentResponseSchema } from "../../../../common/examiners.js";
import { assignmentKey } from "./assignment.js";
import { examinerJson } from "./examiner-request.js";

/**
 * POST /api/examiner/corrections/approve (the internal examiner, after the student uploaded the
 * corrected thesis). The page then reads the assignment again: the corrections are approved and
 * nothing is left to do.
 */
export function useApproveCorrections(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const answer = await examinerJson(token, "/corrections/approve", {
        method: "POST",
        body: {},
      });
      // The answer's shape is the server's to choose (the assignment, or nothing): the refetch below is the truth.
      const parsed = examinerAssignmentResponseSchema.safeParse(answer);
      return parsed.success ? parsed.data.data : null;
    },
    onSuccess: (assignment) => {
      if (assignment) queryClient.setQueryData(assignmentKey(token), assignment);
      void queryClient.invalidateQueries({ queryKey: assignmentKey(token) });
    },
  });
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  examinerAssignmentResponseSchema,
  type ExaminerAssignment,
} from "../../../../common/examiners.js";
import { ApiError } from "../../../lib/api-client.js";
import { examinerJson } from "./examiner-request.js";

/**
 * GET /api/examiner/assignment: what the examiner's page shows (the server also records that the
 * link was opened). The key holds the token so two links in one tab never share an answer.
 */
export function assignmentKey(token: string) {
  return ["examiner-assignment", token] as const;
}

export function assignmentQuery(token: string) {
  return queryOptions({
    queryKey: assignmentKey(token),
    queryFn: async ({ signal }): Promise<ExaminerAssignment> => {
      const answer = await examinerJson(token, "/assignment", { signal });
      return examinerAssignmentResponseSchema.parse(answer).data;
    },
    // A refused link or a rate limit would only be refused again; a dropped connection is worth one retry.
    retry: (count, error) => error instanceof ApiError && error.isNetworkError && count < 1,
    refetchOnWindowFocus: false,
    staleTime: 30_000,
  });
}

export function useAssignment(token: string | null) {
  return useQuery({ ...assignmentQuery(token ?? ""), enabled: token !== null });
}

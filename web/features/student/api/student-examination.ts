import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  studentExaminationResponseSchema,
  type StudentExamination,
} from "../../../../common/examiners.js";
import { api } from "../../../lib/api-client.js";

export function studentExaminationKey(indexNumber: string) {
  return ["submission-examination", indexNumber] as const;
}

/**
 * GET /api/submissions/:indexNumber/examination: when the thesis went to each examiner and when
 * their reports came in (never who they are), and the outcome once the school releases it. The
 * status page's "Examination" and the thesis row of "Your documents" read the same query.
 */
export function studentExaminationQuery(indexNumber: string) {
  return queryOptions({
    queryKey: studentExaminationKey(indexNumber),
    queryFn: async ({ signal }): Promise<StudentExamination> => {
      const answer = await api.get<unknown>(
        `/submissions/${encodeURIComponent(indexNumber)}/examination`,
        undefined,
        { signal },
      );
      return studentExaminationResponseSchema.parse(answer).data;
    },
  });
}

export function useStudentExamination(indexNumber: string | null) {
  return useQuery({
    ...studentExaminationQuery(indexNumber ?? ""),
    enabled: indexNumber !== null,
  });
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StudentExamination } from "../../../../common/examiners.js";
import { api, unwrap } from "../../../lib/api-client.js";

export function studentExaminationKey(indexNumber: string) {
  return ["submission-examination", indexNumber] as const;
}

/**
 * GET /api/submissions/:indexNumber/examination: when the thesis went to each examiner and when
 * their reports came in (never who they are), and the outcome once the school releases it. The
 * status page's "Examination" and the thesis row of "Your documents" read the same query.
 *
 * Not parsed again here: the server serializes the answer through the shared schema
 * (studentExaminationResponseSchema), and parsing it on the status page would load zod with the
 * page (issue 11), as submission-status.ts avoids too.
 */
export function studentExaminationQuery(indexNumber: string) {
  return queryOptions({
    queryKey: studentExaminationKey(indexNumber),
    queryFn: ({ signal }): Promise<StudentExamination> =>
      unwrap(
        api.GET("/api/submissions/{indexNumber}/examination", {
          params: { path: { indexNumber } },
          signal,
        }),
      ).then((answer) => answer.data),
  });
}

export function useStudentExamination(indexNumber: string | null) {
  return useQuery({
    ...studentExaminationQuery(indexNumber ?? ""),
    enabled: indexNumber !== null,
  });
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  adminExaminationResponseSchema,
  type AdminExaminationResponse,
} from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

export type AdminExamination = AdminExaminationResponse["data"];

/** GET /api/admin/submissions/:indexNumber/examination: both roles, replaced examiners, outcome. */
export async function getExamination(
  indexNumber: string,
  signal?: AbortSignal,
): Promise<AdminExamination> {
  const body = await unwrap(
    api.GET("/api/admin/submissions/{indexNumber}/examination", {
      params: { path: { indexNumber } },
      signal,
    }),
  );
  return adminExaminationResponseSchema.parse(body).data;
}

/** Keyed by the submission's id (what mutations invalidate); the index number is only the address. */
export function examinationQueryOptions(submissionId: number, indexNumber: string) {
  return queryOptions({
    queryKey: [...adminKeys.submissionExamination(submissionId), indexNumber] as const,
    queryFn: ({ signal }) => getExamination(indexNumber, signal),
  });
}

export function useExamination(submissionId: number, indexNumber: string) {
  return useQuery(examinationQueryOptions(submissionId, indexNumber));
}

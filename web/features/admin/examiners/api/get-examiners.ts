import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import {
  examinerListResponseSchema,
  type ExaminerListQuery,
  type ExaminerListResponse,
} from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

export type ExaminerListParams = Partial<ExaminerListQuery>;

/** GET /api/admin/examiners: the school's examiners, searched, filtered and paged by the server. */
export async function getExaminers(
  query: ExaminerListParams,
  signal?: AbortSignal,
): Promise<ExaminerListResponse> {
  const body = await unwrap(
    api.GET("/api/admin/examiners", {
      params: {
        query: {
          q: query.q,
          kind: query.kind,
          active: query.active,
          page: query.page,
          pageSize: query.pageSize,
        },
      },
      signal,
    }),
  );
  return examinerListResponseSchema.parse(body);
}

export function examinersQueryOptions(query: ExaminerListParams) {
  return queryOptions({
    queryKey: adminKeys.examinerList(query),
    queryFn: ({ signal }) => getExaminers(query, signal),
    // A new search keeps the old rows in view until the new ones arrive (no flicker).
    placeholderData: keepPreviousData,
  });
}

export function useExaminers(query: ExaminerListParams, { enabled = true } = {}) {
  return useQuery({ ...examinersQueryOptions(query), enabled });
}

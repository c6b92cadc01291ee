import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  ApiToken,
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenListResponse,
} from "../../../../../common/api-tokens.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

const tokenKeys = {
  all: () => [...adminKeys.all, "api-tokens"] as const,
  page: (page: number) => [...tokenKeys.all(), page] as const,
};

/** GET /api/admin/api-tokens: one page of tokens, newest first. */
export function getApiTokens(page: number, signal?: AbortSignal): Promise<ApiTokenListResponse> {
  return unwrap(
    api.GET("/api/admin/api-tokens", { params: { query: { page, pageSize: 25 } }, signal }),
  );
}

export function useApiTokens(page: number) {
  return useQuery(
    queryOptions({
      queryKey: tokenKeys.page(page),
      queryFn: ({ signal }) => getApiTokens(page, signal),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/admin/api-tokens: the answer carries the token, this once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiTokenCreate): Promise<ApiTokenCreated> =>
      unwrap(api.POST("/api/admin/api-tokens", { body: input })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all() }),
  });
}

/** POST /api/admin/api-tokens/:id/revoke. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<{ data: ApiToken }> =>
      unwrap(api.POST("/api/admin/api-tokens/{id}/revoke", { params: { path: { id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all() }),
  });
}

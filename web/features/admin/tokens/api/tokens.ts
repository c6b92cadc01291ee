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
import { api } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

const tokenKeys = {
  all: () => [...adminKeys.all, "api-tokens"] as const,
  page: (page: number) => [...tokenKeys.all(), page] as const,
};

/** GET /api/admin/api-tokens: one page of tokens, newest first. */
export function getApiTokens(page: number, signal?: AbortSignal) {
  return api.get<ApiTokenListResponse>("/admin/api-tokens", { page, pageSize: 25 }, { signal });
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
    mutationFn: (input: ApiTokenCreate) => api.post<ApiTokenCreated>("/admin/api-tokens", input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all() }),
  });
}

/** POST /api/admin/api-tokens/:id/revoke. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ data: ApiToken }>(`/admin/api-tokens/${id}/revoke`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all() }),
  });
}

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminUser, Role } from "../../../../../common/accounts.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

export interface UserListQuery {
  role: Role;
  q?: string;
}

/** GET /api/admin/users: administrators or students, optionally searched. */
export async function getUsers(query: UserListQuery, signal?: AbortSignal): Promise<AdminUser[]> {
  const { items } = await unwrap(
    api.GET("/api/admin/users", { params: { query: { role: query.role, q: query.q } }, signal }),
  );
  return items;
}

export function usersQueryOptions(query: UserListQuery) {
  return queryOptions({
    queryKey: adminKeys.userList(query),
    queryFn: ({ signal }) => getUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(query: UserListQuery) {
  return useQuery(usersQueryOptions(query));
}

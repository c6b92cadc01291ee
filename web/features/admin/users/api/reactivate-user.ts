import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/users/:id/reactivate: the account may sign in again. */
export function reactivateUser(id: number) {
  return unwrap(api.POST("/api/admin/users/{id}/reactivate", { params: { path: { id } } }));
}

export function useReactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reactivateUser,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

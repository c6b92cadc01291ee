import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/users/:id/deactivate: the account can no longer sign in; its sessions end. */
export function deactivateUser(id: number) {
  return unwrap(api.POST("/api/admin/users/{id}/deactivate", { params: { path: { id } } }));
}

export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateUser,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

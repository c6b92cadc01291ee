import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminUser, NewAdminInput } from "../../../../../common/accounts.js";
import { api } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/users: a new administrator (the prototype's "Super User"). */
export function createAdmin(input: NewAdminInput) {
  return api.post<{ success: true; message: string; user: AdminUser }>("/admin/users", input);
}

export function useCreateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAdmin,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

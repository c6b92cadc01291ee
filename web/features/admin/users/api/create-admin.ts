import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NewAdminInput } from "../../../../../common/accounts.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** POST /api/admin/users: a new administrator (the prototype's "Super User"). */
export function createAdmin(input: NewAdminInput) {
  return unwrap(api.POST("/api/admin/users", { body: input }));
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

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChangePasswordInput, SuccessMessage } from "../../../../common/accounts.js";
import { api, unwrap } from "../../../lib/api-client.js";
import { meQuery } from "../../../lib/session.js";

/** POST /api/change_password. Afterwards the account has a password, so /api/me changes. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput): Promise<SuccessMessage> =>
      unwrap(api.POST("/api/change_password", { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}

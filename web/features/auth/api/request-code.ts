import { useMutation } from "@tanstack/react-query";
import type { RequestCodeInput, SuccessMessage } from "../../../../common/accounts.js";
import { api, unwrap } from "../../../lib/api-client.js";

/** POST /api/request_code: always answers the same way, whether or not the account exists. */
export function requestCode(input: RequestCodeInput): Promise<SuccessMessage> {
  return unwrap(api.POST("/api/request_code", { body: input }));
}

export function useRequestCode() {
  return useMutation({ mutationFn: requestCode });
}

import { useMutation } from "@tanstack/react-query";
import type { RequestCodeInput, SuccessMessage } from "../../../../common/accounts.js";
import { api } from "../../../lib/api-client.js";

/** POST /api/request_code: always answers the same way, whether or not the account exists. */
export function requestCode(input: RequestCodeInput): Promise<SuccessMessage> {
  return api.post<SuccessMessage>("/request_code", input);
}

export function useRequestCode() {
  return useMutation({ mutationFn: requestCode });
}

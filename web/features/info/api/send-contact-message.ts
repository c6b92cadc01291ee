import { useMutation } from "@tanstack/react-query";
import type { ContactInput, SuccessMessage } from "../../../../common/accounts.js";
import { api, unwrap } from "../../../lib/api-client.js";

/** POST /api/contact: anyone may write; the School reads it in the admin area. */
export function sendContactMessage(input: ContactInput): Promise<SuccessMessage> {
  return unwrap(api.POST("/api/contact", { body: input }));
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

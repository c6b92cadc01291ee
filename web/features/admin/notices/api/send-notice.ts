import { useMutation } from "@tanstack/react-query";
import type { SendMessage } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";

/** POST /api/admin/messages: a notice to one student (by index number) or to every student. */
export function sendNotice(message: SendMessage) {
  return unwrap(api.POST("/api/admin/messages", { body: message }));
}

export function useSendNotice() {
  return useMutation({ mutationFn: sendNotice });
}

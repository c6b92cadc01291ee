import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "../../../../lib/api-client.js";

/** POST /api/admin/users/:id/resend_code: mails the student a new six-digit sign-in code. */
export function resendCode(id: number) {
  return unwrap(api.POST("/api/admin/users/{id}/resend_code", { params: { path: { id } } }));
}

export function useResendCode() {
  return useMutation({ mutationFn: resendCode });
}

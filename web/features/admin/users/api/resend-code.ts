import { useMutation } from "@tanstack/react-query";
import { api } from "../../../../lib/api-client.js";

/** POST /api/admin/users/:id/resend_code: mails the student a new six-digit sign-in code. */
export function resendCode(id: number) {
  return api.post<{ success: true; message: string }>(`/admin/users/${id}/resend_code`);
}

export function useResendCode() {
  return useMutation({ mutationFn: resendCode });
}

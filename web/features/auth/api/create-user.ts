import { useMutation } from "@tanstack/react-query";
import type { CreateUserInput } from "../../../../common/accounts.js";
import { ApiError, api, unwrap } from "../../../lib/api-client.js";

type CreateUserAnswer = { success: true; message: string } | { success: false; message: string };

/**
 * POST /api/create_user. The server mails the six-digit code itself (the prototype did it from
 * the browser). A `success: false` answer means the account exists, as a 409 does.
 */
export async function createUser(
  input: CreateUserInput,
): Promise<{ success: true; message: string }> {
  // The contract's answer is the success; a `success: false` body is an older server's refusal.
  const answer = (await unwrap(api.POST("/api/create_user", { body: input }))) as CreateUserAnswer;
  if (!answer.success) throw new ApiError(409, "conflict", answer.message);
  return answer;
}

export function useCreateUser() {
  return useMutation({ mutationFn: createUser });
}

import { useMutation } from "@tanstack/react-query";
import type { SignInInput, SignInResponse } from "../../../../common/accounts.js";
import { ApiError, api, unwrap } from "../../../lib/api-client.js";

/** The prototype's answer shape: `success: false` carries the reason in `message`. */
type SignInAnswer = SignInResponse | { success: false; message: string };

/** POST /api/user_sign_in. A `success: false` answer becomes an ApiError like a 401 would. */
export async function signIn(input: SignInInput): Promise<SignInResponse> {
  // The contract's answer is SignInResponse; a `success: false` body is an older server's refusal.
  const answer = (await unwrap(api.POST("/api/user_sign_in", { body: input }))) as SignInAnswer;
  if (!answer.success) throw new ApiError(401, "unauthorized", answer.message);
  return answer;
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

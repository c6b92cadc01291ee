import type { FieldPath, FieldValues, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-client.js";

/**
 * Puts the server's field-level messages (400 `fields: [{ field, message }]`) next to the form's
 * own fields. Returns true when at least one landed, so the caller knows whether the page-level
 * message still has to say what went wrong.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const problem of error.fields) {
    const field = fields.find((name) => name === problem.field);
    if (!field) continue;
    setError(field, { type: "server", message: problem.message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** The message a person should read for a failed call: the server's words when it gave some. */
export function messageFor(error: unknown, fallback: string): string {
  if (error instanceof ApiError && !error.isNetworkError && error.status < 500 && error.message) {
    return error.message;
  }
  return fallback;
}

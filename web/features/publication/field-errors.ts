import { ApiError } from "../../lib/api-client.js";

/**
 * The server's field messages (400 `fields`) by field name, so each input shows its own next to
 * it. "supervisors.0.orcid" stays as it is: the supervisor rows look their own up.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const f of error.fields) out[f.field] ??= f.message;
  return out;
}

/** Props that tie an input to its error message for assistive technology. */
export function errorProps(id: string, message: string | undefined) {
  return message
    ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` }
    : { "aria-invalid": false as const };
}

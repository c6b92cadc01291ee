import { linkRefusedBodySchema } from "../../../../common/examiners.js";
import { EXAMINER_AUTH_SCHEME, type LinkRefusal } from "../../../../common/examiners-constants.js";
import { ApiError, type FieldError } from "../../../lib/api-client.js";
import type { paths } from "../../../lib/api-types.js";

/**
 * The examiner routes of the generated contract (web/lib/api-types.ts), without their
 * /api/examiner prefix: a path the server no longer has fails the typecheck.
 */
export type ExaminerPath = keyof paths extends infer Path
  ? Path extends `/api/examiner${infer Rest}`
    ? Rest
    : never
  : never;

/**
 * The examiner page's one way to call /api/examiner/*: the link's token as
 * `Authorization: Examiner <token>` and never a cookie (an examiner who is also signed in as a
 * student or administrator in this browser acts only through the link). Failures keep the shapes
 * of lib/api-client (ApiError, status 0 for no answer); a refused link becomes a LinkRefusedError
 * carrying the reason and the school's contact, which the page shows as a page of its own.
 */

export class LinkRefusedError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly reason: LinkRefusal,
    readonly schoolContact: string | null,
    body: unknown,
  ) {
    super(status, "link_refused", message, [], body);
    this.name = "LinkRefusedError";
  }
}

export function examinerHeaders(token: string): Record<string, string> {
  return { authorization: `${EXAMINER_AUTH_SCHEME} ${token}` };
}

export function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The error for a non-2xx answer: a refused link, a rate limit, or the server's own message. */
export function examinerApiError(status: number, body: unknown): ApiError {
  const refused = linkRefusedBodySchema.safeParse(body);
  if (refused.success) {
    const { message, reason, schoolContact } = refused.data;
    return new LinkRefusedError(status, message, reason, schoolContact, body);
  }
  const err = (body && typeof body === "object" ? body : {}) as {
    code?: unknown;
    message?: unknown;
    fields?: unknown;
  };
  const code = typeof err.code === "string" ? err.code : "error";
  if (status === 429) {
    return new ApiError(
      status,
      code,
      "Too many attempts from this connection in a short time. Wait a few minutes, then reload the page.",
      [],
      body,
    );
  }
  // A 401 without the refusal's body (a proxy, an old server): still a link that does not open.
  if (status === 401) {
    return new LinkRefusedError(
      status,
      "This examination link is not valid.",
      "invalid",
      null,
      body,
    );
  }
  const message =
    typeof err.message === "string" && err.message && status < 500
      ? err.message
      : "Something went wrong on our side. Please try again in a few minutes.";
  const fields = Array.isArray(err.fields) ? (err.fields as FieldError[]) : [];
  return new ApiError(status, code, message, fields, body);
}

export async function examinerFetch(
  token: string,
  path: ExaminerPath,
  init: { method?: "GET" | "POST"; body?: unknown; signal?: AbortSignal; accept?: string } = {},
): Promise<Response> {
  const method = init.method ?? "GET";
  const headers: Record<string, string> = {
    ...examinerHeaders(token),
    accept: init.accept ?? "application/json",
  };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`/api/examiner${path}`, {
      method,
      credentials: "omit",
      cache: "no-store",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(
      0,
      "network",
      "The page could not reach the server. Check your connection and try again.",
    );
  }
  if (!response.ok) {
    throw examinerApiError(response.status, parseJson(await response.text()));
  }
  return response;
}

/** A JSON call: the parsed body, or one of the errors above. */
export async function examinerJson(
  token: string,
  path: ExaminerPath,
  init: { method?: "GET" | "POST"; body?: unknown; signal?: AbortSignal } = {},
): Promise<unknown> {
  const response = await examinerFetch(token, path, init);
  return parseJson(await response.text());
}

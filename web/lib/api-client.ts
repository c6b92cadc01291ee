/**
 * The one way the web app talks to the server: same-origin fetch with the HttpOnly session
 * cookie, JSON in and out, and every failure turned into an ApiError carrying the server's
 * message (spec section 8 shows the server's message to the user).
 */
export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Network failures (no answer at all) have status 0. */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

type Query = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function apiRequest<T>(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined || isForm
          ? { accept: "application/json" }
          : { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "An error occurred. Please try again.");
  }
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const err = (data ?? {}) as { code?: string; message?: string; fields?: FieldError[] };
    throw new ApiError(
      response.status,
      err.code ?? "error",
      err.message ?? `The server answered ${response.status}. Please try again.`,
      err.fields ?? [],
      data,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Query, init?: { signal?: AbortSignal }) =>
    apiRequest<T>("GET", withQuery(path, query), undefined, init),
  post: <T>(path: string, body?: unknown) => apiRequest<T>("POST", path, body ?? {}),
  patch: <T>(path: string, body: unknown) => apiRequest<T>("PATCH", path, body),
  delete: <T>(path: string) => apiRequest<T>("DELETE", path),
};

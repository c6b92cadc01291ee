import createClient from "openapi-fetch";
import type { paths } from "./api-types.js";

/**
 * The one way the web app talks to the server: same-origin fetch with the HttpOnly session
 * cookie, JSON in and out, and every failure turned into an ApiError carrying the server's
 * message (spec section 8 shows the server's message to the user).
 *
 * Calls go through `api`, an openapi-fetch client typed by web/lib/api-types.ts, which
 * openapi-typescript generates from the server's /api/openapi.json (`npm run api:generate`,
 * docs/decisions/021-api-contract.md): a path, a parameter, a body or an answer that no longer
 * matches the routes fails `npm run typecheck`. `unwrap` turns its answer into the data or an
 * ApiError, as before.
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

type Query = Record<string, unknown>;

function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  return params.toString();
}

/** A path with its query; empty, null and undefined values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const qs = queryString(query);
  return qs ? `${path}?${qs}` : path;
}

/**
 * What openapi-fetch builds in place of a Request: the URL as it is (a same-origin path, which a
 * Request outside a page cannot hold) and the init, handed to fetch as fetch(url, init), the call
 * the app has always made. openapi-fetch reads only `method` from it when no middleware is set.
 */
class PlainRequest {
  readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    this.method = init.method ?? "GET";
  }
}

export const api = createClient<paths>({
  baseUrl: "",
  credentials: "same-origin",
  headers: { accept: "application/json" },
  Request: PlainRequest as unknown as typeof Request,
  // Looked up on every call: tests replace the global fetch after this module has loaded.
  fetch: (request) => {
    const plain = request as unknown as PlainRequest;
    return globalThis.fetch(plain.url, plain.init);
  },
  querySerializer: (query) => queryString(query),
});

/** openapi-fetch's answer: its data on a 2xx, its parsed error body otherwise. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, or an ApiError: the server's own, or status 0 for no answer. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "An error occurred. Please try again.");
  }
  const { response } = answer;
  if (!response.ok) {
    // openapi-fetch parses a JSON error body; an empty or non-JSON one is no body, as before.
    const body = typeof answer.error === "object" ? answer.error : null;
    const err = (body && typeof body === "object" ? body : {}) as {
      code?: string;
      message?: string;
      fields?: FieldError[];
    };
    throw new ApiError(
      response.status,
      err.code ?? "error",
      err.message ?? `The server answered ${response.status}. Please try again.`,
      err.fields ?? [],
      body,
    );
  }
  return (answer.data ?? null) as T;
}

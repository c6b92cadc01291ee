import type { paths } from "./api-types.js";

/**
 * The one way the web app talks to the server: same-origin fetch with the HttpOnly session
 * cookie, JSON in and out, and every failure turned into an ApiError carrying the server's
 * message (spec section 8 shows the server's message to the user).
 *
 * Calls go through `api`, typed by web/lib/api-types.ts, which openapi-typescript generates from
 * the server's /api/openapi.json (`npm run api:generate`, docs/decisions/021-api-contract.md): a
 * path, a parameter, a body or an answer that no longer matches the routes fails
 * `npm run typecheck`. `unwrap` turns its answer into the data or an ApiError.
 *
 * `api` is our own few lines over fetch rather than openapi-fetch (ADR 021, amendment of
 * 2026-11-27): the shell loads it on every page, and the app uses only JSON, path and query
 * parameters, FormData bodies and an abort signal, which openapi-fetch's 6.7 kB (minified) of
 * middleware, serializers and parse modes were mostly carrying for other apps.
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

/** A path with its query; empty, null and undefined values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

// ---------------------------------------------------------------------------------------------
// Types: what a call may send and what it gets, read from the generated `paths`.

type Method = "get" | "put" | "post" | "delete" | "patch";

interface Operation {
  parameters: object;
  responses: object;
}

/** The paths that have an operation for this method (`get?: never` is `undefined`: left out). */
type PathsFor<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends Operation ? P : never;
}[keyof paths];

type OperationAt<P extends keyof paths, M extends Method> = Extract<paths[P][M], Operation>;

/** The keys a caller must give (not optional, not possibly undefined). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** `params: { path, query, header }` as the operation declares them; required when any is. */
type ParamsInit<O extends Operation> =
  RequiredKeys<O["parameters"]> extends never
    ? { params?: O["parameters"] }
    : { params: O["parameters"] };

/**
 * The JSON body the operation takes, required when its requestBody is. A route whose body is not
 * JSON (the multipart uploads) declares none: its caller passes a FormData `as never`.
 */
type BodyInit<O> = O extends { requestBody?: never }
  ? { body?: never }
  : O extends { requestBody: { content: { "application/json": infer B } } }
    ? { body: B }
    : O extends { requestBody?: { content: { "application/json": infer B } } }
      ? { body?: B }
      : { body?: never };

export type CallInit<O extends Operation> = ParamsInit<O> & BodyInit<O> & { signal?: AbortSignal };

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;

/** The JSON of the operation's 2xx answers. */
type SuccessData<O extends Operation> = {
  [S in keyof O["responses"]]: S extends SuccessStatus
    ? O["responses"][S] extends { content: { "application/json": infer J } }
      ? J
      : undefined
    : never;
}[keyof O["responses"]];

/** A call's answer: its data on a 2xx, its error body otherwise, and the response. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** No argument needed when nothing in the init is required. */
type InitArgs<O extends Operation> =
  RequiredKeys<CallInit<O>> extends never ? [init?: CallInit<O>] : [init: CallInit<O>];

type Call<M extends Method> = <P extends PathsFor<M>>(
  path: P,
  ...init: InitArgs<OperationAt<P, M>>
) => Promise<Answer<SuccessData<OperationAt<P, M>>>>;

// ---------------------------------------------------------------------------------------------
// The call itself.

interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Query; header?: Record<string, unknown> };
  body?: unknown;
  signal?: AbortSignal;
}

/** Parses a text answer as JSON; an empty one is no data, a non-JSON error body is its text. */
function readJson(text: string, strict: boolean): unknown {
  if (!text) return strict ? undefined : text;
  if (strict) return JSON.parse(text);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function call(method: string, path: string, init: LooseInit = {}): Promise<Answer<unknown>> {
  const { params = {}, body, signal } = init;
  // A path parameter is encoded whole ("PG 1/2" -> "PG%201%2F2"); a missing one is left as is.
  const url = withQuery(
    path.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
      const value = params.path?.[name];
      return value === undefined || value === null ? whole : encodeURIComponent(String(value));
    }),
    params.query,
  );
  const headers: Record<string, string> = { accept: "application/json" };
  // A FormData body goes as it is: the browser writes its multipart type and boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(params.header ?? {})) {
    if (value !== undefined && value !== null) headers[name] = String(value);
  }
  // Looked up on every call: tests replace the global fetch after this module has loaded.
  const response = await globalThis.fetch(url, {
    method,
    credentials: "same-origin",
    headers,
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  // A 2xx that is not JSON rejects (unwrap: status 0), as openapi-fetch did.
  return response.ok
    ? { data: readJson(text, true), response }
    : { error: readJson(text, false), response };
}

function method<M extends Method>(name: M): Call<M> {
  return ((path: string, init?: LooseInit) => call(name.toUpperCase(), path, init)) as Call<M>;
}

export const api = {
  GET: method("get"),
  POST: method("post"),
  PUT: method("put"),
  PATCH: method("patch"),
  DELETE: method("delete"),
};

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
    // A JSON error body is the server's; an empty or non-JSON one is no body.
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

import fc from "fast-check";
import { EXAMINER_AUTH_SCHEME } from "../../common/examiners.js";
import {
  contentTypes,
  hostileJsonValue,
  hostilePathSegments,
  hostileRawBodies,
  hostileStrings,
  uploadContents,
} from "./hostile.js";
import { arbitraryFor, type JsonSchema, type KnownValues } from "./json-schema.js";

/**
 * Requests for every route of the OpenAPI document: values its schemas accept, mixed with hostile
 * ones, sent as each kind of caller. A request is data until it is sent, so fast-check can print
 * (and shrink) it.
 */

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation {
  method: Method;
  /** The path as the document writes it: /api/submissions/{indexNumber}. */
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** Headers the route declares (an Idempotency-Key), by their lower-case names. */
  headers: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema; null when the route declares none (multipart or no body). */
  body: JsonSchema | null;
}

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const METHODS: readonly Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Every operation the app documents. */
export function readOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      const upper = method.toUpperCase() as Method;
      if (!METHODS.includes(upper)) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: upper,
        path,
        pathParams: parameters
          .filter((p) => p.in === "path")
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        query: parameters
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        headers: parameters
          .filter((p) => p.in === "header")
          .map((p) => ({
            name: p.name.toLowerCase(),
            schema: p.schema ?? {},
            required: p.required === true,
          })),
        body: operation.requestBody?.content?.["application/json"]?.schema ?? null,
      });
    }
  }
  return operations;
}

/**
 * Who a caller is: nobody, the student, an administrator, or an examiner through their link
 * (one whose examination waits for their report, and the internal examiner of a thesis whose
 * corrections wait for their confirmation), the student of a final thesis (its publication record
 * theirs to fill), or another system with an API token.
 */
export type Role =
  | "anonymous"
  | "student"
  | "admin"
  | "examiner"
  | "correctionsExaminer"
  | "author"
  | "integration";

/**
 * Who sends a request and how: the session travels as a cookie (with or without the Origin a
 * browser adds) or as a bearer token; an examiner's link token as `Authorization: Examiner
 * <token>`, the examiner page's header. Tokens are looked up when the request is sent, because a
 * generated sign-out or deactivation ends a session (or a revocation a link) and the run starts a
 * new one.
 */
export interface Caller {
  label: string;
  /** How often this caller is chosen, against the others' weights (0: only on its home routes). */
  weight: number;
  /**
   * The routes where this caller's credential means something, and its weight there instead of
   * `weight`: an examiner's link opens only /api/examiner/*, elsewhere it is a stray header.
   */
  home?: { path: RegExp; weight: number };
  role: Role;
  auth: "cookie" | "bearer" | "link" | "none";
  origin: string | null;
}

export type Sessions = Record<Exclude<Role, "anonymous">, string>;

export type Body =
  | { kind: "none" }
  | { kind: "json"; value: unknown; contentType: string | undefined }
  | { kind: "raw"; bytes: string | Buffer; contentType: string | undefined }
  | { kind: "multipart"; parts: MultipartPart[]; boundary: string; broken: MultipartBreak };

export interface MultipartPart {
  field: string;
  fileName: string | null;
  bytes: Buffer;
}

export type MultipartBreak = "none" | "no-boundary" | "truncated" | "wrong-boundary";

export interface GeneratedRequest {
  operation: Operation;
  method: Method;
  url: string;
  caller: Caller;
  /** The route's own headers (an Idempotency-Key), present or not, good or not. */
  headers: Record<string, string>;
  extraHeaders: Record<string, string>;
  body: Body;
}

export interface RequestContext {
  callers: readonly Caller[];
  known: KnownValues;
  /** Files good enough to get past the first check of each multipart route (a PDF, an XLSX). */
  goodFiles: readonly { name: string; bytes: Buffer }[];
  /**
   * Whole forms as the pages send them, sent as they are or broken: a student's PDF alone, the
   * examiner's report (its recommendation and note before its PDF).
   */
  goodForms: readonly (readonly MultipartPart[])[];
}

export function requestArbitrary(
  operation: Operation,
  world: RequestContext,
): fc.Arbitrary<GeneratedRequest> {
  const context = { ...world, known: knownForRoute(operation.path, world.known) };
  return fc
    .record({
      method: methodArbitrary(operation),
      path: pathArbitrary(operation, context.known),
      query: queryArbitrary(operation, context.known),
      caller: fc.oneof(
        ...context.callers.map((caller) => ({
          arbitrary: fc.constant(caller),
          weight: caller.home?.path.test(operation.path) ? caller.home.weight : caller.weight,
        })),
      ),
      headers: routeHeadersArbitrary(operation, context.known),
      extraHeaders: extraHeadersArbitrary,
      body: bodyArbitrary(operation, context),
    })
    .map(({ method, path, query, caller, headers, extraHeaders, body }) => ({
      operation,
      method,
      url: query === "" ? path : `${path}?${query}`,
      caller,
      headers,
      extraHeaders,
      body,
    }));
}

function methodArbitrary(operation: Operation): fc.Arbitrary<Method> {
  // A GET is also answered to HEAD (Fastify adds the route), which skips the body.
  return operation.method === "GET"
    ? fc.oneof({ arbitrary: fc.constant<Method>("GET"), weight: 9 }, fc.constant<Method>("HEAD"))
    : fc.constant(operation.method);
}

/** encodeURIComponent, except a lone surrogate it cannot encode goes as its UTF-8 replacement. */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
  }
}

/**
 * The known values for one route: the world's values by name, where an entry named
 * "<route prefix> <name>" ("/api/admin/examinations id") replaces the one named "<name>" for the
 * routes at or under that prefix, the longest prefix first. Ids of one kind of row then go to the
 * routes about that kind, without thinning out the ids every other route draws from.
 */
export function knownForRoute(path: string, known: KnownValues): KnownValues {
  const scoped = Object.entries(known)
    .map(([key, values]) => ({ key, values, space: key.lastIndexOf(" ") }))
    .filter(({ key, space }) => {
      const prefix = key.slice(0, space);
      return key.startsWith("/") && (path === prefix || path.startsWith(`${prefix}/`));
    })
    .sort((a, b) => a.space - b.space);
  if (scoped.length === 0) return known;
  const own: Record<string, readonly unknown[]> = { ...known };
  for (const { key, values, space } of scoped) own[key.slice(space + 1)] = values;
  return own;
}

function pathArbitrary(operation: Operation, known: KnownValues): fc.Arbitrary<string> {
  if (operation.pathParams.length === 0) return fc.constant(operation.path);
  const segments = operation.pathParams.map(({ name, schema }) =>
    fc.oneof(
      {
        arbitrary: arbitraryFor(schema, known, name).map((v) => encodeComponent(String(v))),
        weight: 6,
      },
      { arbitrary: fc.constantFrom(...hostilePathSegments), weight: 2 },
      { arbitrary: fc.constantFrom(...hostileStrings).map(encodeComponent), weight: 1 },
    ),
  );
  return fc.tuple(...segments).map((values) => {
    let path = operation.path;
    operation.pathParams.forEach(({ name }, i) => {
      path = path.replace(`{${name}}`, values[i] ?? "");
    });
    return path;
  });
}

/**
 * A query the route's schema accepts (each optional parameter present or not), then now and then
 * one thing wrong with it: a parameter given a hostile value, given twice (Fastify's parser makes
 * an array of what the schema calls a string), or junk beside them.
 */
function queryArbitrary(operation: Operation, known: KnownValues): fc.Arbitrary<string> {
  if (operation.query.length === 0) {
    return fc.oneof({ arbitrary: fc.constant(""), weight: 8 }, { arbitrary: junkQuery, weight: 1 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const { name, schema } of operation.query) model[name] = arbitraryFor(schema, known, name);
  const valid = fc.record(model, {
    requiredKeys: operation.query.filter((p) => p.required).map((p) => p.name),
  });
  const names = operation.query.map((p) => p.name);
  const hostileValue = fc.oneof(
    fc.constantFrom(...hostileStrings).map(encodeComponent),
    fc.constantFrom(...hostilePathSegments),
  );
  const mutation = fc.oneof(
    { arbitrary: fc.constant<QueryMutation>({ kind: "none" }), weight: 5 },
    fc
      .tuple(fc.constantFrom(...names), hostileValue)
      .map<QueryMutation>(([name, value]) => ({ kind: "hostile", name, value })),
    fc.constantFrom(...names).map<QueryMutation>((name) => ({ kind: "twice", name })),
    junkQuery.map<QueryMutation>((junk) => ({ kind: "junk", junk })),
  );
  return fc.tuple(valid, mutation).map(([values, change]) => {
    const pairs = Object.entries(values).map(
      ([name, value]) => [name, encodeComponent(String(value))] as [string, string],
    );
    if (change.kind === "hostile") {
      const others = pairs.filter(([name]) => name !== change.name);
      return [...others, [change.name, change.value]].map(([k, v]) => `${k}=${v}`).join("&");
    }
    const text = pairs.map(([k, v]) => `${k}=${v}`);
    if (change.kind === "twice") text.push(`${change.name}=a`, `${change.name}=b`);
    if (change.kind === "junk") text.push(change.junk);
    return text.join("&");
  });
}

type QueryMutation =
  | { kind: "none" }
  | { kind: "hostile"; name: string; value: string }
  | { kind: "twice"; name: string }
  | { kind: "junk"; junk: string };

const junkQuery: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...hostileStrings.slice(0, 30)), fc.constantFrom(...hostileStrings))
    .map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`),
  fc.constantFrom("&&&", "=&=", "a[b][c]=1", "%ZZ=%ZZ", "__proto__[admin]=1", "constructor=1"),
);

/**
 * The headers a route declares: a known value (a key used before), a new token-like one, or one
 * thing wrong (absent, empty, blank, too long). Header values stay within what HTTP can carry.
 */
function routeHeadersArbitrary(
  operation: Operation,
  known: KnownValues,
): fc.Arbitrary<Record<string, string>> {
  if (operation.headers.length === 0) return fc.constant({});
  const model: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const { name } of operation.headers) {
    const values = (known[name] ?? []).filter((v): v is string => typeof v === "string");
    const fresh = fc.stringMatching(/^[A-Za-z0-9._-]{1,60}$/);
    model[name] = fc.oneof(
      { arbitrary: values.length > 0 ? fc.constantFrom(...values) : fresh, weight: 2 },
      { arbitrary: fresh, weight: 4 },
      { arbitrary: fc.constantFrom(undefined, "", "   ", "k".repeat(201)), weight: 1 },
    );
  }
  return fc.record(model).map((values) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined) headers[name] = value;
    }
    return headers;
  });
}

const extraHeadersArbitrary: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 12 },
  fc.constantFrom<Record<string, string>>(
    { accept: "text/html" },
    { "accept-encoding": "gzip, br" },
    { "x-forwarded-for": "1.2.3.4, 5.6.7.8" },
    { "content-length": "0" },
    { "transfer-encoding": "chunked" },
    { "if-none-match": '"*"' },
    { range: "bytes=0-0,-1" },
    { cookie: `ets_session=${"a".repeat(4000)}` },
    { cookie: "ets_session=%E0%A4%A; ets_session=%ZZ" },
    { cookie: "ets_session=' or 1=1 --" },
    { cookie: "=; ;;=;ets_session" },
    { authorization: "Bearer " },
    { authorization: "Bearer ' or 1=1 --" },
    { authorization: "Basic YWRtaW46YWRtaW4=" },
  ),
);

function bodyArbitrary(operation: Operation, context: RequestContext): fc.Arbitrary<Body> {
  if (operation.method === "GET") {
    return fc.oneof(
      { arbitrary: fc.constant<Body>({ kind: "none" }), weight: 9 },
      rawBodyArbitrary,
    );
  }
  if (operation.body) return jsonRouteBody(operation.body, context);
  return fc.oneof(
    { arbitrary: multipartArbitrary(context), weight: 4 },
    { arbitrary: fc.constant<Body>({ kind: "none" }), weight: 2 },
    {
      arbitrary: hostileJsonValue.map<Body>((value) => ({
        kind: "json",
        value,
        contentType: "application/json",
      })),
      weight: 1,
    },
    { arbitrary: rawBodyArbitrary, weight: 1 },
  );
}

function jsonRouteBody(schema: JsonSchema, context: RequestContext): fc.Arbitrary<Body> {
  const valid = arbitraryFor(schema, context.known);
  const asJson = (value: unknown): Body => ({
    kind: "json",
    value,
    contentType: "application/json",
  });
  const keys = Object.keys(schema.properties ?? {});
  const withOneHostile =
    keys.length === 0
      ? valid
      : fc
          .tuple(valid, fc.constantFrom(...keys), hostileJsonValue)
          .map(([value, key, hostile]) =>
            typeof value === "object" && value !== null ? { ...value, [key]: hostile } : value,
          );
  return fc.oneof(
    { arbitrary: valid.map(asJson), weight: 5 },
    { arbitrary: withOneHostile.map(asJson), weight: 3 },
    { arbitrary: hostileJsonValue.map(asJson), weight: 1 },
    { arbitrary: rawBodyArbitrary, weight: 1 },
    {
      // The right JSON with the wrong content type (or none).
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...contentTypes))
        .map<Body>(([value, contentType]) => ({
          kind: "raw",
          bytes: JSON.stringify(value),
          contentType,
        })),
      weight: 1,
    },
    { arbitrary: multipartArbitrary(context), weight: 1 },
  );
}

const rawBodyArbitrary: fc.Arbitrary<Body> = fc
  .tuple(
    fc.constantFrom(...hostileRawBodies),
    fc.oneof(
      { arbitrary: fc.constant<string | undefined>("application/json"), weight: 4 },
      fc.constantFrom(...contentTypes),
    ),
  )
  .map(([bytes, contentType]) => ({ kind: "raw", bytes, contentType }));

function multipartArbitrary(context: RequestContext): fc.Arbitrary<Body> {
  // Mostly a file the route can accept, so requests get past the first check.
  const file = fc.oneof(
    { arbitrary: fc.constantFrom(...context.goodFiles), weight: 1 },
    { arbitrary: fc.constantFrom(...uploadContents), weight: 1 },
  );
  const part = fc
    .record({
      field: fc.oneof(
        { arbitrary: fc.constant("file"), weight: 6 },
        fc.constantFrom("files", "", "file\u0000", "a".repeat(2000), "title"),
      ),
      file,
      asFile: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, fc.constant(false)),
      fileName: fc.oneof(
        { arbitrary: fc.constant<string | null>(null), weight: 4 },
        fc.constantFrom<string | null>(...hostileStrings.filter((s) => s.length < 2000)),
      ),
    })
    .map<MultipartPart>(({ field, file, asFile, fileName }) => ({
      field,
      fileName: asFile ? (fileName ?? file.name) : null,
      bytes: file.bytes,
    }));
  const parts: fc.Arbitrary<MultipartPart[]> =
    context.goodForms.length === 0
      ? fc.oneof(
          { arbitrary: part.map((one) => [one]), weight: 3 },
          fc.array(part, { minLength: 0, maxLength: 8 }),
        )
      : fc.oneof(
          { arbitrary: part.map((one) => [one]), weight: 3 },
          fc.array(part, { minLength: 0, maxLength: 8 }),
          {
            arbitrary: fc.constantFrom(...context.goodForms).map((form) => [...form]),
            weight: 3,
          },
        );
  return fc
    .record({
      parts,
      boundary: fc.constantFrom("----etsfuzz", "x", "a".repeat(70), "----\u00e9"),
      broken: fc.oneof(
        { arbitrary: fc.constant<MultipartBreak>("none"), weight: 3 },
        fc.constantFrom<MultipartBreak>("no-boundary", "truncated", "wrong-boundary"),
      ),
    })
    .map<Body>(({ parts, boundary, broken }) => ({ kind: "multipart", parts, boundary, broken }));
}

/** What app.inject is given for a request. */
export interface InjectRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

function callerHeaders(caller: Caller, sessions: Sessions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (caller.origin !== null) headers.origin = caller.origin;
  if (caller.role === "anonymous") return headers;
  const token = sessions[caller.role];
  if (caller.auth === "cookie") headers.cookie = `ets_session=${token}`;
  if (caller.auth === "bearer") headers.authorization = `Bearer ${token}`;
  if (caller.auth === "link") headers.authorization = `${EXAMINER_AUTH_SCHEME} ${token}`;
  return headers;
}

export function toInject(request: GeneratedRequest, sessions: Sessions): InjectRequest {
  const headers: Record<string, string> = {
    ...callerHeaders(request.caller, sessions),
    ...request.headers,
    ...request.extraHeaders,
  };
  const body = request.body;
  const withType = (contentType: string | undefined) => {
    if (contentType !== undefined) headers["content-type"] = contentType;
  };
  switch (body.kind) {
    case "none":
      return { method: request.method, url: request.url, headers };
    case "json":
      withType(body.contentType);
      // JSON.stringify cannot write undefined (a generated value may be): send "null" instead.
      return {
        method: request.method,
        url: request.url,
        headers,
        payload: JSON.stringify(body.value) ?? "null",
      };
    case "raw":
      withType(body.contentType);
      return { method: request.method, url: request.url, headers, payload: body.bytes };
    case "multipart": {
      const { payload, contentType } = multipartPayload(body);
      headers["content-type"] = contentType;
      return { method: request.method, url: request.url, headers, payload };
    }
  }
}

function multipartPayload(body: Extract<Body, { kind: "multipart" }>): {
  payload: Buffer;
  contentType: string;
} {
  const { boundary, parts, broken } = body;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    // A text field goes as a browser sends it, without a Content-Type: busboy takes a part typed
    // application/octet-stream for a file even without a file name.
    const head =
      part.fileName === null
        ? `Content-Disposition: form-data; name="${part.field}"`
        : `Content-Disposition: form-data; name="${part.field}"; filename="${part.fileName}"\r\nContent-Type: application/octet-stream`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), part.bytes, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(chunks);
  if (broken === "truncated") payload = payload.subarray(0, Math.floor(payload.length / 2));
  const contentType =
    broken === "no-boundary"
      ? "multipart/form-data"
      : broken === "wrong-boundary"
        ? "multipart/form-data; boundary=not-the-one"
        : `multipart/form-data; boundary=${boundary}`;
  return { payload, contentType };
}

/** A request in a line, long values cut, for a failure report. */
export function describeRequest(request: GeneratedRequest): string {
  const body = request.body;
  const shown =
    body.kind === "none"
      ? "no body"
      : body.kind === "json"
        ? `${body.contentType ?? "no type"} ${cut(JSON.stringify(body.value) ?? "undefined")}`
        : body.kind === "raw"
          ? `${body.contentType ?? "no type"} raw ${cut(body.bytes.toString())}`
          : `multipart (${body.broken}, boundary ${cut(body.boundary, 12)}) ${body.parts.map((p) => `${cut(p.field)}=${p.fileName === null ? "field" : cut(p.fileName)}[${p.bytes.length} bytes]`).join(", ")}`;
  const headers = [
    ...Object.entries(request.headers).map(([name, value]) => `${name}=${cut(value, 40)}`),
    ...Object.keys(request.extraHeaders),
  ].join(",");
  return `${request.method} ${cut(request.url)} as ${request.caller.label}${headers ? ` +${headers}` : ""}: ${shown}`;
}

export function cut(text: string, length = 160): string {
  return text.length <= length ? text : `${text.slice(0, length)}… (${text.length} chars)`;
}

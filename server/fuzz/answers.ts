import { linkRefusedBodySchema } from "../../common/examiners.js";
import type { ErrorCode } from "../errors.js";

/**
 * What every answer to every request must be, whatever was sent: never a 500, never a stack
 * trace or a path on this machine, an error in the one shape clients read, and not huge.
 */

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}

/** The request an answer is for: its method and the route's path as the document writes it. */
export interface AnsweredRequest {
  method: string;
  /** /api/examiner/assignment, /api/submissions/{indexNumber}: the route, not the URL sent. */
  path: string;
}

export interface AnswerRules {
  /** The largest body any answer may have. */
  maxBytes: number;
  /** Whether 429 is an expected answer (only where the request limits are the defaults). */
  allowRateLimited: boolean;
}

const ERROR_CODES: readonly ErrorCode[] = [
  "validation",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "confirmation_required",
  "rate_limited",
  "payload_too_large",
  "internal",
  "unavailable",
];

/**
 * The examiner page's routes answer a refused link (401 invalid, 410 expired, revoked or replaced)
 * with their own error code, "link_refused", and `reason` and `schoolContact` beside `message`:
 * `linkRefusedBodySchema` in common/examiners.ts, sent by server/examiners/link-auth.ts. Only
 * those routes may use it, only with those statuses, and the body must be that schema's.
 */
const LINK_ROUTES = /^\/api\/examiner\//;
const LINK_REFUSED_STATUSES: readonly number[] = [401, 410];

/**
 * Signs that a body carries a stack trace or the server's own files: a V8 frame, an error's
 * name followed by a frame, a source or module path.
 */
const LEAKS: readonly { name: string; pattern: RegExp }[] = [
  // Line breaks as they are, or escaped inside a JSON string.
  { name: "a stack frame", pattern: /(\n|\\n)\s+at \S[^\n]*(\(|:\d+:\d+)/ },
  { name: "a stack frame", pattern: /\bat [\w$.<>]+ \([^)]*:\d+:\d+\)/ },
  { name: "an error with its stack", pattern: /\b\w*Error: [^\n]*?(\n|\\n)\s+at / },
  { name: "a module path", pattern: /node_modules[\\/]/ },
  { name: "a source file path", pattern: /[\\/](server|common)[\\/][\w/-]+\.(ts|js)\b/ },
  { name: "a file URL", pattern: /file:\/\/\// },
];

/** Problems with one answer; empty when it is fine. */
export function answerProblems(
  request: AnsweredRequest,
  answer: Answer,
  rules: AnswerRules,
): string[] {
  const problems: string[] = [];
  const status = answer.statusCode;
  if (status >= 500) problems.push(`answered ${status}`);
  if (status === 429 && !rules.allowRateLimited) {
    problems.push("answered 429 although the request limits were raised for this run");
  }
  if (answer.rawPayload.length > rules.maxBytes) {
    problems.push(`answered ${answer.rawPayload.length} bytes, more than ${rules.maxBytes}`);
  }
  const text = answer.rawPayload.toString("utf8");
  for (const leak of LEAKS) {
    if (leak.pattern.test(text)) problems.push(`the body shows ${leak.name}`);
  }
  // A HEAD answer has no body; a 3xx/2xx body is the route's own schema, checked by Fastify.
  if (status >= 400 && request.method !== "HEAD") {
    problems.push(...errorBodyProblems(request, answer, text));
  }
  return problems;
}

function errorBodyProblems(request: AnsweredRequest, answer: Answer, text: string): string[] {
  const contentType = String(answer.headers["content-type"] ?? "");
  if (!contentType.startsWith("application/json")) {
    return [`an error answered with content type "${contentType}", not JSON`];
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ["an error body is not JSON"];
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return ["an error body is not an object"];
  }
  const { success, code, message } = body as Record<string, unknown>;
  if (code === "link_refused" && LINK_ROUTES.test(request.path)) {
    return linkRefusedProblems(answer.statusCode, body);
  }
  const problems: string[] = [];
  if (success !== false) problems.push("an error body lacks success: false");
  if (typeof code !== "string" || !(ERROR_CODES as readonly string[]).includes(code)) {
    problems.push(`an error body's code ${JSON.stringify(code)} is not one of the API's codes`);
  }
  if (typeof message !== "string" || message.trim() === "") {
    problems.push("an error body has no message");
  }
  return problems;
}

/** A refused examiner link: 401 or 410, in exactly the shape the examiner page reads. */
function linkRefusedProblems(status: number, body: object): string[] {
  const problems: string[] = [];
  if (!LINK_REFUSED_STATUSES.includes(status)) {
    problems.push(`a refused examiner link answered ${status}, not 401 or 410`);
  }
  const parsed = linkRefusedBodySchema.strict().safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "body");
    problems.push(`a refused examiner link's body does not fit its schema (${fields.join(", ")})`);
  } else if (parsed.data.message.trim() === "") {
    problems.push("an error body has no message");
  }
  return problems;
}

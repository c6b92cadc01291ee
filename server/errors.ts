/**
 * Typed errors with stable codes. Services throw these; the one error handler in app.ts maps
 * them to HTTP and never sends a stack trace.
 */
export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "confirmation_required"
  | "rate_limited"
  | "payload_too_large"
  | "internal"
  | "unavailable";

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  confirmation_required: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  // A service we depend on (the virus scanner, the file store) cannot be reached: try again later.
  unavailable: 503,
};

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields: FieldError[] = [],
    /**
     * More the client needs to act, sent beside `message`: the current record of a stale edit,
     * the moves awaiting confirmation, the rows of a rejected import.
     */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "AppError";
    this.statusCode = STATUS[code];
  }
}

export const validationError = (field: string, message: string) =>
  new AppError("validation", `${field}: ${message}`, [{ field, message }]);
export const unauthorized = (message = "Please log in to continue.") =>
  new AppError("unauthorized", message);
export const forbidden = (message = "You do not have access to this.") =>
  new AppError("forbidden", message);
export const notFound = (message = "Not found.") => new AppError("not_found", message);
export const conflict = (message: string, fields: FieldError[] = []) =>
  new AppError("conflict", message, fields);
export const rateLimited = (message = "Too many attempts. Please wait a moment and try again.") =>
  new AppError("rate_limited", message);

/** The error body every failing API response carries. `success: false` keeps the prototype's contract. */
export interface ErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  fields?: FieldError[];
}

/** What a request hears while the database cannot be reached (a restart, a failover, an outage). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service cannot reach its database just now. Please try again in a minute.";

/**
 * What a request hears while another connection holds SQLite's write lock past busy_timeout
 * (isDatabaseBusy in server/db/dialect.ts), and how soon it may try again: the lock is held for
 * one write transaction, so a moment.
 */
export const DATABASE_BUSY_MESSAGE =
  "The service is busy just now and could not save or read this. Please try again in a moment.";
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 2;

/** Socket errors of a connection to the database that could not be opened or was cut. */
const CONNECTION_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/**
 * PostgreSQL's SQLSTATEs for a server that is going away or not there yet: class 08 (connection
 * exceptions), 57P01 admin_shutdown (pg_ctl stop -m fast), 57P02 crash_shutdown, 57P03
 * cannot_connect_now ("the database system is starting up" / "shutting down").
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123])$/;
/** node-postgres says a connection dropped mid-query in words, without a code. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database is unreachable for now, rather than a fault in this request
 * or in our code: the one error handler answers it 503 `unavailable`, as for any service we depend
 * on, and the same request can succeed once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof AppError) return false;
  // Node's own ECONNRESET for a client that went away mid-request: not the database.
  if (error.message === "aborted") return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === "string" &&
    (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.test(code))
  ) {
    return true;
  }
  return CONNECTION_LOST.test(error.message);
}

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

import { AppError } from "../errors.js";

/**
 * What to throw for an error met while reading a multipart request body.
 *
 * @fastify/multipart's own refusals carry a status (a file past its limit or too many parts: 413,
 * not multipart at all: 406) and stand as they are. Everything else its parser (busboy) throws
 * there is about the bytes the client sent: a boundary missing, empty or longer than 70
 * characters, a body that ends inside a part. Those are the client's to fix, so they answer 400
 * naming the field, not 500. Call it only around the reading of the request itself, never around
 * writing to disk or storage, whose failures are ours.
 */
export function multipartReadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (typeof (error as { statusCode?: unknown } | null)?.statusCode === "number") return error;
  return malformedUpload();
}

export const malformedUpload = () =>
  new AppError(
    "validation",
    "file: the upload could not be read; the form data is malformed or cut short. Please send the file again.",
    [{ field: "file", message: "the form data is malformed or cut short" }],
  );

import { PassThrough, type Readable } from "node:stream";
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
export function multipartReadError(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (
    error instanceof Error &&
    typeof (error as { statusCode?: unknown }).statusCode === "number"
  ) {
    return error;
  }
  return malformedUpload();
}

/**
 * The file part of a multipart body as a stream whose own errors (the body ends inside the part)
 * arrive as multipartReadError's 400, so whoever reads it can tell them from its own failures
 * (a full disk, the store) without knowing about multipart. Destroying the stream returned
 * destroys the part, as reading the part directly would.
 */
export function clientFileStream(part: Readable): Readable {
  const out = new PassThrough();
  // The reader may start only after a few awaits; the stream keeps its error for it (a pipeline
  // started later fails with it), and this listener keeps the error from ending the process.
  out.on("error", () => {});
  const fail = (error: unknown) => out.destroy(multipartReadError(error));
  // The part may have failed already, while the request waited for the database.
  if (part.errored) fail(part.errored);
  else if (part.destroyed && !part.readableEnded) fail(null);
  part.once("error", fail);
  // Destroyed without an error and without its end: the body stopped inside the part.
  part.once("close", () => {
    if (!part.readableEnded) fail(null);
  });
  // A reader that gives up (a file past its limit) stops the part too.
  out.once("close", () => {
    if (!part.readableEnded) part.destroy();
  });
  part.pipe(out);
  return out;
}

export const malformedUpload = () =>
  new AppError(
    "validation",
    "file: the upload could not be read; the form data is malformed or cut short. Please send the file again.",
    [{ field: "file", message: "the form data is malformed or cut short" }],
  );

import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorBody } from "./errors.js";

/**
 * Fastify's `frameworkErrors` option: the answer to a request its router refuses before any route
 * (or hook, or the one error handler) runs. Without it, a path that cannot be percent-decoded
 * (FST_ERR_BAD_URL, "/api/submissions/%E0%A4%A") or a parameter longer than maxParamLength
 * (FST_ERR_MAX_PARAM_LENGTH) gets Fastify's own body: not the `{ success, code, message }` clients
 * read, and echoing the whole path back, 600 KB for a 600 KB path.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { status, body } = frameworkErrorResponse(error);
  void reply.code(status).send(body);
}

function frameworkErrorResponse(error: FastifyError): { status: number; body: ErrorBody } {
  switch (error.code) {
    case "FST_ERR_BAD_URL":
      return {
        status: 400,
        body: {
          success: false,
          code: "validation",
          message: "The address cannot be read: part of it is not valid percent-encoding.",
        },
      };
    case "FST_ERR_MAX_PARAM_LENGTH":
      return {
        status: 414,
        body: { success: false, code: "validation", message: "The address is too long." },
      };
    default:
      return {
        status: 500,
        body: {
          success: false,
          code: "internal",
          message: "Something went wrong on our side. Please try again.",
        },
      };
  }
}

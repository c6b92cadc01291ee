import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorBody } from "./errors.js";

/** What a request arriving while the server shuts down hears: another server, or this one once restarted, will answer it. */
export const CLOSING_MESSAGE = "The server is restarting. Please try again in a moment.";
/** About as long as a rolling restart takes to bring the next server in. */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

/**
 * Requests that arrive while the server closes, on connections already open (a keep-alive
 * connection's next request, a pipelined one), answered 503 in the API's error body with
 * Retry-After and Connection: close, without running anything else. Fastify answers them itself
 * otherwise (return503OnClosing) with its own body, `{"error":"Service Unavailable",...}`, which
 * clients do not read; the app turns that off and registers this instead, as its first hook.
 *
 * preClose runs as soon as close() begins (before the in-flight requests finish and the database
 * closes), and this hook is registered before the plugins whose preClose hooks take time (the mail
 * worker and the periodic jobs finish their pass there), so it runs first.
 */
export function answerWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (_request, reply) => {
    if (!closing) return;
    const body: ErrorBody = { success: false, code: "unavailable", message: CLOSING_MESSAGE };
    // Sent as text: the route's response schemas (health's own 503, say) do not describe this body.
    return reply
      .code(503)
      .header("connection", "close")
      .header("retry-after", CLOSING_RETRY_AFTER_SECONDS)
      .type("application/json; charset=utf-8")
      .send(JSON.stringify(body));
  });
}

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

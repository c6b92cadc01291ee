import type { FastifyInstance } from "fastify";
import type { Submission } from "../../common/submission.js";
import type { ImportError, WorkflowMove } from "../../common/submissions-api.js";
import { presentSubmission } from "./presenter.js";

/**
 * Failures whose answer carries more than `fields`: the current record of a stale edit, the moves
 * awaiting confirmation, the rows of a rejected import. AppError's handler in app.ts only knows
 * `fields`, so these have their own class and a handler scoped to this feature's routes, which
 * hands every other error on to the app's handler.
 */
export class ProblemError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ProblemError";
  }
}

export function staleVersion(current: Submission): ProblemError {
  return new ProblemError(
    409,
    "conflict",
    "Someone else saved this submission while you were editing it. Review their changes and try again.",
    { current: presentSubmission(current) },
  );
}

export function confirmationRequired(moves: WorkflowMove[]): ProblemError {
  const count = moves.length === 1 ? "One move skips" : `${moves.length} moves skip`;
  return new ProblemError(
    409,
    "confirmation_required",
    `${count} a step of the flow or goes back. Confirm to apply ${moves.length === 1 ? "it" : "them"}.`,
    { moves },
  );
}

export function importRejected(errors: ImportError[]): ProblemError {
  const count = errors.length === 1 ? "1 problem" : `${errors.length} problems`;
  return new ProblemError(
    400,
    "validation",
    `The file has ${count}; nothing was imported. Correct the rows listed and try again.`,
    { errors },
  );
}

/** Registers the handler in the calling (encapsulated) plugin. */
export function handleProblems(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (!(error instanceof ProblemError)) throw error;
    request.log.info({ code: error.code, status: error.statusCode }, error.message);
    return reply
      .code(error.statusCode)
      .send({ success: false, code: error.code, message: error.message, ...error.details });
  });
}

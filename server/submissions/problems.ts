import { AppError } from "../errors.js";
import type { Submission } from "../../common/submission.js";
import type { ImportError, WorkflowMove } from "../../common/submissions-api.js";
import { presentSubmission } from "./presenter.js";

/** The feature's failures that carry more than a message: see AppError's `details`. */
export function staleVersion(current: Submission, documentsToReview: number): AppError {
  return new AppError(
    "conflict",
    "Someone else saved this submission while you were editing it. Review their changes and try again.",
    [],
    { current: presentSubmission(current, documentsToReview) },
  );
}

export function confirmationRequired(moves: WorkflowMove[], message?: string): AppError {
  const count =
    moves.length === 1
      ? "One move skips a step of the flow or goes back"
      : `${moves.length} moves skip a step of the flow or go back`;
  return new AppError(
    "confirmation_required",
    message ?? `${count}. Confirm to apply ${moves.length === 1 ? "it" : "them"}.`,
    [],
    { moves },
  );
}

/** `total`: how many problems the file has, when `errors` lists only the first of them. */
export function importRejected(errors: ImportError[], total = errors.length): AppError {
  const count = total === 1 ? "1 problem" : `${total.toLocaleString("en-US")} problems`;
  return new AppError(
    "validation",
    `The file has ${count}; nothing was imported. Correct the rows listed and try again.`,
    [],
    { errors },
  );
}

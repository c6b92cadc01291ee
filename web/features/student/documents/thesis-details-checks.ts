import type { ThesisDetailsInput } from "../../../../common/documents.js";
import { MAX_ABSTRACT_LENGTH, MAX_TITLE_LENGTH } from "../../../../common/documents-constants.js";

/**
 * thesisDetailsInputSchema's checks written out by hand, so the status page's form needs neither
 * zod nor react-hook-form on the first load (issue 11: JavaScript on the first load). The
 * messages are the schema's own; thesis-details-checks.test.ts compares the two on many inputs.
 */
export type ThesisDetailsErrors = Partial<Record<keyof ThesisDetailsInput, string>>;

const LIMITS: Record<keyof ThesisDetailsInput, number> = {
  title: MAX_TITLE_LENGTH,
  abstract: MAX_ABSTRACT_LENGTH,
};

function textProblem(value: string, max: number): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length < 1) return "is required";
  if (trimmed.length > max) return `must be at most ${max} characters`;
  return undefined;
}

/** The trimmed values the server would accept, or the first problem of each field. */
export function checkThesisDetails(
  values: ThesisDetailsInput,
): { ok: true; values: ThesisDetailsInput } | { ok: false; errors: ThesisDetailsErrors } {
  const errors: ThesisDetailsErrors = {};
  for (const field of ["title", "abstract"] as const) {
    const problem = textProblem(values[field], LIMITS[field]);
    if (problem) errors[field] = problem;
  }
  if (errors.title || errors.abstract) return { ok: false, errors };
  return { ok: true, values: { title: values.title.trim(), abstract: values.abstract.trim() } };
}

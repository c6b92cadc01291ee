import type { QueryClient } from "@tanstack/react-query";
import { adminExaminationResponseSchema } from "../../../../../common/examiners.js";
import { unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";
import type { AdminExamination } from "./get-examination.js";

/** The routes by index number answer with the whole examination view; it is read by the contract. */
export async function examinationView(
  call: Parameters<typeof unwrap<unknown>>[0],
): Promise<AdminExamination> {
  return adminExaminationResponseSchema.parse(await unwrap(call)).data;
}

/**
 * After an examination changes (or a refusal, which means the panel showed an outdated state),
 * everything that shows it is fetched again: the panel, the record (its examiner states and
 * Thesis Status), its history, the list's chips and filters, the dashboard's figures and overdue
 * list, and the examiners' open counts.
 */
export function refreshAfterExaminationChange(queryClient: QueryClient, submissionId: number) {
  for (const queryKey of [
    adminKeys.submissionExamination(submissionId),
    adminKeys.submission(submissionId),
    adminKeys.submissionEvents(submissionId),
    adminKeys.submissionLists(),
    adminKeys.stats(),
    adminKeys.examiners(),
  ]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

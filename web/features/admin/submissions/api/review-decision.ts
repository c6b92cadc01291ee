import type { QueryClient } from "@tanstack/react-query";
import { adminKeys } from "../../query-keys.js";

/**
 * After a review decision (or a refusal saying the document changed meanwhile), everything that
 * shows it is fetched again: the documents, the record's checklist and version, its history, the
 * list's count chip and filters, and the dashboard's figures.
 */
export function refreshAfterReview(queryClient: QueryClient, submissionId: number): void {
  for (const queryKey of [
    adminKeys.submissionDocuments(submissionId),
    adminKeys.submission(submissionId),
    adminKeys.submissionEvents(submissionId),
    adminKeys.submissionLists(),
    adminKeys.stats(),
  ]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ThesisDetailsInput } from "../../../../common/documents.js";
import { apiRequest } from "../../../lib/api-client.js";
import { submissionDocumentsKey, type SubmissionDocuments } from "./submission-documents.js";
import { submissionStatusQuery } from "./submission-status.js";

/**
 * PUT /api/submissions/:indexNumber/thesis: the thesis title and abstract. The saved values go
 * straight into the documents query, because the thesis upload waits for them.
 */
export function useSaveThesisDetails(indexNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ThesisDetailsInput) =>
      apiRequest<{ data: ThesisDetailsInput }>(
        "PUT",
        `/submissions/${encodeURIComponent(indexNumber)}/thesis`,
        input,
      ).then((answer) => answer.data),
    onSuccess: (saved) => {
      queryClient.setQueryData<SubmissionDocuments>(
        submissionDocumentsKey(indexNumber),
        (before) => (before ? { ...before, thesis: saved } : before),
      );
      // Not awaited: the saved values are already shown; the refetch only confirms them.
      void queryClient.invalidateQueries({ queryKey: submissionDocumentsKey(indexNumber) });
      void queryClient.invalidateQueries({ queryKey: submissionStatusQuery(indexNumber).queryKey });
    },
  });
}

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { ThesisDetailsInput } from "../../../../common/documents.js";
import { api, unwrap } from "../../../lib/api-client.js";
import { submissionDocumentsKey, type SubmissionDocuments } from "./submission-documents.js";
import { submissionStatusQuery } from "./submission-status.js";

/**
 * PUT /api/submissions/:indexNumber/thesis: the thesis title and abstract. The saved values go
 * straight into the documents query, because the thesis upload waits for them.
 *
 * A small hook rather than TanStack Query's `useMutation`: this is the status page's only
 * mutation, and the mutation observer with react-hook-form made a chunk of its own on the page's
 * first load (issue 11: JavaScript on the first load). It keeps what the form reads from a
 * mutation: whether a save is under way and the last save's error, cleared by the next save.
 */
export function useSaveThesisDetails(indexNumber: string) {
  const queryClient = useQueryClient();
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const save = useCallback(
    (
      input: ThesisDetailsInput,
      callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
    ) => {
      setPending(true);
      setError(null);
      unwrap(
        api.PUT("/api/submissions/{indexNumber}/thesis", {
          params: { path: { indexNumber } },
          body: input,
        }),
      ).then(
        (answer) => {
          queryClient.setQueryData<SubmissionDocuments>(
            submissionDocumentsKey(indexNumber),
            (before) => (before ? { ...before, thesis: answer.data } : before),
          );
          // Not awaited: the saved values are already shown; the refetch only confirms them.
          void queryClient.invalidateQueries({ queryKey: submissionDocumentsKey(indexNumber) });
          void queryClient.invalidateQueries({
            queryKey: submissionStatusQuery(indexNumber).queryKey,
          });
          setPending(false);
          callbacks.onSuccess();
        },
        (failure: unknown) => {
          setPending(false);
          setError(failure);
          callbacks.onError(failure);
        },
      );
    },
    [indexNumber, queryClient],
  );

  return { save, isPending, isError: error !== null, error };
}

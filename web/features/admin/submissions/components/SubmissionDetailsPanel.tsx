import { lazy, Suspense, useEffect, useId, useRef, type KeyboardEvent } from "react";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { Loading } from "../../../../components/ui/Loading.js";
import { LoadError } from "../../components/LoadError.js";
import { useSubmission } from "../api/get-submission.js";

// The body, with its forms, loads when a panel first opens, not with the list (issue 11); until it
// arrives the panel shows the same loading line as while the record loads.
const SubmissionDetails = lazy(() =>
  import("./SubmissionDetails.js").then((module) => ({ default: module.SubmissionDetails })),
);
const LOADING = "Loading the submission…";

/**
 * The side panel of the list: who it is, the documents to review (first, since reviewing is the
 * daily work), the progress markers, the edit actions and the history. It is a non-modal dialog (the list stays usable beside it); focus moves to its heading
 * when it opens, and Escape or Close hands focus back to the list.
 */
export function SubmissionDetailsPanel({
  submissionId,
  fromList,
  onClose,
}: {
  submissionId: number;
  /** The list's copy of the record, shown at once while the fresh one loads. */
  fromList?: SubmissionDto | undefined;
  onClose: () => void;
}) {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const query = useSubmission(submissionId, fromList);

  useEffect(() => {
    headingRef.current?.focus();
  }, [submissionId]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape" && !event.defaultPrevented) {
      event.preventDefault();
      onClose();
    }
  };

  return (
    <section
      className="details-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <header className="details-panel__header">
        <h2 id={titleId} ref={headingRef} tabIndex={-1}>
          Submission Details
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          Close
        </button>
      </header>
      {query.data ? (
        <Suspense fallback={<Loading label={LOADING} />}>
          <SubmissionDetails submission={query.data} />
        </Suspense>
      ) : query.isError ? (
        <LoadError
          error={query.error}
          what="this submission"
          onRetry={() => void query.refetch()}
        />
      ) : (
        <Loading label={LOADING} />
      )}
    </section>
  );
}

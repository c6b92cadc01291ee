import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import { Link } from "react-router";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { Loading } from "../../../../components/ui/Loading.js";
import { formatDate, formatDateTime } from "../../../../lib/format.js";
import { LoadError } from "../../components/LoadError.js";
import { adminPaths } from "../../paths.js";
import { useSubmission } from "../api/get-submission.js";
import { EditSubmissionForm } from "./EditSubmissionForm.js";
import { ProgressLines } from "./ProgressLines.js";
import { SubmissionDocuments } from "./SubmissionDocuments.js";
import { SubmissionTimeline } from "./SubmissionTimeline.js";
import { FactList } from "../../../../components/ui/FactList.js";
import { ExaminationPanel } from "../../examiners/ExaminationPanel.js";

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
        <SubmissionDetails submission={query.data} />
      ) : query.isError ? (
        <LoadError
          error={query.error}
          what="this submission"
          onRetry={() => void query.refetch()}
        />
      ) : (
        <Loading label="Loading the submission…" />
      )}
    </section>
  );
}

function SubmissionDetails({ submission }: { submission: SubmissionDto }) {
  return (
    <div className="details-panel__body">
      <FactList
        className="details-list"
        facts={[
          { label: "Name", value: submission.studentName },
          { label: "Index Number", value: submission.indexNumber },
          { label: "Programme", value: submission.programme },
          {
            label: "Thesis title",
            value: submission.thesisTitle ?? <span className="muted">Not given yet</span>,
          },
          {
            label: "Contact",
            value: submission.contact ?? <span className="muted">Not given</span>,
          },
          {
            label: "Student email",
            value: submission.studentEmail ? (
              <a href={`mailto:${submission.studentEmail}`}>{submission.studentEmail}</a>
            ) : (
              <span className="muted">Not given</span>
            ),
          },
          {
            label: "Thesis Status",
            value: submission.thesisStatus ?? <span className="muted">Not set</span>,
          },
          submission.effectiveDate
            ? { label: "Effective date", value: formatDate(submission.effectiveDate) }
            : null,
        ]}
      />

      {submission.thesisAbstract ? (
        <details className="thesis-abstract">
          <summary>Thesis abstract</summary>
          <p>{submission.thesisAbstract}</p>
        </details>
      ) : null}

      <SubmissionDocuments submissionId={submission.id} indexNumber={submission.indexNumber} />

      <ExaminationPanel submissionId={submission.id} indexNumber={submission.indexNumber} />

      <ProgressLines submission={submission} />

      <p className="muted details-panel__updated">
        Last updated {formatDateTime(submission.updatedAt)} · version {submission.version} ·{" "}
        <Link
          to={`${adminPaths.notices}?indexNumber=${encodeURIComponent(submission.indexNumber)}`}
        >
          Send the student a notice
        </Link>
      </p>

      <EditSubmissionForm key={submission.id} submission={submission} />

      <section aria-labelledby={`history-${submission.id}`} className="details-panel__history">
        <h3 id={`history-${submission.id}`}>History</h3>
        <SubmissionTimeline submissionId={submission.id} />
      </section>
    </div>
  );
}

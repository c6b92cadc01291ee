import { Link } from "react-router";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { formatDate, formatDateTime } from "../../../../lib/format.js";
import { adminPaths } from "../../paths.js";
import { EditSubmissionForm } from "./EditSubmissionForm.js";
import { ProgressLines } from "./ProgressLines.js";
import { SubmissionDocuments } from "./SubmissionDocuments.js";
import { SubmissionTimeline } from "./SubmissionTimeline.js";
import { FactList } from "../../../../components/ui/FactList.js";
import { ExaminationPanel } from "../../examiners/ExaminationPanel.js";
import { PublicationPanel } from "../../publication/PublicationPanel.js";

/**
 * The body of the list's side panel (./SubmissionDetailsPanel.tsx): the record, its documents,
 * the examination, the edit form and the history. A chunk of its own, loaded when a panel first
 * opens: with its forms and their schemas it is most of the list page's code, and the list itself
 * needs none of it (issue 11: JavaScript on the first load).
 */
export function SubmissionDetails({ submission }: { submission: SubmissionDto }) {
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

      <PublicationPanel submissionId={submission.id} indexNumber={submission.indexNumber} />

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

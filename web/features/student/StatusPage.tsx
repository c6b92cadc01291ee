import { lazy, Suspense, useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { ErrorState } from "../../components/ui/ErrorState.js";
import { Loading } from "../../components/ui/Loading.js";
import { ApiError } from "../../lib/api-client.js";
import { STAGE_GUIDE } from "../../lib/stage-guide.js";
import { useMe } from "../../lib/session.js";
import { useSubmissionStatus } from "./api/submission-status.js";
import { useTimeline } from "./api/timeline.js";
import { useSubmissionDocuments } from "./api/submission-documents.js";
import { DocumentsSection } from "./documents/DocumentsSection.js";
import { ExaminationSection } from "./ExaminationSection.js";
import { ProgressTracker } from "./ProgressTracker.js";
import { toProgress, type SubmissionStatus } from "./progress.js";
import { FactList } from "../../components/ui/FactList.js";
import { WhenNear } from "../../components/ui/WhenNear.js";
import { studentPublicationQuery } from "./api/publication-record.js";
import { PublicationPlaceholder } from "./publication/PublicationPlaceholder.js";

const LOADING = "Loading submission details...";

// Publication (issue 20) is a chunk of its own, far down the page, loaded when the student scrolls
// within a screen of it (WhenNear): the first load stays within its script budget (110 kB). Until
// then its placeholder holds its heading and place (PublicationPlaceholder).
const PublicationSection = lazy(() =>
  import("./publication/PublicationSection.js").then((m) => ({ default: m.PublicationSection })),
);

export function StatusPage() {
  const me = useMe();
  const indexNumber = me.data?.indexNumber ?? null;
  const status = useSubmissionStatus(indexNumber);
  // Fetched alongside the status; when it fails the stepper simply has no dates.
  const timeline = useTimeline(indexNumber);
  // Asked for at once rather than after the status arrives; "Your documents" reads the same query.
  useSubmissionDocuments(indexNumber);
  // The Publication section's record is asked for with the status rather than after its code
  // arrives: when the student scrolls to it, only the code is left to fetch.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!indexNumber) return;
    void queryClient.prefetchQuery(studentPublicationQuery(indexNumber));
  }, [indexNumber, queryClient]);

  let content;
  if (me.isPending) {
    content = <Loading label={LOADING} />;
  } else if (!indexNumber) {
    content = <NoSubmission indexNumber={null} />;
  } else if (status.isPending) {
    content = <Loading label={LOADING} />;
  } else if (status.isError) {
    content =
      status.error instanceof ApiError && status.error.status === 404 ? (
        <NoSubmission indexNumber={indexNumber} />
      ) : (
        <ErrorState
          message={statusErrorMessage(status.error)}
          onRetry={() => void status.refetch()}
        />
      );
  } else {
    content = (
      <SubmissionView
        indexNumber={indexNumber}
        submission={status.data}
        timeline={timeline.data ?? []}
      />
    );
  }

  return (
    <section className="status" aria-labelledby="status-title" aria-busy={status.isFetching}>
      <h1 id="status-title">Progress of Submission</h1>
      {content}
    </section>
  );
}

function statusErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) {
    return "You can only see the submission linked to your own account. If this is your index number, please contact us.";
  }
  return "We could not load your submission details. Check your connection and try again.";
}

function NoSubmission({ indexNumber }: { indexNumber: string | null }) {
  return (
    <div className="card status__none" role="status">
      <h2>No submission on file yet</h2>
      <p>
        {indexNumber
          ? `The School of Graduate Studies has no thesis submission recorded under index number ${indexNumber} yet.`
          : "Your account has no index number, so no submission can be shown."}
      </p>
      <p>
        If you have handed in your thesis and documents, please{" "}
        <Link to="/help/contact">contact the School of Graduate Studies</Link> with your name, index
        number and programme.
      </p>
    </div>
  );
}

function SubmissionView({
  indexNumber,
  submission,
  timeline,
}: {
  /** The signed-in student's, as the status was asked for (the same documents query). */
  indexNumber: string;
  submission: SubmissionStatus;
  timeline: { at: string; label: string }[];
}) {
  const progress = toProgress(submission, timeline);
  const s = submission.status;
  const statusLines: [string, string][] = [
    ["Awaiting Review", s.awaitingReview],
    ["Sent to Department", s.sentToDepartment],
    ["Nominations Ready", s.nominationsReady],
    ["Sent to Internal", s.sentToInternal],
    ["Sent to External", s.sentToExternal],
    ["Internal Report", s.internalReport],
    ["External Report", s.externalReport],
    ["Thesis Status", s.thesisStatus ?? "Not set"],
  ];

  return (
    <>
      <div className="status__summary">
        <p className="status__position">
          Step {progress.position.current} of {progress.position.total}
        </p>
        <p className="status__sentence">{progress.summary}</p>
        <p className="status__next">
          <strong>What happens next: </strong>
          {progress.next}
        </p>
      </div>

      <section className="status__tracker card" aria-labelledby="tracker-title">
        <h2 id="tracker-title">Your progress</h2>
        <ProgressTracker progress={progress} />
      </section>

      <ExaminationSection indexNumber={indexNumber} />

      <DocumentsSection indexNumber={indexNumber} />

      <WhenNear placeholder={<PublicationPlaceholder />}>
        <Suspense fallback={<PublicationPlaceholder />}>
          <PublicationSection indexNumber={indexNumber} />
        </Suspense>
      </WhenNear>

      <div className="status__facts">
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">Submission Details</h2>
          <FactList
            className="facts"
            facts={[
              { label: "Name", value: submission.studentName },
              { label: "Index Number", value: submission.indexNumber },
              { label: "Programme", value: submission.programme },
              { label: "Contact", value: submission.contact ?? "Not given" },
            ]}
          />
        </section>
        <section className="card" aria-labelledby="lines-title">
          <h2 id="lines-title">Submission Status</h2>
          <FactList
            className="facts"
            facts={statusLines.map(([label, value]) => ({ label, value }))}
          />
        </section>
      </div>

      <section className="status__guide" aria-labelledby="guide-title">
        <h2 id="guide-title">What each stage means and whom to contact</h2>
        {STAGE_GUIDE.map((stage) => (
          <details key={stage.id} className="guide__item">
            <summary>{stage.title}</summary>
            <div className="guide__answer">
              <p>{stage.meaning}</p>
              <p>{stage.contact}</p>
            </div>
          </details>
        ))}
        <p className="status__guide-contact">
          Something looks wrong?{" "}
          <Link to="/help/contact">Contact the School of Graduate Studies</Link>.
        </p>
      </section>
    </>
  );
}

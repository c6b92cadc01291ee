import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import type { ExaminerAssignment } from "../../../common/examiners.js";
import {
  EXAMINER_KIND_LABELS,
  RECOMMENDATION_LABELS,
} from "../../../common/examiners-constants.js";
import { FactList } from "../../components/ui/FactList.js";
import { Loading } from "../../components/ui/Loading.js";
import { ApiError } from "../../lib/api-client.js";
import { formatDate } from "../../lib/format.js";
import { useAssignment } from "./api/assignment.js";
import { LinkRefusedError } from "./api/examiner-request.js";
import { CorrectionsStep } from "./CorrectionsStep.js";
import { dueInWords } from "./examiner-dates.js";
import { storedToken, storeToken, tokenFromHash } from "./examiner-token.js";
import { LinkRefusedPage } from "./LinkRefusedPage.js";
import { ReportForm } from "./ReportForm.js";
import { SchoolContact } from "./SchoolContact.js";
import { ThesisDownload } from "./ThesisDownload.js";
import "./examiner.css";

/**
 * The examiner's page, opened from the mailed link `/examiner#<token>` (issue 9): no account, one
 * task, two numbered steps (download the thesis, upload the report), then a confirmation. The
 * token is taken from the address, kept for this tab only, and sent as a header on every call.
 */
export function ExaminerPage() {
  const token = useExaminerToken();

  let content;
  if (token.kind === "missing") {
    content = <LinkRefusedPage reason="missing" schoolContact={null} />;
  } else if (token.kind === "malformed") {
    content = <LinkRefusedPage reason="invalid" schoolContact={null} />;
  } else {
    content = <Examination token={token.token} />;
  }
  return <div className="examiner">{content}</div>;
}

type TokenState = { kind: "token"; token: string } | { kind: "missing" } | { kind: "malformed" };

/**
 * The token from the address's fragment (then removed from the address bar with a replace, so
 * it is neither shown nor kept in the history), else the one this tab kept from an earlier visit.
 */
function useExaminerToken(): TokenState {
  const location = useLocation();
  const navigate = useNavigate();
  const fromHash = tokenFromHash(location.hash);
  const [kept, setKept] = useState<TokenState>(() => {
    if (fromHash.kind !== "none") return fromHash;
    const stored = storedToken();
    return stored ? { kind: "token", token: stored } : { kind: "missing" };
  });

  const { hash, pathname, search, state } = location;
  useEffect(() => {
    const found = tokenFromHash(hash);
    if (found.kind === "none") return;
    // A mangled link must not fall back to a token kept from an earlier link.
    if (found.kind === "token") storeToken(found.token);
    setKept(found);
    void navigate(
      { pathname, search, hash: "" },
      { replace: true, state: state as unknown, preventScrollReset: true },
    );
  }, [hash, pathname, search, state, navigate]);

  // The address still holding the fragment wins for the render before the effect runs.
  return fromHash.kind === "none" ? kept : fromHash;
}

function Examination({ token }: { token: string }) {
  const assignment = useAssignment(token);
  const [justSubmitted, setJustSubmitted] = useState(false);
  const onUploaded = useCallback(() => setJustSubmitted(true), []);

  if (assignment.isPending) {
    return <Loading label="Opening your examination..." />;
  }
  if (assignment.isError) {
    const error = assignment.error;
    if (error instanceof LinkRefusedError) {
      return <LinkRefusedPage reason={error.reason} schoolContact={error.schoolContact} />;
    }
    return <LoadFailure error={error} onRetry={() => void assignment.refetch()} />;
  }
  const data = assignment.data;
  if (data.done) return <DonePage assignment={data} focus={justSubmitted} />;
  return (
    <ExaminationView
      token={token}
      assignment={data}
      onUploaded={onUploaded}
      justSubmitted={justSubmitted}
    />
  );
}

function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const rateLimited = error instanceof ApiError && error.status === 429;
  return (
    <section className="examiner__card card" aria-labelledby="examiner-failure-title">
      <p className="examiner__eyebrow">School of Graduate Studies · Thesis examination</p>
      <h1 id="examiner-failure-title">
        {rateLimited ? "Please wait a few minutes" : "The examination could not be opened"}
      </h1>
      <div role="alert" className={rateLimited ? "alert alert--warning" : "alert alert--error"}>
        <p>
          {rateLimited
            ? "Too many attempts came from this connection in a short time. Wait a few minutes, then reload the page. Your link still works."
            : error instanceof ApiError && error.isNetworkError
              ? "The page could not reach the server. Check your connection and try again."
              : "Something went wrong on our side. Please try again in a few minutes."}
        </p>
        {rateLimited ? null : (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onRetry}
          >
            Try again
          </button>
        )}
      </div>
      <SchoolContact contact={null} />
    </section>
  );
}

function roleWords(assignment: ExaminerAssignment): string {
  return `${EXAMINER_KIND_LABELS[assignment.role]} examiner`;
}

function ThesisHeader({ assignment }: { assignment: ExaminerAssignment }) {
  const { thesis, dueOn } = assignment;
  const due = dueOn ? dueInWords(dueOn) : null;
  return (
    <header className="examiner__header card">
      <p className="examiner__eyebrow">School of Graduate Studies · Thesis examination</p>
      <h1 className="examiner__title">{thesis.title ?? "Thesis examination"}</h1>
      <p className="examiner__greeting">
        Dear {assignment.examinerName}, thank you for examining this thesis as its{" "}
        {roleWords(assignment).toLowerCase()}.
      </p>
      <FactList
        className="examiner__facts"
        facts={[
          { label: "Programme", value: thesis.programme },
          { label: "Your role", value: roleWords(assignment) },
          dueOn
            ? {
                label: "Report due",
                value: (
                  <>
                    {formatDate(dueOn)}
                    {due ? <span className="examiner__due"> ({due})</span> : null}
                  </>
                ),
              }
            : null,
          assignment.receivedAt
            ? { label: "You downloaded it", value: formatDate(assignment.receivedAt) }
            : null,
        ]}
      />
    </header>
  );
}

function Abstract({ abstract }: { abstract: string | null }) {
  return (
    <section className="examiner__abstract card" aria-labelledby="examiner-abstract-title">
      <h2 id="examiner-abstract-title">Abstract</h2>
      {abstract ? (
        <p className="examiner__text">{abstract}</p>
      ) : (
        <p className="muted">The student has not given an abstract.</p>
      )}
    </section>
  );
}

function ExaminationView({
  token,
  assignment,
  onUploaded,
  justSubmitted,
}: {
  token: string;
  assignment: ExaminerAssignment;
  onUploaded: () => void;
  justSubmitted: boolean;
}) {
  const file = assignment.thesis.file;
  return (
    <>
      <ThesisHeader assignment={assignment} />
      <Abstract abstract={assignment.thesis.abstract} />
      {assignment.report ? (
        <>
          <ReportReceived assignment={assignment} focus={justSubmitted} />
          {assignment.corrections ? (
            <CorrectionsStep token={token} corrections={assignment.corrections} file={file} />
          ) : null}
        </>
      ) : (
        <ol className="examiner__steps">
          <li>
            <section className="examiner__step card" aria-labelledby="examiner-step-download">
              <h2 id="examiner-step-download">
                <span className="examiner__step-number">1.</span> Download the thesis
              </h2>
              {file ? (
                <ThesisDownload token={token} file={file} />
              ) : (
                <p>
                  The thesis file is not available yet. The school will email you when it is; please
                  contact them if you were expecting it.
                </p>
              )}
            </section>
          </li>
          <li>
            <section className="examiner__step card" aria-labelledby="examiner-step-report">
              <h2 id="examiner-step-report">
                <span className="examiner__step-number">2.</span> Upload your report
              </h2>
              <p className="muted">
                Give your recommendation and upload your report as a PDF. The school reads both; the
                student sees neither your name nor your report.
              </p>
              <ReportForm token={token} onUploaded={onUploaded} />
            </section>
          </li>
        </ol>
      )}
      <SchoolContact contact={assignment.schoolContact} />
    </>
  );
}

/** The confirmation after the report: the date, the recommendation, what happens next. */
function ReportReceived({ assignment, focus }: { assignment: ExaminerAssignment; focus: boolean }) {
  const report = assignment.report;
  const headingRef = useFocusOnMount<HTMLHeadingElement>(focus);
  if (!report) return null;
  return (
    <section
      className="examiner__step examiner__received card"
      aria-labelledby="examiner-received-title"
    >
      <h2 id="examiner-received-title" ref={headingRef} tabIndex={-1}>
        Thank you, your report was received on {formatDate(report.uploadedAt)}
      </h2>
      <div role="status">
        <p>
          {report.fileName} · your recommendation:{" "}
          <strong>{RECOMMENDATION_LABELS[report.recommendation]}</strong>
        </p>
      </div>
      <p>
        <strong>What happens next: </strong>
        the school reads both examiners' reports and tells the student the outcome.
        {assignment.role === "internal"
          ? " If corrections are asked for, we will email you when the corrected thesis is ready for your confirmation; keep the email with your link."
          : " There is nothing more you need to do."}
      </p>
    </section>
  );
}

/** Nothing left for this examiner: a thank-you with the school's contact. */
function DonePage({ assignment, focus }: { assignment: ExaminerAssignment; focus: boolean }) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>(focus);
  const { report, corrections } = assignment;
  const heading =
    report && !(corrections?.state === "approved")
      ? `Thank you, your report was received on ${formatDate(report.uploadedAt)}`
      : "Thank you";
  return (
    <section className="examiner__card card" aria-labelledby="examiner-done-title">
      <p className="examiner__eyebrow">School of Graduate Studies · Thesis examination</p>
      <h1 id="examiner-done-title" ref={headingRef} tabIndex={-1}>
        {heading}
      </h1>
      <div role="status">
        {assignment.thesis.title ? (
          <p>
            Thesis: <strong>{assignment.thesis.title}</strong> ({assignment.thesis.programme})
          </p>
        ) : null}
        {report ? (
          <p>
            Your report ({report.fileName}) was received on {formatDate(report.uploadedAt)}, with
            your recommendation: <strong>{RECOMMENDATION_LABELS[report.recommendation]}</strong>.
          </p>
        ) : null}
        {corrections?.state === "approved" ? (
          <p>
            {corrections.approvedAt
              ? `The corrections were approved on ${formatDate(corrections.approvedAt)}.`
              : "The corrections were approved."}
          </p>
        ) : null}
        <p>There is nothing more for you to do on this examination. Thank you for your work.</p>
      </div>
      <SchoolContact contact={assignment.schoolContact} />
    </section>
  );
}

/** Moves focus to the element once, when it appears after the examiner's own action. */
function useFocusOnMount<T extends HTMLElement>(focus: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return ref;
}

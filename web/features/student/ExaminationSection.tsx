import type { StudentExamination } from "../../../common/examiners.js";
import type { Examiner } from "../../../common/workflow.js";
import { ErrorState } from "../../components/ui/ErrorState.js";
import { ApiError } from "../../lib/api-client.js";
import { formatDate } from "../../lib/format.js";
import { useStudentExamination } from "./api/student-examination.js";
import "./examination.css";

type Outcome = NonNullable<StudentExamination["outcome"]>;

const ROLE_WORDS: Record<Examiner, string> = { internal: "internal", external: "external" };

/** Something to show: a thesis sent, a report in, or an outcome released. */
export function hasExaminationNews(examination: StudentExamination): boolean {
  const { internal, external, outcome } = examination;
  return Boolean(
    internal.sentOn ||
    internal.reportReceivedOn ||
    external.sentOn ||
    external.reportReceivedOn ||
    outcome,
  );
}

/**
 * "Examination" on the status page: for each examiner, when the thesis went to them and when
 * their report came in (never who they are, nor the report), then the school's decision and,
 * for corrections, what was asked and where the corrections stand. Hidden until something has
 * happened; a submission whose examination the server cannot describe (404) shows nothing either.
 */
export function ExaminationSection({ indexNumber }: { indexNumber: string }) {
  const examination = useStudentExamination(indexNumber);

  if (examination.isPending) return null;
  if (examination.isError) {
    if (examination.error instanceof ApiError && examination.error.status === 404) return null;
    return (
      <section className="card status__examination" aria-labelledby="examination-title">
        <h2 id="examination-title">Examination</h2>
        <ErrorState
          message="We could not load where your examination stands. Check your connection and try again."
          onRetry={() => void examination.refetch()}
        />
      </section>
    );
  }
  const data = examination.data;
  if (!hasExaminationNews(data)) return null;

  return (
    <section
      className="card status__examination"
      aria-labelledby="examination-title"
      aria-busy={examination.isFetching}
    >
      <h2 id="examination-title">Examination</h2>
      <ul className="examination__roles">
        <ExaminerLine role="internal" line={data.internal} />
        <ExaminerLine role="external" line={data.external} />
      </ul>
      {data.outcome ? <OutcomeView outcome={data.outcome} /> : null}
    </section>
  );
}

function ExaminerLine({ role, line }: { role: Examiner; line: StudentExamination["internal"] }) {
  const who = ROLE_WORDS[role];
  const [chip, chipClass] = line.reportReceivedOn
    ? ["Report received", "chip chip--green"]
    : line.sentOn
      ? ["With the examiner", "chip chip--navy"]
      : ["Not sent yet", "chip"];
  return (
    <li className="examination__role" aria-labelledby={`examination-${role}`}>
      <div className="examination__role-head">
        <h3 id={`examination-${role}`} className="examination__role-title">
          {role === "internal" ? "Internal examiner" : "External examiner"}
        </h3>
        <span className={chipClass}>{chip}</span>
      </div>
      <ul className="examination__dates">
        <li>
          {line.sentOn
            ? `Thesis sent to the ${who} examiner on ${formatDate(line.sentOn)}`
            : `Not sent to the ${who} examiner yet`}
        </li>
        {line.reportReceivedOn ? (
          <li>{`${who === "internal" ? "Internal" : "External"} examiner's report received on ${formatDate(line.reportReceivedOn)}`}</li>
        ) : line.sentOn ? (
          <li className="muted">Report not received yet</li>
        ) : null}
      </ul>
    </li>
  );
}

function correctionsLine(outcome: Outcome): string | null {
  switch (outcome.correctionState) {
    case "not_needed":
      return null;
    case "to_upload":
      return "Upload your corrected thesis in Your documents.";
    case "to_confirm":
      return "Your corrected thesis is with the internal examiner for confirmation.";
    case "approved":
      return outcome.correctionsApprovedOn
        ? `Corrections approved on ${formatDate(outcome.correctionsApprovedOn)}.`
        : "Corrections approved.";
  }
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  const next = correctionsLine(outcome);
  return (
    <div className="examination__outcome">
      <h3 className="examination__outcome-title">Outcome</h3>
      <p>
        The school's decision, released on {formatDate(outcome.releasedOn)}:{" "}
        <strong className="examination__decision">{outcome.label}</strong>
      </p>
      {outcome.corrections ? (
        <div className="examination__corrections">
          <p className="examination__corrections-title">Corrections requested</p>
          <p className="examination__corrections-text">{outcome.corrections}</p>
        </div>
      ) : null}
      {next ? (
        <p
          className={
            outcome.correctionState === "to_upload"
              ? "examination__next examination__next--todo"
              : "examination__next"
          }
        >
          {outcome.correctionState === "to_upload" ? <strong>To do: </strong> : null}
          {next}
        </p>
      ) : null}
    </div>
  );
}

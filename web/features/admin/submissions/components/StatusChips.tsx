import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import {
  DOCUMENTS,
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  type ExaminerState,
} from "../../../../../common/workflow.js";

const EXAMINER_TONE: Record<ExaminerState, string> = {
  awaiting: "chip--amber",
  received: "chip--navy",
  report_submitted: "chip--green",
};

/**
 * The row's progress as small chips: colour helps the eye, the words carry the meaning.
 * Rendered up to 100 times a page, so each chip's words are one string (one text node, not one per
 * JSX part) and the missing documents are counted without building an array.
 */
export function StatusChips({ submission }: { submission: SubmissionDto }) {
  let missing = 0;
  for (const item of DOCUMENTS) if (!submission.documents[item].submitted) missing += 1;
  const stage = submission.sgsStage;
  const internal = submission.internalExaminer;
  const external = submission.externalExaminer;
  return (
    <span className="status-chips">
      <span
        className={
          stage === "sent_to_examiners" ? "chip chip--green" : stage ? "chip chip--navy" : "chip"
        }
      >
        {`SGS: ${stage ? SGS_STAGE_LABELS[stage] : "Not started"}`}
      </span>
      {internal ? (
        <span className={`chip ${EXAMINER_TONE[internal]}`}>
          {`Internal: ${EXAMINER_STATE_LABELS[internal]}`}
        </span>
      ) : null}
      {external ? (
        <span className={`chip ${EXAMINER_TONE[external]}`}>
          {`External: ${EXAMINER_STATE_LABELS[external]}`}
        </span>
      ) : null}
      {submission.documentsToReview > 0 ? (
        <span className="chip chip--navy">{`${submission.documentsToReview} to review`}</span>
      ) : null}
      {missing > 0 ? (
        <span className="chip chip--amber">
          {`${missing} ${missing === 1 ? "document" : "documents"} missing`}
        </span>
      ) : null}
    </span>
  );
}

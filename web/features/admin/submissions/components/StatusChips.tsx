import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import {
  DOCUMENTS,
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  type ExaminerState,
} from "../../../../../common/workflow.js";

/** The row's progress as small chips: colour helps the eye, the words carry the meaning. */
export function StatusChips({ submission }: { submission: SubmissionDto }) {
  const missing = DOCUMENTS.filter((item) => !submission.documents[item].submitted).length;
  const stage = submission.sgsStage;
  return (
    <span className="status-chips">
      <span
        className={`chip ${stage === "sent_to_examiners" ? "chip--green" : stage ? "chip--navy" : ""}`}
      >
        SGS: {stage ? SGS_STAGE_LABELS[stage] : "Not started"}
      </span>
      {submission.internalExaminer ? (
        <ExaminerChip who="Internal" state={submission.internalExaminer} />
      ) : null}
      {submission.externalExaminer ? (
        <ExaminerChip who="External" state={submission.externalExaminer} />
      ) : null}
      {submission.documentsToReview > 0 ? (
        <span className="chip chip--navy">{submission.documentsToReview} to review</span>
      ) : null}
      {missing > 0 ? (
        <span className="chip chip--amber">
          {missing} {missing === 1 ? "document" : "documents"} missing
        </span>
      ) : null}
    </span>
  );
}

const EXAMINER_TONE: Record<ExaminerState, string> = {
  awaiting: "chip--amber",
  received: "chip--navy",
  report_submitted: "chip--green",
};

function ExaminerChip({ who, state }: { who: string; state: ExaminerState }) {
  return (
    <span className={`chip ${EXAMINER_TONE[state]}`}>
      {who}: {EXAMINER_STATE_LABELS[state]}
    </span>
  );
}

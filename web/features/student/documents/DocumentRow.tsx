import type { DocumentSlot, ThesisDetails as SavedDetails } from "../../../../common/documents.js";
import type { CorrectionState } from "../../../../common/examiners.js";
import { formatDate, formatDateTime } from "../../../lib/format.js";
import { CurrentVersion, EarlierVersions } from "./DocumentVersions.js";
import {
  DocumentStateIcon,
  ROW_STATE_CHIP,
  ROW_STATE_WORDS,
  type RowState,
} from "./DocumentStateIcon.js";
import { hasThesisDetails, ThesisDetails } from "./ThesisDetails.js";
import { UploadControl } from "./UploadControl.js";
import { useDocumentUpload, type UploadState } from "./use-document-upload.js";

function rowState(slot: DocumentSlot, upload: UploadState, corrections: CorrectionState): RowState {
  if (upload.phase === "sending") return "uploading";
  if (upload.phase === "checking") return "checking";
  // The examined thesis stays accepted, but the corrected one is the student's to upload now.
  if (corrections === "to_upload" && slot.canUpload && slot.state === "accepted")
    return "to_upload";
  return slot.state;
}

/** While corrections are open, the thesis row speaks of the corrected thesis. */
function correctionsSentence(
  slot: DocumentSlot,
  state: RowState,
  corrections: CorrectionState,
): string | null {
  if (corrections === "to_upload" && (state === "to_upload" || state === "returned")) {
    return "The examiners asked for corrections. Upload your corrected thesis as a PDF; the internal examiner will then confirm the corrections.";
  }
  if (corrections === "to_confirm" && state === "with_school") {
    return slot.current
      ? `Corrected thesis uploaded on ${formatDate(slot.current.uploadedAt)}. The internal examiner will confirm the corrections.`
      : "Corrected thesis uploaded. The internal examiner will confirm the corrections.";
  }
  return null;
}

/** The state in a sentence: dates where the school has them, and what to do where it is up to you. */
function stateSentence(slot: DocumentSlot, state: RowState, needsDetails: boolean): string {
  switch (state) {
    case "to_upload":
      return needsDetails
        ? "Not uploaded yet. Give the title and abstract, then upload the thesis as a PDF."
        : "Not uploaded yet. Upload it as a PDF.";
    case "uploading":
      return "Sending the file.";
    case "checking":
      return "The file has arrived; it is being checked.";
    case "with_school":
      return slot.current
        ? `Uploaded on ${formatDate(slot.current.uploadedAt)}. The school will accept it or return it with a reason.`
        : "The school will accept it or return it with a reason.";
    case "accepted":
      if (slot.clearedBy) {
        return `Cleared by ${slot.clearedBy.system} on ${formatDateTime(slot.clearedBy.at)}`;
      }
      if (slot.paperCopy) {
        return slot.receivedOn
          ? `Received on paper, ${formatDate(slot.receivedOn)}`
          : "Received on paper";
      }
      return slot.receivedOn ? `Accepted on ${formatDate(slot.receivedOn)}` : "Accepted";
    case "returned":
      return slot.current?.reviewedAt
        ? `Returned on ${formatDate(slot.current.reviewedAt)}. Upload a new version.`
        : "Returned by the school. Upload a new version.";
  }
}

export function DocumentRow({
  indexNumber,
  slot,
  thesis,
  corrections = "not_needed",
}: {
  indexNumber: string;
  slot: DocumentSlot;
  thesis: SavedDetails;
  /** Where the examination's corrections stand (the thesis row only). */
  corrections?: CorrectionState;
}) {
  const upload = useDocumentUpload(indexNumber, slot);
  const state = rowState(slot, upload.state, corrections);
  const correctedThesis = corrections === "to_upload" && slot.canUpload;
  const titleId = `document-${slot.item}-title`;
  const isThesis = slot.item === "thesis";
  // An upload under way keeps its control (progress, Cancel) even if the slot changes meanwhile.
  const showUpload = slot.canUpload || upload.state.phase !== "idle";
  const returnReason = slot.state === "returned" ? slot.current?.returnReason : null;
  const needsDetails = isThesis && !hasThesisDetails(thesis);

  return (
    <li className={`document document--${state}`} aria-labelledby={titleId}>
      <div className="document__head">
        <DocumentStateIcon state={state} />
        <h3 id={titleId} className="document__title">
          {slot.label}
        </h3>
        <span className={ROW_STATE_CHIP[state]}>{ROW_STATE_WORDS[state]}</span>
      </div>
      <div className="document__body">
        <p className="document__state">
          {correctionsSentence(slot, state, corrections) ??
            stateSentence(slot, state, needsDetails)}
        </p>
        {isThesis ? (
          <ThesisDetails indexNumber={indexNumber} details={thesis} canChange={slot.canUpload} />
        ) : null}
        {slot.current ? <CurrentVersion version={slot.current} /> : null}
        {returnReason ? (
          <div className="document__reason">
            <p className="document__reason-title">Why the school returned it</p>
            <p className="document__reason-text">{returnReason}</p>
          </div>
        ) : null}
        {showUpload ? (
          <UploadControl
            label={slot.label}
            maxBytes={slot.maxBytes}
            upload={upload.state}
            replacing={slot.current !== null}
            lead={correctedThesis ? "Upload your corrected thesis" : null}
            canChoose={slot.canUpload}
            blockedBecause={
              needsDetails
                ? "Save the thesis title and abstract above first; then you can upload the thesis."
                : null
            }
            onFile={upload.start}
            onRefuse={upload.refuse}
            onCancel={upload.cancel}
            onRetry={upload.retry}
          />
        ) : null}
        <EarlierVersions versions={slot.earlier} />
      </div>
    </li>
  );
}

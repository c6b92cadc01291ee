import type { DocumentSlot, ThesisDetails as SavedDetails } from "../../../../common/documents.js";
import { formatDate } from "../../../lib/format.js";
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

function rowState(slot: DocumentSlot, upload: UploadState): RowState {
  if (upload.phase === "sending") return "uploading";
  if (upload.phase === "checking") return "checking";
  return slot.state;
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
}: {
  indexNumber: string;
  slot: DocumentSlot;
  thesis: SavedDetails;
}) {
  const upload = useDocumentUpload(indexNumber, slot);
  const state = rowState(slot, upload.state);
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
        <p className="document__state">{stateSentence(slot, state, needsDetails)}</p>
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

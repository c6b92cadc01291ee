import { useEffect, useId, useRef, useState } from "react";
import type { DocumentSlot, DocumentVersion } from "../../../../../common/documents.js";
import type { DocumentItem } from "../../../../../common/workflow.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { Loading } from "../../../../components/ui/Loading.js";
import { formatDate, formatDateTime } from "../../../../lib/format.js";
import { messageFor } from "../../../../lib/form-errors.js";
import { LoadError } from "../../components/LoadError.js";
import { useAcceptDocument } from "../api/accept-document.js";
import { documentsZipHref } from "../api/documents-zip-href.js";
import { useSubmissionDocuments } from "../api/get-submission-documents.js";
import {
  REVIEW_STATE_WORDS,
  SLOT_STATE_ICONS,
  SLOT_STATE_TONES,
  downloadHref,
  reviewActions,
  slotStateText,
  versionFacts,
  versionFlags,
} from "../lib/document-review.js";
import { ReturnDocumentDialog } from "./ReturnDocumentDialog.js";

interface Returning {
  item: DocumentItem;
  label: string;
  version: DocumentVersion;
}

/**
 * The documents of one submission, for review (DESIGN: "Reviewing (the administrator)"): each
 * checklist item with its state, the current upload's facts and flags, a link to read it, Accept
 * and Return beside it, and earlier versions folded away. Decisions are announced in a status
 * region and focus lands on the document decided, since its buttons change under the pointer.
 */
export function SubmissionDocuments({
  submissionId,
  indexNumber,
}: {
  submissionId: number;
  indexNumber: string;
}) {
  const headingId = useId();
  const documents = useSubmissionDocuments(submissionId, indexNumber);
  const accept = useAcceptDocument(submissionId);
  const [announcement, setAnnouncement] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [returning, setReturning] = useState<Returning | null>(null);
  // The turn makes a second decision on the same document move focus again.
  const [decided, setDecided] = useState<{ item: DocumentItem; turn: number } | null>(null);
  const headings = useRef(new Map<DocumentItem, HTMLHeadingElement>());

  useEffect(() => {
    if (decided) headings.current.get(decided.item)?.focus();
  }, [decided]);

  const acceptVersion = (slot: DocumentSlot, version: DocumentVersion) => {
    setAnnouncement("");
    setProblem(null);
    accept.mutate(version.id, {
      onSuccess: (accepted) => {
        const on = accepted.reviewedAt ? ` on ${formatDate(accepted.reviewedAt)}` : "";
        setAnnouncement(`${slot.label} accepted: the checklist shows it received${on}.`);
        setDecided((last) => ({ item: slot.item, turn: (last?.turn ?? 0) + 1 }));
      },
      onError: (error) => {
        setProblem(
          `${slot.label} was not accepted. ${messageFor(error, "We could not reach the server; try again.")}`,
        );
      },
    });
  };

  const items = documents.data?.items ?? [];
  const anyUpload = items.some((slot) => slot.current !== null);

  return (
    <section aria-labelledby={headingId} className="review-documents">
      <div className="review-documents__header">
        <h3 id={headingId}>Documents</h3>
        {anyUpload ? (
          <a
            className="button button--secondary button--small"
            href={documentsZipHref(submissionId)}
            download
          >
            Download all (zip)
          </a>
        ) : null}
      </div>
      <p role="status" aria-live="polite" className="review-documents__status">
        {announcement}
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}

      {documents.isPending ? (
        <Loading label="Loading the documents…" />
      ) : documents.isError ? (
        <LoadError
          error={documents.error}
          what="the documents"
          onRetry={() => void documents.refetch()}
        />
      ) : items.length === 0 ? (
        <p className="empty">No documents are listed for this submission.</p>
      ) : (
        <>
          {anyUpload ? null : (
            <p className="muted">
              The student has not uploaded any document yet. Record a paper copy under “Documents
              received” below.
            </p>
          )}
          <ul className="review-documents__list">
            {items.map((slot) => (
              <DocumentEntry
                key={slot.item}
                slot={slot}
                headingRef={(heading) => {
                  if (heading) headings.current.set(slot.item, heading);
                  else headings.current.delete(slot.item);
                }}
                busy={accept.isPending && accept.variables === slot.current?.id}
                onAccept={(version) => acceptVersion(slot, version)}
                onReturn={(version) => {
                  setAnnouncement("");
                  setProblem(null);
                  setReturning({ item: slot.item, label: slot.label, version });
                }}
              />
            ))}
          </ul>
        </>
      )}

      {returning ? (
        <ReturnDocumentDialog
          submissionId={submissionId}
          label={returning.label}
          version={returning.version}
          onClose={() => setReturning(null)}
          onReturned={() => {
            setReturning(null);
            setAnnouncement(
              `${returning.label} returned to the student with your reason. They can upload a new version.`,
            );
            setDecided((last) => ({ item: returning.item, turn: (last?.turn ?? 0) + 1 }));
          }}
        />
      ) : null}
    </section>
  );
}

function DocumentEntry({
  slot,
  headingRef,
  busy,
  onAccept,
  onReturn,
}: {
  slot: DocumentSlot;
  headingRef: (heading: HTMLHeadingElement | null) => void;
  busy: boolean;
  onAccept: (version: DocumentVersion) => void;
  onReturn: (version: DocumentVersion) => void;
}) {
  const { current } = slot;
  const actions = reviewActions(slot);
  return (
    <li className="review-document" data-state={slot.state}>
      <div className="review-document__head">
        <h4 ref={headingRef} tabIndex={-1} className="review-document__name">
          {slot.label}
        </h4>
        <span className={`chip ${SLOT_STATE_TONES[slot.state]}`}>
          <span aria-hidden="true">{SLOT_STATE_ICONS[slot.state]}</span>
          {slotStateText(slot)}
        </span>
      </div>
      {slot.clearedBy ? (
        <p className="muted">
          Cleared by {slot.clearedBy.system} on {formatDateTime(slot.clearedBy.at)}
        </p>
      ) : null}

      {current ? (
        <>
          <VersionFacts version={current} />
          <div className="review-document__actions">
            <a
              className="button button--secondary button--small"
              href={current.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Open ${slot.label} (PDF, opens in a new tab)`}
            >
              Open {slot.label}
            </a>
            <a
              className="button button--link"
              href={downloadHref(current.href)}
              download
              aria-label={`Download ${slot.label}`}
            >
              Download
            </a>
            {actions.accept ? (
              <button
                type="button"
                className="button button--small"
                disabled={busy}
                onClick={() => onAccept(current)}
                aria-label={`${busy ? "Accepting" : "Accept"} ${slot.label}`}
              >
                {busy ? "Accepting…" : "Accept"}
              </button>
            ) : null}
            {actions.return ? (
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={busy}
                onClick={() => onReturn(current)}
                aria-label={`Return ${slot.label}`}
              >
                Return
              </button>
            ) : null}
          </div>
        </>
      ) : slot.paperCopy ? null : (
        <p className="muted review-document__none">Nothing uploaded yet.</p>
      )}

      {slot.earlier.length > 0 ? (
        <details className="review-document__earlier">
          <summary>Earlier versions ({slot.earlier.length})</summary>
          <ol>
            {slot.earlier.map((version) => (
              <li key={version.id}>
                <VersionFacts version={version} withReviewState />
                <a
                  href={version.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Open version ${version.version} of the ${slot.label} (PDF, opens in a new tab)`}
                >
                  Open version {version.version}
                </a>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  );
}

function VersionFacts({
  version,
  withReviewState = false,
}: {
  version: DocumentVersion;
  withReviewState?: boolean;
}) {
  const flags = versionFlags(version);
  return (
    <div className="review-version">
      <p className="review-version__file">
        <span className="review-version__name">{version.fileName}</span>{" "}
        <span className="muted">· version {version.version}</span>
        {withReviewState ? (
          <>
            {" "}
            · {REVIEW_STATE_WORDS[version.reviewState]}
            {version.reviewedAt ? ` ${formatDate(version.reviewedAt)}` : ""}
          </>
        ) : null}
      </p>
      <p className="review-version__facts">{versionFacts(version)}</p>
      {flags.length > 0 ? (
        <ul className="review-version__flags" aria-label="Warnings">
          {flags.map((flag) => (
            <li key={flag} className="chip chip--red">
              <span aria-hidden="true">⚠</span>
              {flag}
            </li>
          ))}
        </ul>
      ) : null}
      {version.reviewState === "returned" && version.returnReason ? (
        <div className="review-version__reason">
          <p>
            {withReviewState
              ? "Reason:"
              : `Returned${version.reviewedAt ? ` ${formatDate(version.reviewedAt)}` : ""} with this reason:`}
          </p>
          <blockquote>{version.returnReason}</blockquote>
        </div>
      ) : null}
    </div>
  );
}

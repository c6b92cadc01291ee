import { useEffect } from "react";
import type { DocumentSlot } from "../../../../common/documents.js";
import { ErrorState } from "../../../components/ui/ErrorState.js";
import { Loading } from "../../../components/ui/Loading.js";
import { ApiError } from "../../../lib/api-client.js";
import { useStudentExamination } from "../api/student-examination.js";
import { useSubmissionDocuments } from "../api/submission-documents.js";
import { DocumentRow } from "./DocumentRow.js";

/**
 * "Your documents" on the status page: one row per checklist item, in the checklist's order, each
 * with its state in words and an icon, its versions, and the upload.
 */
export function DocumentsSection({ indexNumber }: { indexNumber: string }) {
  const documents = useSubmissionDocuments(indexNumber);
  // The thesis row words its upload for the corrected thesis while corrections are open. The
  // examination only adds that wording: while it loads or if it fails, the row shows as before.
  const examination = useStudentExamination(indexNumber);
  const corrections = examination.data?.outcome?.correctionState ?? "not_needed";
  useIgnoreStrayDrops();

  let body;
  if (documents.isPending) {
    body = <Loading label="Loading your documents..." />;
  } else if (documents.isError) {
    body = (
      <ErrorState
        message={loadErrorMessage(documents.error)}
        onRetry={() => void documents.refetch()}
      />
    );
  } else if (documents.data.items.length === 0) {
    body = (
      <p className="empty">
        No documents are asked of you yet. The School of Graduate Studies will say here when they
        are.
      </p>
    );
  } else {
    const { items, thesis } = documents.data;
    body = (
      <>
        <p className="documents__summary">{summary(items)}</p>
        <ul className="documents">
          {items.map((slot) => (
            <DocumentRow
              key={slot.item}
              indexNumber={indexNumber}
              slot={slot}
              thesis={thesis}
              corrections={slot.item === "thesis" ? corrections : "not_needed"}
            />
          ))}
        </ul>
      </>
    );
  }

  return (
    <section
      className="card status__documents"
      aria-labelledby="documents-title"
      aria-busy={documents.isFetching}
    >
      <h2 id="documents-title">Your documents</h2>
      <p className="muted documents__intro">
        Upload each document as a PDF. The school checks each one and accepts it, or returns it with
        the reason so you can upload a new version.
      </p>
      {body}
    </section>
  );
}

function loadErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) {
    return "You can only see the documents of your own submission. If this is your index number, please contact us.";
  }
  return "We could not load your documents. Check your connection and try again.";
}

/** "2 of 5 accepted. 1 returned: upload a new version. 2 to upload." */
function summary(items: DocumentSlot[]): string {
  const count = (state: DocumentSlot["state"]) => items.filter((s) => s.state === state).length;
  const accepted = count("accepted");
  if (accepted === items.length) return "The school has accepted all your documents.";
  const parts = [`${accepted} of ${items.length} accepted.`];
  const returned = count("returned");
  if (returned > 0) parts.push(`${returned} returned: upload a new version.`);
  const waiting = count("with_school");
  if (waiting > 0) parts.push(`${waiting} with the school for review.`);
  const toUpload = count("to_upload");
  if (toUpload > 0) parts.push(`${toUpload} to upload.`);
  return parts.join(" ");
}

/**
 * A file dropped beside a drop zone would make the browser leave the page to show it, losing
 * an upload in progress. While this section is on screen such drops do nothing; the zones
 * handle their own drops before the event reaches the window.
 */
function useIgnoreStrayDrops() {
  useEffect(() => {
    const ignore = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    window.addEventListener("dragover", ignore);
    window.addEventListener("drop", ignore);
    return () => {
      window.removeEventListener("dragover", ignore);
      window.removeEventListener("drop", ignore);
    };
  }, []);
}

import { useState } from "react";
import type { ExaminerAssignment } from "../../../common/examiners.js";
import { Alert } from "../../components/ui/Alert.js";
import { ConfirmDialog } from "../../components/ui/ConfirmDialog.js";
import { formatDate } from "../../lib/format.js";
import { messageFor } from "../../lib/form-errors.js";
import { useApproveCorrections } from "./api/approve-corrections.js";
import { ThesisDownload } from "./ThesisDownload.js";

type Corrections = NonNullable<ExaminerAssignment["corrections"]>;

/**
 * The internal examiner's part after a corrections outcome: the corrections the school asked for,
 * then, once the student has uploaded the corrected thesis, its download and "Confirm the
 * corrections" (asked once more in a dialog, since it cannot be undone here).
 */
export function CorrectionsStep({
  token,
  corrections,
  file,
}: {
  token: string;
  corrections: Corrections;
  file: ExaminerAssignment["thesis"]["file"];
}) {
  const approve = useApproveCorrections(token);
  const [asking, setAsking] = useState(false);

  return (
    <section className="examiner__step card" aria-labelledby="examiner-corrections-title">
      <h2 id="examiner-corrections-title">Confirm the corrections</h2>
      {corrections.requested ? (
        <div className="examiner__requested">
          <h3>Corrections the school asked for</h3>
          <p className="examiner__text">{corrections.requested}</p>
        </div>
      ) : null}

      {corrections.state === "to_upload" ? (
        <p>
          The student is preparing the corrected thesis. We will email you when it is ready for your
          confirmation; this link stays valid for it.
        </p>
      ) : null}

      {corrections.state === "to_confirm" ? (
        <>
          <p>
            The student has uploaded the corrected thesis. Please read it and, if the corrections
            have been made, confirm them. If they have not, contact the school instead.
          </p>
          {file ? <ThesisDownload token={token} file={file} corrected /> : null}
          {approve.isError ? (
            <Alert tone="error">
              {messageFor(
                approve.error,
                "The confirmation could not be recorded. Please try again.",
              )}
            </Alert>
          ) : null}
          <div className="actions">
            <button type="button" className="button" onClick={() => setAsking(true)}>
              Confirm the corrections
            </button>
          </div>
          {asking ? (
            <ConfirmDialog
              title="Confirm the corrections?"
              confirmLabel="Yes, confirm the corrections"
              cancelLabel="Not yet"
              busy={approve.isPending}
              onCancel={() => setAsking(false)}
              onConfirm={() => approve.mutate(undefined, { onSettled: () => setAsking(false) })}
            >
              <p>
                The school will record the corrections as approved and tell the student. You cannot
                undo this from this page.
              </p>
            </ConfirmDialog>
          ) : null}
        </>
      ) : null}

      {corrections.state === "approved" ? (
        <p role="status">
          {corrections.approvedAt
            ? `Corrections approved on ${formatDate(corrections.approvedAt)}.`
            : "Corrections approved."}
        </p>
      ) : null}
    </section>
  );
}

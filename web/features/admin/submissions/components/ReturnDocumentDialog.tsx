import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  returnDocumentInputSchema,
  type DocumentVersion,
  type ReturnDocumentInput,
} from "../../../../../common/documents.js";
import { MAX_RETURN_REASON_LENGTH } from "../../../../../common/documents-constants.js";
import { TextAreaField } from "../../../../components/form/Field.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { ApiError } from "../../../../lib/api-client.js";
import { applyServerFieldErrors, messageFor } from "../../../../lib/form-errors.js";
import { ModalDialog } from "../../../../components/ui/ModalDialog.js";
import { useReturnDocument } from "../api/return-document.js";

/**
 * Returning a document asks why, in a dialog that keeps the document's name in its title. The
 * student reads the reason in full (message and email) and uploads a new version, so the reason
 * is required; the contract's schema checks it here and on the server.
 */
export function ReturnDocumentDialog({
  submissionId,
  label,
  version,
  onClose,
  onReturned,
}: {
  submissionId: number;
  /** The checklist item's name, e.g. "Turnitin report". */
  label: string;
  version: DocumentVersion;
  onClose: () => void;
  onReturned: (returned: DocumentVersion) => void;
}) {
  const returnDocument = useReturnDocument(submissionId);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ReturnDocumentInput>({
    resolver: zodResolver(returnDocumentInputSchema),
    defaultValues: { reason: "" },
  });
  const reasonError = form.formState.errors.reason?.message;
  const busy = returnDocument.isPending;
  const fieldId = `return-reason-${version.id}`;

  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    returnDocument.mutate(
      { versionId: version.id, input },
      {
        onSuccess: onReturned,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) {
            if (applyServerFieldErrors(error, form.setError, ["reason"])) return;
          }
          setProblem(
            `${messageFor(error, "We could not reach the server.")} The document was not returned.`,
          );
        },
      },
    );
  });

  return (
    <ModalDialog title={`Return ${label}`} onClose={onClose} busy={busy}>
      <p>
        {version.fileName} (version {version.version}) goes back to the student, who gets a message
        and an email with your reason and uploads a new version.
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <form className="form" noValidate onSubmit={onSubmit}>
        <TextAreaField
          id={fieldId}
          label="Reason for returning it"
          hint={`Say what to change. The student reads this in full (at most ${MAX_RETURN_REASON_LENGTH.toLocaleString("en-GB")} characters).`}
          error={
            reasonError
              ? /^[a-z]/.test(reasonError)
                ? `Reason ${reasonError}`
                : reasonError
              : undefined
          }
          rows={5}
          data-autofocus=""
          aria-required="true"
          {...form.register("reason")}
        />
        <div className="actions confirm-dialog__actions">
          <button type="submit" className="button button--danger" disabled={busy}>
            {busy ? "Returning…" : "Return to the student"}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={onClose}
            disabled={busy}
          >
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

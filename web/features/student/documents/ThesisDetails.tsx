import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type {
  ThesisDetails as SavedDetails,
  ThesisDetailsInput,
} from "../../../../common/documents.js";
import { MAX_ABSTRACT_LENGTH, MAX_TITLE_LENGTH } from "../../../../common/documents-constants.js";
import { TextAreaField, TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { applyServerFieldErrors, messageFor } from "../../../lib/form-errors.js";
import { lazyZodResolver } from "../../../lib/lazy-resolver.js";
import { useSaveThesisDetails } from "../api/save-thesis-details.js";

// The resolver and its schema load with the first validation, not with the status page (issue 11).
const thesisDetailsResolver = lazyZodResolver(() =>
  import("../../../../common/documents.js").then((documents) => documents.thesisDetailsInputSchema),
);

const LABELS: Record<keyof ThesisDetailsInput, string> = {
  title: "Thesis title",
  abstract: "Abstract",
};

/** "Thesis title" + "is required" → "Thesis title is required"; whole sentences stay as they are. */
function fieldMessage(field: keyof ThesisDetailsInput, message: string | undefined) {
  if (!message) return undefined;
  return /^[a-z]/.test(message) ? `${LABELS[field]} ${message}` : message;
}

export function hasThesisDetails(details: SavedDetails): boolean {
  return Boolean(details.title?.trim() && details.abstract?.trim());
}

/**
 * The thesis title and abstract, asked with the thesis: a form until they are saved (the upload
 * waits for them), then the saved text with a way to change it while the thesis can still change.
 */
export function ThesisDetails({
  indexNumber,
  details,
  canChange,
}: {
  indexNumber: string;
  details: SavedDetails;
  canChange: boolean;
}) {
  const saved = hasThesisDetails(details);
  const [editing, setEditing] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  // When the form closes, focus goes where the student's attention should be, not to the page's top.
  const [focusAfterClose, setFocusAfterClose] = useState<"saved" | "change" | null>(null);
  const savedRef = useRef<HTMLDListElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusAfterClose === "saved") savedRef.current?.focus();
    if (focusAfterClose === "change") changeRef.current?.focus();
  }, [focusAfterClose]);

  const showForm = canChange && (!saved || editing);
  return (
    <div className="thesis-details">
      {showForm ? (
        <ThesisDetailsForm
          indexNumber={indexNumber}
          details={details}
          focusFirst={editing}
          onCancel={
            saved
              ? () => {
                  setEditing(false);
                  setFocusAfterClose("change");
                }
              : null
          }
          onSaved={() => {
            setEditing(false);
            setJustSaved(true);
            setFocusAfterClose("saved");
          }}
        />
      ) : null}
      {!showForm && saved ? (
        <>
          <dl className="thesis-details__saved" ref={savedRef} tabIndex={-1}>
            <div>
              <dt>{LABELS.title}</dt>
              <dd>{details.title}</dd>
            </div>
            <div>
              <dt>{LABELS.abstract}</dt>
              <dd className="thesis-details__abstract">{details.abstract}</dd>
            </div>
          </dl>
          {canChange ? (
            <button
              ref={changeRef}
              type="button"
              className="button button--secondary"
              onClick={() => {
                setJustSaved(false);
                setFocusAfterClose(null);
                setEditing(true);
              }}
            >
              Change the title or abstract
            </button>
          ) : null}
        </>
      ) : null}
      <div role="status" className="thesis-details__saved-note">
        {justSaved ? "Title and abstract saved." : null}
      </div>
    </div>
  );
}

function ThesisDetailsForm({
  indexNumber,
  details,
  focusFirst,
  onCancel,
  onSaved,
}: {
  indexNumber: string;
  details: SavedDetails;
  /** Opened on request ("Change the title or abstract"): the title takes focus. */
  focusFirst: boolean;
  onCancel: (() => void) | null;
  onSaved: () => void;
}) {
  const save = useSaveThesisDetails(indexNumber);
  const form = useForm<ThesisDetailsInput>({
    resolver: thesisDetailsResolver,
    defaultValues: { title: details.title ?? "", abstract: details.abstract ?? "" },
  });
  const { errors } = form.formState;
  const [fieldsApplied, setFieldsApplied] = useState(false);
  const { setFocus } = form;
  useEffect(() => {
    if (focusFirst) setFocus("title");
  }, [focusFirst, setFocus]);

  const onSubmit = form.handleSubmit((values) => {
    setFieldsApplied(false);
    save.mutate(values, {
      onSuccess: onSaved,
      onError: (error) =>
        setFieldsApplied(applyServerFieldErrors(error, form.setError, ["title", "abstract"])),
    });
  });

  return (
    <form
      className="form thesis-details__form"
      noValidate
      onSubmit={onSubmit}
      aria-busy={save.isPending}
    >
      <div>
        <h4 id="thesis-details-title" className="thesis-details__title">
          Title and abstract
        </h4>
        <p className="muted thesis-details__intro">
          The school shows them to the examiners. Save them before you upload the thesis.
        </p>
      </div>
      {save.isError && !fieldsApplied ? (
        <Alert tone="error">
          {messageFor(save.error, "The title and abstract could not be saved. Please try again.")}
        </Alert>
      ) : null}
      <TextField
        id="thesis-title"
        label={LABELS.title}
        hint={`As on the title page, up to ${MAX_TITLE_LENGTH} characters.`}
        error={fieldMessage("title", errors.title?.message)}
        {...form.register("title")}
      />
      <TextAreaField
        id="thesis-abstract"
        label={LABELS.abstract}
        hint={`Up to ${MAX_ABSTRACT_LENGTH} characters.`}
        rows={8}
        error={fieldMessage("abstract", errors.abstract?.message)}
        {...form.register("abstract")}
      />
      <div className="actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save title and abstract"}
        </button>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

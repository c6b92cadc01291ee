import { useEffect, useRef, useState, type FormEvent } from "react";
import type {
  ThesisDetails as SavedDetails,
  ThesisDetailsInput,
} from "../../../../common/documents.js";
import { MAX_ABSTRACT_LENGTH, MAX_TITLE_LENGTH } from "../../../../common/documents-constants.js";
import { TextAreaField, TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { useSaveThesisDetails } from "../api/save-thesis-details.js";
import { checkThesisDetails, type ThesisDetailsErrors } from "./thesis-details-checks.js";

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
  // Plain state and a hand check rather than react-hook-form and zod, which the status page would
  // otherwise load first (issue 11). It behaves as the react-hook-form form did: checked on
  // submit, the first wrong field focused, then each field checked again as it changes.
  const [values, setValues] = useState<ThesisDetailsInput>({
    title: details.title ?? "",
    abstract: details.abstract ?? "",
  });
  const [errors, setErrors] = useState<ThesisDetailsErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [fieldsApplied, setFieldsApplied] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  const abstractRef = useRef<HTMLTextAreaElement>(null);
  const refs = { title: titleRef, abstract: abstractRef };
  useEffect(() => {
    if (focusFirst) titleRef.current?.focus();
  }, [focusFirst]);

  function change(field: keyof ThesisDetailsInput, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    if (!submitted) return;
    const checked = checkThesisDetails(next);
    setErrors((before) => ({ ...before, [field]: checked.ok ? undefined : checked.errors[field] }));
  }

  function firstWrong(wrong: ThesisDetailsErrors) {
    return (["title", "abstract"] as const).find((field) => wrong[field]);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const checked = checkThesisDetails(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      const field = firstWrong(checked.errors);
      if (field) refs[field].current?.focus();
      return;
    }
    setErrors({});
    setFieldsApplied(false);
    save.save(checked.values, {
      onSuccess: onSaved,
      onError: (error) => {
        // The server's field messages go beside the fields, and the first of them takes focus.
        const fromServer: ThesisDetailsErrors = {};
        if (error instanceof ApiError) {
          for (const problem of error.fields) {
            if (problem.field === "title" || problem.field === "abstract") {
              fromServer[problem.field] ??= problem.message;
            }
          }
        }
        const field = firstWrong(fromServer);
        if (!field) return;
        setErrors(fromServer);
        setFieldsApplied(true);
        refs[field].current?.focus();
      },
    });
  }

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
        error={fieldMessage("title", errors.title)}
        ref={titleRef}
        name="title"
        value={values.title}
        onChange={(event) => change("title", event.target.value)}
      />
      <TextAreaField
        id="thesis-abstract"
        label={LABELS.abstract}
        hint={`Up to ${MAX_ABSTRACT_LENGTH} characters.`}
        rows={8}
        error={fieldMessage("abstract", errors.abstract)}
        ref={abstractRef}
        name="abstract"
        value={values.abstract}
        onChange={(event) => change("abstract", event.target.value)}
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

import type { UseFormReturn } from "react-hook-form";
import { DOCUMENTS, DOCUMENT_LABELS } from "../../../../../common/workflow.js";
import type { SubmissionFormValues } from "../lib/submission-form.js";

/**
 * The five documents of the checklist: ticked when the school has it, with the date it arrived.
 * A date on an unticked row is ignored when the form is sent.
 */
export function DocumentChecklistFields<Output>({
  form,
  idPrefix,
}: {
  form: UseFormReturn<SubmissionFormValues, unknown, Output>;
  idPrefix: string;
}) {
  const errors = form.formState.errors.documents;
  return (
    <fieldset className="doc-checklist">
      <legend>Documents received</legend>
      <p className="field__hint">
        Tick each document the school has, and the date it arrived if known.
      </p>
      <ul className="doc-checklist__list">
        {DOCUMENTS.map((item) => {
          const error = errors?.[item]?.receivedOn?.message;
          const dateId = `${idPrefix}-doc-${item}-date`;
          return (
            <li key={item} className="doc-checklist__row">
              <label className="checkbox">
                <input type="checkbox" {...form.register(`documents.${item}.submitted`)} />
                {DOCUMENT_LABELS[item]}
              </label>
              <div className="doc-checklist__date">
                <label htmlFor={dateId} className="visually-hidden">
                  {DOCUMENT_LABELS[item]} received on
                </label>
                <input
                  id={dateId}
                  type="date"
                  className="input"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${dateId}-error` : undefined}
                  {...form.register(`documents.${item}.receivedOn`)}
                />
                {error ? (
                  <p id={`${dateId}-error`} className="field__error">
                    Received date {error}
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

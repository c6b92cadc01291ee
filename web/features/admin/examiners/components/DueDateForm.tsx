import { useState } from "react";
import { examinationChangesSchema, type Examination } from "../../../../../common/examiners.js";
import { TextField } from "../../../../components/form/Field.js";
import { ApiError } from "../../../../lib/api-client.js";
import { messageFor } from "../../../../lib/form-errors.js";
import { useChangeDueDate } from "../api/change-due-date.js";
import { fieldMessage, formatDay } from "../lib/examination.js";

/**
 * The report's due date, changed in place: a date input and Save. The scheduled reminders follow
 * the new date. Render it keyed by the due date, so a fresh answer from the server resets it.
 */
export function DueDateForm({
  submissionId,
  examination,
  roleWord,
  onSaved,
}: {
  submissionId: number;
  examination: Examination;
  /** "internal", "external": names the field for screen readers among two such forms. */
  roleWord: string;
  onSaved: (message: string) => void;
}) {
  const change = useChangeDueDate(submissionId);
  const [value, setValue] = useState(examination.dueOn ?? "");
  const [error, setError] = useState<string | undefined>(undefined);
  const id = `due-on-${examination.id}`;
  const unchanged = value === (examination.dueOn ?? "");

  const save = () => {
    const parsed = examinationChangesSchema.safeParse({ dueOn: value });
    if (!parsed.success) {
      setError(fieldMessage("Due date", parsed.error.issues[0]?.message));
      return;
    }
    setError(undefined);
    change.mutate(
      { examinationId: examination.id, changes: parsed.data },
      {
        onSuccess: () =>
          onSaved(
            `The ${roleWord} examiner’s report is now due on ${formatDay(parsed.data.dueOn)}. The reminders follow the new date.`,
          ),
        onError: (failure) => {
          const field =
            failure instanceof ApiError
              ? failure.fields.find((problem) => problem.field === "dueOn")
              : undefined;
          setError(
            field
              ? fieldMessage("Due date", field.message)
              : `${messageFor(failure, "We could not reach the server.")} The due date was not changed.`,
          );
        },
      },
    );
  };

  return (
    <form
      className="due-date-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <TextField
        id={id}
        label={
          <>
            Due date<span className="visually-hidden"> of the {roleWord} examiner’s report</span>
          </>
        }
        type="date"
        value={value}
        error={error}
        onChange={(event) => setValue(event.target.value)}
      />
      <button
        type="submit"
        className="button button--secondary button--small"
        disabled={change.isPending || unchanged}
        aria-label={change.isPending ? "Saving the due date" : "Save the due date"}
      >
        {change.isPending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

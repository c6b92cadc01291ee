import { useId, useState, type FormEvent } from "react";
import {
  bulkUpdateSchema,
  type BulkUpdate,
  type SubmissionDto,
  type WorkflowMove,
} from "../../../../../common/submissions-api.js";
import { NONE } from "../../../../../common/submissions-constants.js";
import {
  EXAMINER_STATES,
  EXAMINER_STATE_LABELS,
  SGS_STAGES,
  SGS_STAGE_LABELS,
  type WorkflowField,
} from "../../../../../common/workflow.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../../components/ui/ConfirmDialog.js";
import { messageFor } from "../../../../lib/form-errors.js";
import { readSaveRefusal } from "../api/update-submission.js";
import { useBulkUpdateSubmissions } from "../api/bulk-update-submissions.js";
import { describeMove, workflowValueLabel } from "../lib/describe.js";
import { FIELD_LABELS } from "../lib/submission-form.js";

const FIELD_OPTIONS: { value: WorkflowField; label: string }[] = [
  { value: "sgsStage", label: FIELD_LABELS.sgsStage },
  { value: "internalExaminer", label: FIELD_LABELS.internalExaminer },
  { value: "externalExaminer", label: FIELD_LABELS.externalExaminer },
];

function valueOptions(field: WorkflowField) {
  const values =
    field === "sgsStage"
      ? SGS_STAGES.map((stage) => ({ value: stage as string, label: SGS_STAGE_LABELS[stage] }))
      : EXAMINER_STATES.map((state) => ({
          value: state as string,
          label: EXAMINER_STATE_LABELS[state],
        }));
  return [...values, { value: NONE, label: "Clear (not set)" }];
}

/**
 * Issue 5 item 6: one stage or examiner state for every selected row. Moves that skip or reverse
 * the flow come back as 409 "confirmation_required"; the administrator sees each one and decides.
 */
export function BulkActions({
  selected,
  onDone,
  onClearSelection,
}: {
  selected: SubmissionDto[];
  onDone: (message: string) => void;
  onClearSelection: () => void;
}) {
  const id = useId();
  const bulk = useBulkUpdateSubmissions();
  const [field, setField] = useState<WorkflowField>("sgsStage");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState<{
    update: BulkUpdate;
    moves: WorkflowMove[];
    message: string;
  } | null>(null);

  const byId = new Map(selected.map((s) => [s.id, s]));

  const send = (update: BulkUpdate) => {
    setProblem(null);
    bulk.mutate(update, {
      onSuccess: ({ updated }) => {
        setPending(null);
        const newValue = update.set[field] ?? null;
        onDone(
          `Updated ${updated} ${updated === 1 ? "submission" : "submissions"}: ${FIELD_LABELS[field]} set to ${workflowValueLabel(field, newValue)}.`,
        );
        setValue("");
      },
      onError: (error) => {
        const refusal = readSaveRefusal(error);
        if (refusal?.kind === "confirmation_required") {
          setPending({ update, moves: refusal.moves, message: refusal.message });
          return;
        }
        setPending(null);
        setProblem(
          `${messageFor(error, "We could not reach the server.")} Nothing was changed; try again.`,
        );
      },
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!value) {
      setProblem("Choose the value to set.");
      return;
    }
    // The API's own schema checks the choice and gives it its type.
    const parsed = bulkUpdateSchema.safeParse({
      ids: selected.map((s) => s.id),
      set: { [field]: value === NONE ? null : value },
    });
    if (!parsed.success) {
      setProblem("That value cannot be set here. Choose another one.");
      return;
    }
    send(parsed.data);
  };

  return (
    <section className="bulk-actions" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="bulk-actions__title">
        {selected.length} selected
      </h2>
      <form className="bulk-actions__form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-field`}>Set</label>
          <select
            id={`${id}-field`}
            value={field}
            onChange={(event) => {
              setField(event.target.value as WorkflowField);
              setValue("");
            }}
          >
            {FIELD_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>To</label>
          <select
            id={`${id}-value`}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          >
            <option value="">Choose…</option>
            {valueOptions(field).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="submit" className="button button--small" disabled={bulk.isPending}>
            {bulk.isPending ? "Applying…" : `Apply to ${selected.length}`}
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onClearSelection}
          >
            Clear selection
          </button>
        </div>
      </form>
      {problem ? <Alert tone="error">{problem}</Alert> : null}

      {pending ? (
        <ConfirmDialog
          title="Confirm out-of-order moves"
          confirmLabel={`Yes, update all ${pending.update.ids.length}`}
          cancelLabel="No, change nothing"
          busy={bulk.isPending}
          onConfirm={() => send({ ...pending.update, confirmOutOfOrder: true })}
          onCancel={() => setPending(null)}
        >
          <p>{pending.message}</p>
          <ul>
            {pending.moves.map((move) => {
              const s = byId.get(move.submissionId);
              return (
                <li key={`${move.submissionId}-${move.field}`}>
                  {s ? `${s.studentName} (${s.indexNumber})` : `Submission ${move.submissionId}`}:{" "}
                  {describeMove(move)}
                </li>
              );
            })}
          </ul>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

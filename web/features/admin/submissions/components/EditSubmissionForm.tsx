import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import type {
  SubmissionChanges,
  SubmissionDto,
  WorkflowMove,
} from "../../../../../common/submissions-api.js";
import {
  EXAMINER_STATES,
  EXAMINER_STATE_LABELS,
  SGS_STAGES,
  SGS_STAGE_LABELS,
} from "../../../../../common/workflow.js";
import { ErrorSummary, type SummaryError } from "../../../../components/form/ErrorSummary.js";
import { SelectField, TextField } from "../../../../components/form/Field.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../../components/ui/ConfirmDialog.js";
import { ApiError } from "../../../../lib/api-client.js";
import { applyServerFieldErrors, messageFor } from "../../../../lib/form-errors.js";
import { adminKeys } from "../../query-keys.js";
import { readSaveRefusal, useUpdateSubmission } from "../api/update-submission.js";
import { describeMove } from "../lib/describe.js";
import {
  FIELD_LABELS,
  LABELLED_FIELDS,
  changedFieldLabels,
  diffChanges,
  editSubmissionFormSchema,
  fieldMessage,
  hasUnsavedChanges,
  nextSgsStage,
  rebaseFormValues,
  toFormValues,
  type SubmissionFormValues,
} from "../lib/submission-form.js";
import { DocumentChecklistFields } from "./DocumentChecklistFields.js";
import { ThesisStatusSuggestions } from "./ThesisStatusSuggestions.js";

export const CONFLICT_MESSAGE =
  "Someone else changed this submission while you were editing. Their version is shown; your changes are kept in the form — review and save again.";

const SGS_OPTIONS = [
  { value: "", label: "Not started" },
  ...SGS_STAGES.map((stage) => ({ value: stage, label: SGS_STAGE_LABELS[stage] })),
];
const EXAMINER_OPTIONS = [
  { value: "", label: "Not sent yet" },
  ...EXAMINER_STATES.map((state) => ({ value: state, label: EXAMINER_STATE_LABELS[state] })),
];

type Source = "form" | "advance";

interface Notice {
  tone: "success" | "error" | "warning" | "info";
  title?: string;
  text: string;
  /** For a conflict: what the other person changed. */
  theirChanges?: string[];
}

interface PendingConfirmation {
  changes: SubmissionChanges;
  moves: WorkflowMove[];
  message: string;
  source: Source;
}

/**
 * The edit actions of the details panel (issue 5 item 1). Every save sends the version the
 * administrator started from; the server answers 409 when a move skips or reverses the flow
 * (we ask, then resend with confirmOutOfOrder) or when someone else saved first (we show their
 * version and keep what the administrator typed).
 */
export function EditSubmissionForm({ submission }: { submission: SubmissionDto }) {
  const idPrefix = useId();
  const queryClient = useQueryClient();
  const update = useUpdateSubmission();
  /** The version the form's values started from; the version sent with every save. */
  const [base, setBase] = useState(submission);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const [attempt, setAttempt] = useState(0);
  const noticeRef = useRef<HTMLDivElement>(null);

  const form = useForm<SubmissionFormValues, unknown, SubmissionChanges>({
    resolver: zodResolver(editSubmissionFormSchema),
    defaultValues: toFormValues(submission),
  });
  const { errors } = form.formState;

  // A newer version from the server (a refetch, a bulk update) is taken in while nothing is being
  // edited. While the administrator has unsaved changes the form keeps its base, so their save
  // meets the server's conflict check instead of silently overwriting the other change.
  useEffect(() => {
    if (submission.id !== base.id || submission.version <= base.version) return;
    if (hasUnsavedChanges(form.getValues(), base)) return;
    form.reset(toFormValues(submission));
    setBase(submission);
  }, [submission, base, form]);

  // The outcome of a save is shown above the form; focus goes there so it is seen (and read out)
  // even when the Save button at the foot of a long panel was pressed.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const save = (changes: SubmissionChanges, source: Source, confirmOutOfOrder = false) => {
    const from = base;
    setNotice(null);
    update.mutate(
      {
        id: from.id,
        update: {
          version: from.version,
          changes,
          ...(confirmOutOfOrder ? { confirmOutOfOrder: true } : {}),
        },
      },
      {
        onSuccess: (saved) => {
          setPending(null);
          // After the quick action, anything typed in the form but not saved stays there.
          form.reset(
            source === "form"
              ? toFormValues(saved)
              : rebaseFormValues(form.getValues(), from, saved),
          );
          setBase(saved);
          setNotice({
            tone: "success",
            text:
              source === "advance" && saved.sgsStage
                ? `Moved to ${SGS_STAGE_LABELS[saved.sgsStage]}.`
                : "Your changes have been saved.",
          });
        },
        onError: (error) => {
          const refusal = readSaveRefusal(error);
          if (refusal?.kind === "confirmation_required") {
            setPending({ changes, moves: refusal.moves, message: refusal.message, source });
            return;
          }
          setPending(null);
          if (refusal?.kind === "conflict") {
            const current = refusal.current;
            queryClient.setQueryData(adminKeys.submission(current.id), current);
            void queryClient.invalidateQueries({ queryKey: adminKeys.submissionLists() });
            void queryClient.invalidateQueries({
              queryKey: adminKeys.submissionEvents(current.id),
            });
            const values = form.getValues();
            // The quick action's requested stage goes into the form too, so nothing asked for is lost.
            const mine: SubmissionFormValues =
              source === "advance" ? { ...values, sgsStage: changes.sgsStage ?? "" } : values;
            form.reset(rebaseFormValues(mine, from, current));
            setBase(current);
            setNotice({
              tone: "warning",
              title: "Not saved",
              text: CONFLICT_MESSAGE,
              theirChanges: changedFieldLabels(from, current),
            });
            return;
          }
          if (error instanceof ApiError && error.status === 400) {
            applyServerFieldErrors(error, form.setError, LABELLED_FIELDS);
          }
          setNotice({
            tone: "error",
            title: "Not saved",
            text: `${messageFor(error, "We could not reach the server.")} Your changes are still in the form; try saving again.`,
          });
        },
      },
    );
  };

  const onSubmit = form.handleSubmit(
    (edited) => {
      const changes = diffChanges(edited, base);
      if (Object.keys(changes).length === 0) {
        setNotice({ tone: "info", text: "Nothing to save: no field has been changed." });
        return;
      }
      save(changes, "form");
    },
    () => {
      setNotice(null);
      setAttempt((n) => n + 1);
    },
  );

  const next = nextSgsStage(base.sgsStage);
  const busy = update.isPending;

  const summary: SummaryError[] = [];
  const push = (
    field:
      | "studentName"
      | "programme"
      | "contact"
      | "studentEmail"
      | "thesisStatus"
      | "effectiveDate",
  ) => {
    const message = fieldMessage(FIELD_LABELS[field], errors[field]?.message);
    if (message) summary.push({ id: `${idPrefix}-${field}`, message });
  };
  push("studentName");
  push("programme");
  push("contact");
  push("studentEmail");
  push("thesisStatus");
  push("effectiveDate");

  return (
    <div className="edit-submission">
      {notice ? (
        <div ref={noticeRef} tabIndex={-1} className="edit-submission__notice">
          <Alert tone={notice.tone} title={notice.title}>
            <p>{notice.text}</p>
            {notice.theirChanges && notice.theirChanges.length > 0 ? (
              <p>They changed: {notice.theirChanges.join(", ")}.</p>
            ) : null}
          </Alert>
        </div>
      ) : null}

      <section className="quick-action" aria-labelledby={`${idPrefix}-advance`}>
        <h3 id={`${idPrefix}-advance`}>Quick action</h3>
        {next ? (
          <>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => save({ sgsStage: next }, "advance")}
              aria-describedby={`${idPrefix}-advance-next`}
            >
              Advance to next stage
            </button>
            <p id={`${idPrefix}-advance-next`} className="field__hint">
              Next: {SGS_STAGE_LABELS[next]}
            </p>
          </>
        ) : (
          <p className="muted">
            This submission is at the last SGS stage ({SGS_STAGE_LABELS.sent_to_examiners}). Record
            the examiners' progress below.
          </p>
        )}
      </section>

      <form
        className="form edit-submission__form"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby={`${idPrefix}-title`}
      >
        <h3 id={`${idPrefix}-title`}>Edit submission</h3>
        <ErrorSummary errors={summary} attempt={attempt} />

        <SelectField
          id={`${idPrefix}-sgsStage`}
          label="SGS Admin stage"
          options={SGS_OPTIONS}
          {...form.register("sgsStage")}
        />
        <div className="edit-submission__pair">
          <SelectField
            id={`${idPrefix}-internalExaminer`}
            label="Internal examiner"
            options={EXAMINER_OPTIONS}
            {...form.register("internalExaminer")}
          />
          <SelectField
            id={`${idPrefix}-externalExaminer`}
            label="External examiner"
            options={EXAMINER_OPTIONS}
            {...form.register("externalExaminer")}
          />
        </div>
        <div className="edit-submission__pair">
          <TextField
            id={`${idPrefix}-thesisStatus`}
            label="Thesis Status"
            list={`${idPrefix}-thesis-statuses`}
            error={fieldMessage("Thesis Status", errors.thesisStatus?.message)}
            {...form.register("thesisStatus")}
          />
          <TextField
            id={`${idPrefix}-effectiveDate`}
            label="Effective date"
            type="date"
            error={fieldMessage("Effective date", errors.effectiveDate?.message)}
            {...form.register("effectiveDate")}
          />
        </div>

        <ThesisStatusSuggestions id={`${idPrefix}-thesis-statuses`} />

        <DocumentChecklistFields form={form} idPrefix={idPrefix} />

        <TextField
          id={`${idPrefix}-studentName`}
          label="Student Name"
          autoComplete="off"
          error={fieldMessage("Student Name", errors.studentName?.message)}
          {...form.register("studentName")}
        />
        <TextField
          id={`${idPrefix}-programme`}
          label="Programme"
          autoComplete="off"
          error={fieldMessage("Programme", errors.programme?.message)}
          {...form.register("programme")}
        />
        <div className="edit-submission__pair">
          <TextField
            id={`${idPrefix}-contact`}
            label="Contact"
            type="tel"
            autoComplete="off"
            error={fieldMessage("Contact", errors.contact?.message)}
            {...form.register("contact")}
          />
          <TextField
            id={`${idPrefix}-studentEmail`}
            label="Student email"
            type="email"
            autoComplete="off"
            spellCheck={false}
            error={fieldMessage("Student email", errors.studentEmail?.message)}
            {...form.register("studentEmail")}
          />
        </div>

        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Saving…" : "Save changes"}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => {
              form.reset(toFormValues(base));
              setNotice(null);
            }}
          >
            Discard changes
          </button>
        </div>
      </form>

      {pending ? (
        <ConfirmDialog
          title="Confirm out-of-order moves"
          confirmLabel="Yes, save these moves"
          cancelLabel="No, go back"
          busy={busy}
          onConfirm={() => save(pending.changes, pending.source, true)}
          onCancel={() => {
            setPending(null);
            setNotice({ tone: "info", text: "Not saved. Your changes are still in the form." });
          }}
        >
          <p>{pending.message}</p>
          <ul>
            {pending.moves.map((move) => (
              <li key={`${move.field}-${move.to ?? "none"}`}>{describeMove(move)}</li>
            ))}
          </ul>
          <p>Moves out of order are recorded in the history as confirmed by you.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

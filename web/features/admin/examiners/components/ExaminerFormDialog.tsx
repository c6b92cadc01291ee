import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import {
  examinerInputSchema,
  type ExaminerInput,
  type ExaminerRecord,
} from "../../../../../common/examiners.js";
import {
  EXAMINER_KINDS,
  EXAMINER_KIND_LABELS,
  type ExaminerKind,
} from "../../../../../common/examiners-constants.js";
import { TextField } from "../../../../components/form/Field.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { ModalDialog } from "../../../../components/ui/ModalDialog.js";
import { ApiError } from "../../../../lib/api-client.js";
import { applyServerFieldErrors, messageFor } from "../../../../lib/form-errors.js";
import { useCreateExaminer } from "../api/create-examiner.js";
import { useUpdateExaminer } from "../api/update-examiner.js";
import { fieldMessage } from "../lib/examination.js";

type ExaminerForm = z.input<typeof examinerInputSchema>;
const FIELDS = ["name", "email", "institution", "kind"] as const;

const KIND_HINTS: Record<ExaminerKind, string> = {
  internal: "a member of the university",
  external: "from another institution",
};

/**
 * Adding an examiner, or correcting one, in a dialog over the list (the list stays where it was).
 * The contract's schema checks the fields here and on the server; the server's own messages
 * (a taken email, for one) land next to the field they are about.
 */
export function ExaminerFormDialog({
  examiner,
  defaultKind = "internal",
  onClose,
  onSaved,
}: {
  /** The examiner to edit; absent to add a new one. */
  examiner?: ExaminerRecord;
  defaultKind?: ExaminerKind;
  onClose: () => void;
  onSaved: (saved: ExaminerRecord, added: boolean) => void;
}) {
  const create = useCreateExaminer();
  const update = useUpdateExaminer();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ExaminerForm, unknown, ExaminerInput>({
    resolver: zodResolver(examinerInputSchema),
    defaultValues: examiner
      ? {
          name: examiner.name,
          email: examiner.email,
          institution: examiner.institution,
          kind: examiner.kind,
        }
      : { name: "", email: "", institution: "", kind: defaultKind },
  });
  const { errors } = form.formState;
  const busy = create.isPending || update.isPending;
  const idPrefix = examiner ? `examiner-${examiner.id}` : "new-examiner";

  const onError = (error: unknown) => {
    if (applyServerFieldErrors(error, form.setError, [...FIELDS])) return;
    if (error instanceof ApiError && error.status === 409) {
      form.setError(
        "email",
        {
          type: "server",
          message: error.message || "An examiner with this email is on the list already.",
        },
        { shouldFocus: true },
      );
      return;
    }
    setProblem(
      `${messageFor(error, "We could not reach the server.")} The examiner was not ${examiner ? "saved" : "added"}; try again.`,
    );
  };

  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    if (examiner) {
      update.mutate(
        { id: examiner.id, changes: input },
        { onSuccess: (saved) => onSaved(saved, false), onError },
      );
    } else {
      create.mutate(input, { onSuccess: (saved) => onSaved(saved, true), onError });
    }
  });

  const kindError = fieldMessage("Kind", errors.kind?.message);
  return (
    <ModalDialog
      title={examiner ? `Edit ${examiner.name}` : "Add an examiner"}
      onClose={onClose}
      busy={busy}
    >
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id={`${idPrefix}-name`}
          label="Name"
          autoComplete="off"
          data-autofocus=""
          error={fieldMessage("Name", errors.name?.message)}
          {...form.register("name")}
        />
        <TextField
          id={`${idPrefix}-email`}
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          hint="The link to the thesis and the reminders go to this address."
          error={fieldMessage("Email", errors.email?.message)}
          {...form.register("email")}
        />
        <TextField
          id={`${idPrefix}-institution`}
          label="Institution"
          autoComplete="off"
          error={fieldMessage("Institution", errors.institution?.message)}
          {...form.register("institution")}
        />
        <fieldset
          className={kindError ? "field field--error" : "field"}
          aria-describedby={kindError ? `${idPrefix}-kind-error` : undefined}
        >
          <legend>Kind of examiner</legend>
          {kindError ? (
            <p id={`${idPrefix}-kind-error`} className="field__error">
              <span className="visually-hidden">Error: </span>
              {kindError}
            </p>
          ) : null}
          {EXAMINER_KINDS.map((kind) => (
            <label key={kind} className="checkbox">
              <input type="radio" value={kind} {...form.register("kind")} />
              {EXAMINER_KIND_LABELS[kind]} ({KIND_HINTS[kind]})
            </label>
          ))}
        </fieldset>
        <div className="actions confirm-dialog__actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Saving…" : examiner ? "Save changes" : "Add examiner"}
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

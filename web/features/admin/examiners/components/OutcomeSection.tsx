import { useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { Examination, OutcomeInput, Outcome } from "../../../../../common/examiners.js";
import {
  EXAMINER_KIND_LABELS,
  MAX_CORRECTIONS_LENGTH,
  RECOMMENDATIONS,
  RECOMMENDATION_LABELS,
} from "../../../../../common/examiners-constants.js";
import { TextAreaField } from "../../../../components/form/Field.js";
import { Alert } from "../../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../../components/ui/ConfirmDialog.js";
import { FactList } from "../../../../components/ui/FactList.js";
import { applyServerFieldErrors, messageFor } from "../../../../lib/form-errors.js";
import { formatDate } from "../../../../lib/format.js";
import { useApproveCorrections } from "../api/approve-corrections.js";
import { useReleaseOutcome } from "../api/release-outcome.js";
import {
  CORRECTION_STATE_WORDS,
  fieldMessage,
  needsCorrections,
  outcomeFormSchema,
  type OutcomeFormValues,
} from "../lib/examination.js";

/**
 * The outcome: a form to release it once both reports are in, then what was released and where
 * the corrections stand, with "Confirm corrections" when the corrected thesis waits.
 */
export function OutcomeSection({
  submissionId,
  indexNumber,
  outcome,
  canRelease,
  examinations,
  onAnnounce,
}: {
  submissionId: number;
  indexNumber: string;
  outcome: Outcome | null;
  canRelease: boolean;
  examinations: Examination[];
  onAnnounce: (message: string) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="examination-outcome">
      <h4 id={headingId}>Outcome</h4>
      {outcome ? (
        <OutcomeSummary
          submissionId={submissionId}
          indexNumber={indexNumber}
          outcome={outcome}
          onAnnounce={onAnnounce}
        />
      ) : canRelease ? (
        <OutcomeForm
          submissionId={submissionId}
          indexNumber={indexNumber}
          examinations={examinations}
          onAnnounce={onAnnounce}
        />
      ) : (
        <p className="muted">
          The outcome can be released to the student once both examiners’ reports are in.
        </p>
      )}
    </section>
  );
}

function OutcomeForm({
  submissionId,
  indexNumber,
  examinations,
  onAnnounce,
}: {
  submissionId: number;
  indexNumber: string;
  examinations: Examination[];
  onAnnounce: (message: string) => void;
}) {
  const release = useReleaseOutcome(submissionId);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<OutcomeInput | null>(null);
  const form = useForm<OutcomeFormValues, unknown, OutcomeInput>({
    resolver: zodResolver(outcomeFormSchema),
    defaultValues: { decision: "", corrections: "" },
  });
  const { errors } = form.formState;
  const decision = useWatch({ control: form.control, name: "decision" });
  const correctionsNeeded = decision !== "" && needsCorrections(decision);
  const decisionErrorId = `outcome-decision-error-${submissionId}`;
  const decisionError = errors.decision ? "Choose the decision to release" : undefined;

  const doRelease = (outcome: OutcomeInput) => {
    setProblem(null);
    release.mutate(
      { indexNumber, outcome },
      {
        onSuccess: () => {
          setConfirming(null);
          onAnnounce(
            `Outcome released: ${RECOMMENDATION_LABELS[outcome.decision]}. The student has been told by message and email.`,
          );
        },
        onError: (error) => {
          setConfirming(null);
          if (applyServerFieldErrors(error, form.setError, ["decision", "corrections"])) return;
          setProblem(
            `${messageFor(error, "We could not reach the server.")} The outcome was not released.`,
          );
        },
      },
    );
  };

  return (
    <>
      <p className="examination-outcome__recommended">
        The examiners recommend:{" "}
        {examinations
          .map((examination) =>
            examination.report
              ? `${EXAMINER_KIND_LABELS[examination.role]}: ${RECOMMENDATION_LABELS[examination.report.recommendation]}`
              : null,
          )
          .filter(Boolean)
          .join("; ")}
        . Both reports, with their notes, are shown above.
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit((outcome) => {
          setProblem(null);
          setConfirming(outcome);
        })}
      >
        <fieldset
          className={decisionError ? "field field--error" : "field"}
          aria-describedby={decisionError ? decisionErrorId : undefined}
        >
          <legend>Decision</legend>
          {decisionError ? (
            <p id={decisionErrorId} className="field__error">
              <span className="visually-hidden">Error: </span>
              {decisionError}
            </p>
          ) : null}
          {RECOMMENDATIONS.map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                value={value}
                aria-invalid={decisionError ? true : undefined}
                {...form.register("decision")}
              />
              {RECOMMENDATION_LABELS[value]}
            </label>
          ))}
        </fieldset>
        <TextAreaField
          id={`outcome-corrections-${submissionId}`}
          label={correctionsNeeded ? "Corrections requested" : "Corrections requested (optional)"}
          hint={`The student reads this in full with the decision; they never see the reports. Draw on the reports as you need (at most ${MAX_CORRECTIONS_LENGTH.toLocaleString("en-GB")} characters).`}
          rows={6}
          aria-required={correctionsNeeded || undefined}
          error={fieldMessage("Corrections", errors.corrections?.message)}
          {...form.register("corrections")}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={release.isPending}>
            Release the outcome
          </button>
        </div>
      </form>
      {confirming ? (
        <ConfirmDialog
          title="Release the outcome?"
          confirmLabel="Release to the student"
          busy={release.isPending}
          onConfirm={() => doRelease(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            The decision is <strong>{RECOMMENDATION_LABELS[confirming.decision]}</strong>. The
            student will be told at once, by message and email
            {confirming.corrections ? ", with the corrections you wrote" : ""}. It cannot be taken
            back from here.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function OutcomeSummary({
  submissionId,
  indexNumber,
  outcome,
  onAnnounce,
}: {
  submissionId: number;
  indexNumber: string;
  outcome: Outcome;
  onAnnounce: (message: string) => void;
}) {
  const approve = useApproveCorrections(submissionId);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const doApprove = () => {
    setProblem(null);
    approve.mutate(
      { indexNumber },
      {
        onSuccess: () => {
          setConfirming(false);
          onAnnounce("Corrections confirmed. The Thesis Status is now “Corrections approved”.");
        },
        onError: (error) => {
          setConfirming(false);
          setProblem(
            `${messageFor(error, "We could not reach the server.")} The corrections were not confirmed.`,
          );
        },
      },
    );
  };

  return (
    <>
      <FactList
        className="details-list examination-facts"
        facts={[
          { label: "Decision", value: <strong>{outcome.label}</strong> },
          { label: "Released", value: formatDate(outcome.releasedAt) },
          outcome.corrections
            ? {
                label: "Corrections",
                value: <blockquote className="examination-quote">{outcome.corrections}</blockquote>,
              }
            : null,
          outcome.correctionState === "not_needed"
            ? null
            : {
                label: "Corrections state",
                value:
                  outcome.correctionState === "approved" && outcome.correctionsApprovedAt
                    ? `${CORRECTION_STATE_WORDS.approved} ${formatDate(outcome.correctionsApprovedAt)}`
                    : CORRECTION_STATE_WORDS[outcome.correctionState],
              },
        ]}
      />
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {outcome.correctionState === "to_confirm" ? (
        <div className="actions">
          <p className="muted">
            The corrected thesis is under Documents above. The internal examiner can confirm the
            corrections through their link, or you can here.
          </p>
          <button
            type="button"
            className="button"
            disabled={approve.isPending}
            onClick={() => setConfirming(true)}
          >
            Confirm corrections
          </button>
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Confirm the corrections?"
          confirmLabel="Confirm corrections"
          busy={approve.isPending}
          onConfirm={doApprove}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The Thesis Status becomes “Corrections approved”. Confirm only after reading the
            corrected thesis.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

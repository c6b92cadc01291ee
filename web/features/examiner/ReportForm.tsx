import { useId, useRef, useState, type DragEvent } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { formatBytes } from "../../../common/documents-constants.js";
import {
  examinerReportFieldsSchema,
  type ExaminerAssignment,
  type ExaminerReportFields,
} from "../../../common/examiners.js";
import {
  MAX_EXAMINER_NOTE_LENGTH,
  RECOMMENDATION_LABELS,
  RECOMMENDATIONS,
  type Recommendation,
} from "../../../common/examiners-constants.js";
import { ErrorSummary, type SummaryError } from "../../components/form/ErrorSummary.js";
import { ProgressBar } from "../../components/ui/ProgressBar.js";
import { useReportUpload } from "./use-report-upload.js";

type ReportFormInput = z.input<typeof examinerReportFieldsSchema>;

/** Each recommendation in words, so the choice does not rest on a one-word label. */
export const RECOMMENDATION_DESCRIPTIONS: Record<Recommendation, string> = {
  pass: "The thesis is accepted as it stands.",
  minor_corrections:
    "The thesis is accepted once small corrections are made; the internal examiner confirms them.",
  major_corrections: "The thesis is accepted once substantial corrections are made and checked.",
  resubmit: "The thesis needs substantial revision and a new examination.",
  fail: "The thesis does not meet the standard for the degree.",
};

const RECOMMENDATION_ERROR = "Choose your recommendation";
const NOTE_ERROR = `The note to the school must be at most ${MAX_EXAMINER_NOTE_LENGTH} characters`;
const FIELD_IDS = {
  recommendation: `report-recommendation-${RECOMMENDATIONS[0]}`,
  note: "report-note",
  file: "report-file",
} as const;

/** What the browser can tell before sending: the server reads the bytes and decides. */
export function reportFileProblem(file: File | null): string | null {
  if (!file) return "Choose your report as a PDF";
  if (!(/\.pdf$/i.test(file.name) || file.type === "application/pdf")) {
    return `${file.name} is not a PDF. Save or export your report as a PDF and choose that file.`;
  }
  if (file.size === 0) {
    return `${file.name} is empty. Check that you chose the saved PDF, then choose it again.`;
  }
  return null;
}

function percentOf(sent: number, size: number): number {
  return size > 0 ? Math.round((sent / size) * 100) : 0;
}

/**
 * Step 2: the recommendation (five radio buttons described in words), an optional note to the
 * school, and the report as a PDF, sent with progress. Problems are listed at the top (GOV.UK
 * error summary, focused) and beside each field.
 */
export function ReportForm({
  token,
  onUploaded,
}: {
  token: string;
  onUploaded: (assignment: ExaminerAssignment) => void;
}) {
  const form = useForm<ReportFormInput, unknown, ExaminerReportFields>({
    resolver: zodResolver(examinerReportFieldsSchema),
    shouldFocusError: false,
    defaultValues: { note: "" },
  });
  const { errors } = form.formState;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [dragging, setDragging] = useState(false);
  const lastSent = useRef<{ fields: ExaminerReportFields; file: File } | null>(null);
  const upload = useReportUpload(token, onUploaded);
  const busy = upload.state.phase === "sending" || upload.state.phase === "checking";
  const legendId = useId();
  const noteHintId = useId();
  const fileHintId = useId();

  const recommendationError = errors.recommendation ? RECOMMENDATION_ERROR : undefined;
  const noteError = errors.note ? NOTE_ERROR : undefined;

  const choose = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      setFileError("Choose one PDF: your report is a single file.");
      return;
    }
    const chosen = files[0] ?? null;
    setFile(chosen);
    setFileError(chosen ? reportFileProblem(chosen) : null);
  };

  const onSubmit = form.handleSubmit(
    (fields) => {
      const problem = reportFileProblem(file);
      setFileError(problem);
      if (problem || !file) {
        setAttempt((n) => n + 1);
        return;
      }
      lastSent.current = { fields, file };
      upload.send(fields, file);
    },
    () => {
      setFileError(reportFileProblem(file));
      setAttempt((n) => n + 1);
    },
  );

  // The summary lists problems after a send; a file refused as it is chosen is said beside it.
  const summary = (
    attempt === 0
      ? []
      : ([
          recommendationError
            ? { id: FIELD_IDS.recommendation, message: recommendationError }
            : null,
          noteError ? { id: FIELD_IDS.note, message: noteError } : null,
          fileError ? { id: FIELD_IDS.file, message: fileError } : null,
        ] as (SummaryError | null)[])
  ).filter((e): e is SummaryError => e !== null);

  const dropProps = busy
    ? {}
    : {
        onDragEnter: (event: DragEvent) => {
          event.preventDefault();
          setDragging(true);
        },
        onDragOver: (event: DragEvent) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
        },
        onDragLeave: (event: DragEvent) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop: (event: DragEvent) => {
          event.preventDefault();
          setDragging(false);
          choose(event.dataTransfer.files);
        },
      };

  const state = upload.state;
  return (
    <form className="form examiner__form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <ErrorSummary errors={summary} attempt={attempt} />

      <fieldset
        className={
          recommendationError ? "field field--error examiner__choices" : "field examiner__choices"
        }
        aria-labelledby={legendId}
        aria-describedby={recommendationError ? "report-recommendation-error" : undefined}
        disabled={busy}
      >
        <legend id={legendId}>Your recommendation</legend>
        {recommendationError ? (
          <p id="report-recommendation-error" className="field__error">
            <span className="visually-hidden">Error: </span>
            {recommendationError}
          </p>
        ) : null}
        {RECOMMENDATIONS.map((value) => {
          const id = `report-recommendation-${value}`;
          return (
            <div key={value} className="examiner__choice">
              <input
                id={id}
                type="radio"
                value={value}
                aria-describedby={`${id}-hint`}
                {...form.register("recommendation")}
              />
              <label htmlFor={id}>
                <span className="examiner__choice-label">{RECOMMENDATION_LABELS[value]}</span>
                <span id={`${id}-hint`} className="examiner__choice-hint">
                  {RECOMMENDATION_DESCRIPTIONS[value]}
                </span>
              </label>
            </div>
          );
        })}
      </fieldset>

      <div className={noteError ? "field field--error" : "field"}>
        <label htmlFor={FIELD_IDS.note}>Note to the school (optional)</label>
        <div id={noteHintId} className="field__hint">
          For the School of Graduate Studies only; the student does not see it. Up to{" "}
          {MAX_EXAMINER_NOTE_LENGTH} characters.
        </div>
        {noteError ? (
          <p id={`${FIELD_IDS.note}-error`} className="field__error">
            <span className="visually-hidden">Error: </span>
            {noteError}
          </p>
        ) : null}
        <textarea
          id={FIELD_IDS.note}
          rows={5}
          disabled={busy}
          aria-invalid={noteError ? true : undefined}
          aria-describedby={[noteHintId, noteError ? `${FIELD_IDS.note}-error` : null]
            .filter(Boolean)
            .join(" ")}
          {...form.register("note")}
        />
      </div>

      <div className={fileError ? "field field--error" : "field"}>
        <span className="examiner__file-label" id={`${FIELD_IDS.file}-label`}>
          Your report (PDF)
        </span>
        {fileError ? (
          <p
            id={`${FIELD_IDS.file}-error`}
            className="field__error"
            role={attempt === 0 ? "alert" : undefined}
          >
            <span className="visually-hidden">Error: </span>
            {fileError}
          </p>
        ) : null}
        <div
          className={
            dragging ? "examiner__dropzone examiner__dropzone--active" : "examiner__dropzone"
          }
          {...dropProps}
        >
          <input
            id={FIELD_IDS.file}
            type="file"
            accept="application/pdf,.pdf"
            className="examiner__file-input visually-hidden"
            disabled={busy}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={[fileHintId, fileError ? `${FIELD_IDS.file}-error` : null]
              .filter(Boolean)
              .join(" ")}
            onChange={(event) => {
              choose(event.currentTarget.files);
              event.currentTarget.value = "";
            }}
          />
          <label
            htmlFor={FIELD_IDS.file}
            className="button button--secondary examiner__file-button"
          >
            {file ? "Choose a different PDF" : "Choose your report"}
            <span className="visually-hidden"> (PDF)</span>
          </label>
          <p id={fileHintId} className="examiner__dropzone-hint">
            {file && !reportFileProblem(file)
              ? `Chosen: ${file.name} (${formatBytes(file.size)})`
              : "or drag the PDF here. One PDF file."}
          </p>
        </div>
      </div>

      {state.phase === "sending" ? (
        <div className="examiner__progress">
          <ProgressBar
            label={`Uploading ${state.file.name}`}
            percent={percentOf(state.sent, state.size)}
            detail={`${formatBytes(state.sent)} of ${formatBytes(state.size)}`}
          />
          <button type="button" className="button button--secondary" onClick={upload.cancel}>
            Cancel <span className="visually-hidden">the upload of {state.file.name}</span>
          </button>
        </div>
      ) : null}
      <div role="status" className="examiner__upload-status">
        {state.phase === "sending" ? (
          <span className="visually-hidden">
            Uploading {state.file.name}: {Math.floor(percentOf(state.sent, state.size) / 25) * 25}%
            sent.
          </span>
        ) : null}
        {state.phase === "checking" ? (
          <span className="examiner__checking">
            <span className="spinner" aria-hidden="true" />
            <span>
              Checking {state.file.name}: scanning it for viruses and reading the PDF. This can take
              a minute.
            </span>
          </span>
        ) : null}
        {state.phase === "cancelled" ? (
          <span>Upload cancelled. {state.file.name} was not sent.</span>
        ) : null}
      </div>
      {state.phase === "failed" ? (
        <div role="alert" className="alert alert--error">
          <p>{state.message}</p>
          {state.canRetry && lastSent.current ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                const last = lastSent.current;
                if (last) upload.send(last.fields, last.file);
              }}
            >
              Try again
            </button>
          ) : null}
        </div>
      ) : null}

      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Sending your report..." : "Send your report"}
        </button>
      </div>
    </form>
  );
}

import { useEffect, useId, useState, type FormEvent } from "react";
import { EMBARGO_LABELS, type PublicationView } from "../../../../common/publication.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { formatDate, formatDateTime } from "../../../lib/format.js";
import {
  useCorrectMetadata,
  useDecideEmbargo,
  useDegrees,
  usePublication,
  useWithdraw,
  type PublicationPartProps,
} from "../../publication/api.js";
import { errorProps, fieldErrorsOf } from "../../publication/field-errors.js";
import {
  MetadataFields,
  toMetadataInput,
  toMetadataValues,
  type MetadataValues,
} from "../../publication/MetadataFields.js";
import { LoadError } from "../components/LoadError.js";
import { PublicationLibraryActions } from "./LibraryActions.js";
import "../../publication/publication.css";

const STATE_WORDS: Record<PublicationView["state"], string> = {
  not_final: "Not final yet",
  in_preparation: "In preparation",
  awaiting_approval: "Embargo awaiting approval",
  published: "Published",
  withdrawn: "Withdrawn",
};

interface ReviewValues extends MetadataValues {
  title: string;
  abstract: string;
  degreeId: string;
  department: string;
  examinationDate: string;
  awardDate: string;
}

function toReviewValues(view: PublicationView): ReviewValues {
  return {
    ...toMetadataValues(view),
    title: view.title ?? "",
    abstract: view.abstract ?? "",
    degreeId: view.degree ? String(view.degree.id) : "",
    department: view.department ?? "",
    examinationDate: view.examinationDate ?? "",
    awardDate: view.awardDate ?? "",
  };
}

/**
 * Publication in the submission's details panel (issue 20): where the record stands and what it
 * still needs, the metadata review (correct, confirm), the embargo's approval, withdrawal, and
 * the library's actions (deposit, exports: ./LibraryActions.tsx).
 */
/** A part of the panel: the record, and where it says what it did (the panel's live region). */
type ReviewPartProps = PublicationPartProps & { onAnnounce: (message: string) => void };

export function PublicationPanel({
  submissionId,
  indexNumber,
}: {
  submissionId: number;
  indexNumber: string;
}) {
  const headingId = useId();
  const record = usePublication("admin", indexNumber);
  const [announcement, setAnnouncement] = useState("");
  // No such record (removed meanwhile): the panel's other sections say so; nothing to add here.
  if (record.isError && record.error instanceof ApiError && record.error.status === 404) {
    return null;
  }
  return (
    <section aria-labelledby={headingId} className="details-panel__publication">
      <h3 id={headingId}>Publication</h3>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {record.isPending ? (
        <Loading label="Loading the publication record..." />
      ) : record.isError ? (
        <LoadError
          error={record.error}
          what="the publication record"
          onRetry={() => void record.refetch()}
        />
      ) : (
        <>
          <p>
            <span
              className={
                record.data.state === "published"
                  ? "chip chip--green"
                  : record.data.state === "withdrawn"
                    ? "chip chip--red"
                    : "chip"
              }
            >
              {STATE_WORDS[record.data.state]}
            </span>
            {record.data.publicPath ? (
              <>
                {" "}
                <a href={record.data.publicPath}>Public page</a>
              </>
            ) : null}
          </p>
          {record.data.missing.length > 0 ? (
            <>
              <p>Before it is published:</p>
              <ul className="publication__missing">
                {record.data.missing.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </>
          ) : null}
          <EmbargoReview
            indexNumber={indexNumber}
            view={record.data}
            onAnnounce={setAnnouncement}
          />
          <MetadataReview
            indexNumber={indexNumber}
            view={record.data}
            onAnnounce={setAnnouncement}
          />
          <Withdrawal indexNumber={indexNumber} view={record.data} onAnnounce={setAnnouncement} />
          <PublicationLibraryActions
            submissionId={submissionId}
            indexNumber={indexNumber}
            publication={record.data}
          />
        </>
      )}
    </section>
  );
}

function MetadataReview({ indexNumber, view, onAnnounce }: ReviewPartProps) {
  const headingId = useId();
  const id = useId();
  const correct = useCorrectMetadata(indexNumber);
  const degrees = useDegrees(1);
  const [values, setValues] = useState<ReviewValues>(() => toReviewValues(view));
  // The server's copy, as text: when it changes (a save, a refetch) the form shows it.
  const serverCopy = JSON.stringify(toReviewValues(view));
  useEffect(() => {
    setValues(JSON.parse(serverCopy) as ReviewValues);
  }, [serverCopy]);

  const errors = fieldErrorsOf(correct.error);
  const locked = view.locked || view.withdrawn !== null;
  const submit = (confirm: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const metadata = toMetadataInput(values);
    correct.mutate(
      {
        title: values.title,
        abstract: values.abstract,
        keywords: metadata.keywords,
        ...(metadata.language ? { language: metadata.language } : {}),
        supervisors: metadata.supervisors,
        degreeId: values.degreeId ? Number(values.degreeId) : null,
        department: values.department.trim() === "" ? null : values.department,
        examinationDate: values.examinationDate || null,
        awardDate: values.awardDate || null,
        ...(confirm ? { confirm: true } : {}),
      },
      {
        onSuccess: (answer) =>
          onAnnounce(
            answer.data.state === "published" && !view.publishedAt
              ? "Confirmed: the thesis is published."
              : confirm
                ? "Metadata confirmed."
                : "Corrections saved.",
          ),
      },
    );
  };
  const text = (field: keyof ReviewValues, label: string, type = "text") => {
    const inputId = `${id}-${field}`;
    const message = errors[field === "degreeId" ? "degreeId" : field];
    return (
      <div className={message ? "field field--error" : "field"}>
        <label htmlFor={inputId}>{label}</label>
        <input
          id={inputId}
          type={type}
          value={values[field] as string}
          disabled={locked || correct.isPending}
          onChange={(e) => setValues({ ...values, [field]: e.target.value })}
          {...errorProps(inputId, message)}
        />
        {message ? (
          <p id={`${inputId}-error`} className="field__error">
            {message}
          </p>
        ) : null}
      </div>
    );
  };
  const degreeId = `${id}-degree`;
  const abstractId = `${id}-abstract`;
  return (
    <form
      className="form publication__part"
      aria-labelledby={headingId}
      onSubmit={submit(false)}
      noValidate
    >
      <h4 id={headingId}>Metadata review</h4>
      {view.locked ? (
        <Alert tone="info">
          Deposited in the repository: the record is locked here and is corrected in the repository.
        </Alert>
      ) : view.confirmedAt ? (
        <p className="muted">Confirmed on {formatDateTime(view.confirmedAt)}.</p>
      ) : null}
      {text("title", "Title")}
      <div className={errors.abstract ? "field field--error" : "field"}>
        <label htmlFor={abstractId}>Abstract</label>
        <textarea
          id={abstractId}
          rows={4}
          value={values.abstract}
          disabled={locked || correct.isPending}
          onChange={(e) => setValues({ ...values, abstract: e.target.value })}
          {...errorProps(abstractId, errors.abstract)}
        />
        {errors.abstract ? (
          <p id={`${abstractId}-error`} className="field__error">
            {errors.abstract}
          </p>
        ) : null}
      </div>
      <MetadataFields
        idPrefix={`${id}-meta`}
        values={values}
        onChange={(m) => setValues({ ...values, ...m })}
        errors={errors}
        disabled={locked || correct.isPending}
      />
      <div className={errors.degreeId ? "field field--error" : "field"}>
        <label htmlFor={degreeId}>Degree</label>
        <select
          id={degreeId}
          value={values.degreeId}
          disabled={locked || correct.isPending}
          onChange={(e) => setValues({ ...values, degreeId: e.target.value })}
          {...errorProps(degreeId, errors.degreeId)}
        >
          <option value="">Choose a degree</option>
          {(degrees.data?.data ?? [])
            .filter((d) => d.active || String(d.id) === values.degreeId)
            .map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.abbreviation})
              </option>
            ))}
        </select>
        {errors.degreeId ? (
          <p id={`${degreeId}-error`} className="field__error">
            {errors.degreeId}
          </p>
        ) : null}
      </div>
      {text("department", "Department")}
      {text("examinationDate", "Examination date", "date")}
      {text("awardDate", "Award date", "date")}
      {correct.isError ? (
        <Alert tone="error">
          {messageFor(correct.error, "The record could not be saved. Please try again.")}
        </Alert>
      ) : null}
      {locked ? null : (
        <div className="publication__actions">
          <button type="submit" className="button button--secondary" disabled={correct.isPending}>
            Save corrections
          </button>
          <button
            type="button"
            className="button"
            disabled={correct.isPending}
            onClick={() => submit(true)()}
          >
            {view.confirmedAt ? "Save and confirm again" : "Confirm metadata"}
          </button>
        </div>
      )}
    </form>
  );
}

function EmbargoReview({ indexNumber, view, onAnnounce }: ReviewPartProps) {
  const headingId = useId();
  const id = useId();
  const decide = useDecideEmbargo(indexNumber);
  const [until, setUntil] = useState("");
  const [note, setNote] = useState("");
  const embargo = view.embargo;
  const errors = fieldErrorsOf(decide.error);
  const pending =
    embargo?.choice === "sensitive" && embargo.approval === "pending" && !view.publishedAt;
  return (
    <div className="publication__part" aria-labelledby={headingId}>
      <h4 id={headingId}>Embargo</h4>
      {embargo ? (
        <p>
          {EMBARGO_LABELS[embargo.choice]}
          {embargo.until ? `, until ${formatDate(embargo.until)}` : null}
          {embargo.approval ? ` (${embargo.approval})` : null}
        </p>
      ) : (
        <p className="muted">The student has not chosen yet.</p>
      )}
      {embargo?.reason ? <p>Student's reason: {embargo.reason}</p> : null}
      {pending ? (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            decide.mutate(
              { decision: "approve", until, ...(note ? { note } : {}) },
              { onSuccess: () => onAnnounce("Embargo approved.") },
            );
          }}
        >
          <div className={errors.until ? "field field--error" : "field"}>
            <label htmlFor={`${id}-until`}>Embargo ends on</label>
            <input
              id={`${id}-until`}
              type="date"
              value={until}
              onChange={(e) => setUntil(e.target.value)}
              {...errorProps(`${id}-until`, errors.until)}
            />
            {errors.until ? (
              <p id={`${id}-until-error`} className="field__error">
                {errors.until}
              </p>
            ) : null}
          </div>
          <div className={errors.note ? "field field--error" : "field"}>
            <label htmlFor={`${id}-note`}>Note to the student (required to refuse)</label>
            <textarea
              id={`${id}-note`}
              rows={2}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              {...errorProps(`${id}-note`, errors.note)}
            />
            {errors.note ? (
              <p id={`${id}-note-error`} className="field__error">
                {errors.note}
              </p>
            ) : null}
          </div>
          {decide.isError && !errors.until && !errors.note ? (
            <Alert tone="error">
              {messageFor(decide.error, "The decision could not be saved.")}
            </Alert>
          ) : null}
          <div className="publication__actions">
            <button type="submit" className="button" disabled={decide.isPending}>
              Approve embargo
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={decide.isPending}
              onClick={() =>
                decide.mutate(
                  { decision: "refuse", ...(note ? { note } : {}) },
                  { onSuccess: () => onAnnounce("Embargo refused; the student chooses again.") },
                )
              }
            >
              Refuse embargo
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

function Withdrawal({ indexNumber, view, onAnnounce }: ReviewPartProps) {
  const headingId = useId();
  const reasonId = useId();
  const withdraw = useWithdraw(indexNumber);
  const [reason, setReason] = useState("");
  const [asking, setAsking] = useState(false);
  const errors = fieldErrorsOf(withdraw.error);
  if (view.withdrawn) {
    return (
      <div className="publication__part" aria-labelledby={headingId}>
        <h4 id={headingId}>Withdrawn</h4>
        <p>
          On {formatDateTime(view.withdrawn.at)}: {view.withdrawn.reason}
        </p>
      </div>
    );
  }
  if (!view.publishedAt) return null;
  return (
    <form
      className="form publication__part"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setAsking(true);
      }}
    >
      <h4 id={headingId}>Withdraw</h4>
      <div className={errors.reason ? "field field--error" : "field"}>
        <label htmlFor={reasonId}>Reason for withdrawal (shown on the public page)</label>
        <textarea
          id={reasonId}
          rows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          {...errorProps(reasonId, errors.reason)}
        />
        {errors.reason ? (
          <p id={`${reasonId}-error`} className="field__error">
            The reason {errors.reason}
          </p>
        ) : null}
      </div>
      {withdraw.isError && !errors.reason ? (
        <Alert tone="error">
          {messageFor(withdraw.error, "The thesis could not be withdrawn.")}
        </Alert>
      ) : null}
      <div className="publication__actions">
        <button type="submit" className="button button--danger" disabled={withdraw.isPending}>
          Withdraw thesis
        </button>
      </div>
      {asking ? (
        <ConfirmDialog
          title="Withdraw this thesis?"
          tone="danger"
          confirmLabel="Withdraw"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            withdraw.mutate(reason, { onSuccess: () => onAnnounce("The thesis was withdrawn.") });
          }}
        >
          Its public page will say it was withdrawn, its file will no longer be served, and
          harvesters will see it deleted.
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

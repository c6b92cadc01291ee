import { useEffect, useId, useState, type FormEvent } from "react";
import { languageName } from "../../../../common/languages.js";
import type { EmbargoChoice, PublicationView } from "../../../../common/publication.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ErrorState } from "../../../components/ui/ErrorState.js";
import { FactList } from "../../../components/ui/FactList.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { formatDate, formatDateTime } from "../../../lib/format.js";
import {
  useAcceptLicence,
  useChooseEmbargo,
  useCurrentLicence,
  useLicenceVersion,
  usePublication,
  useSaveStudentMetadata,
  type PublicationPartProps,
} from "../../publication/api.js";
import { errorProps, fieldErrorsOf } from "../../publication/field-errors.js";
import { EMBARGO_CHOICES, EMBARGO_LABELS } from "../../publication/constants.js";
import {
  MetadataFields,
  toMetadataInput,
  toMetadataValues,
  type MetadataValues,
} from "../../publication/MetadataFields.js";
import "../../publication/publication.css";
import { PublicationPlaceholder } from "./PublicationPlaceholder.js";

const STATE_WORDS: Record<PublicationView["state"], string> = {
  not_final: "Being prepared: fill in your details before your final version",
  in_preparation: "Being prepared for publication",
  awaiting_approval: "Waiting for the school's approval of your embargo",
  published: "Published",
  withdrawn: "Withdrawn by the school",
};

/**
 * "Publication" on the student's status page (issue 20): the metadata the library needs
 * (keywords, language, supervisors), the school's licence to accept, the embargo to choose, and
 * once published where the thesis can be found. Loaded as a chunk of its own after the page.
 */
export function PublicationSection({ indexNumber }: { indexNumber: string }) {
  const headingId = useId();
  const record = usePublication("student", indexNumber);
  if (record.isPending) return <PublicationPlaceholder />;
  if (record.isError) {
    if (record.error instanceof ApiError && record.error.status === 404) return null;
    return (
      <section className="card" aria-labelledby={headingId}>
        <h2 id={headingId}>Publication</h2>
        <ErrorState
          message="We could not load your publication details. Check your connection and try again."
          onRetry={() => void record.refetch()}
        />
      </section>
    );
  }
  const view = record.data;
  return (
    <section className="card status__publication" aria-labelledby={headingId}>
      <h2 id={headingId}>Publication</h2>
      <p>
        <strong>Where it stands: </strong>
        {STATE_WORDS[view.state]}
      </p>
      <WherePublished view={view} />
      <MetadataPart indexNumber={indexNumber} view={view} />
      <LicencePart indexNumber={indexNumber} view={view} />
      <EmbargoPart indexNumber={indexNumber} view={view} />
    </section>
  );
}

function WherePublished({ view }: { view: PublicationView }) {
  if (view.withdrawn) {
    return (
      <Alert tone="warning" title="Your thesis was withdrawn">
        On {formatDate(view.withdrawn.at)}: {view.withdrawn.reason}
      </Alert>
    );
  }
  if (!view.publicPath) return null;
  return (
    <div className="publication__part">
      <h3>Where your thesis is published</h3>
      <ul>
        <li>
          Public page: <a href={view.publicPath}>{view.publicPath}</a>
        </li>
        {view.handle ? (
          <li>
            In the university's repository: <a href={view.handle}>{view.handle}</a>
          </li>
        ) : null}
        <li>
          {view.filesPublic
            ? "Your thesis file can be downloaded by anyone."
            : view.embargo?.until
              ? `Your thesis file is available from ${formatDate(view.embargo.until)}; until then only its details are public.`
              : "Only its details are public for now."}
        </li>
      </ul>
    </div>
  );
}

function MetadataPart({ indexNumber, view }: PublicationPartProps) {
  const headingId = useId();
  const save = useSaveStudentMetadata(indexNumber);
  const [values, setValues] = useState<MetadataValues>(() => toMetadataValues(view));
  const [saved, setSaved] = useState(false);
  const locked = view.confirmedAt !== null || view.withdrawn !== null;

  // The server's copy, as text: when it changes (a save, a refetch) the form shows it.
  const serverCopy = JSON.stringify(toMetadataValues(view));
  useEffect(() => {
    setValues(JSON.parse(serverCopy) as MetadataValues);
  }, [serverCopy]);

  if (locked) {
    return (
      <div className="publication__part" aria-labelledby={headingId}>
        <h3 id={headingId}>Details for the library</h3>
        <p className="muted">
          The school has confirmed these details; ask the school if something needs correcting.
        </p>
        <MetadataFacts view={view} />
      </div>
    );
  }
  const errors = fieldErrorsOf(save.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate(toMetadataInput(values), { onSuccess: () => setSaved(true) });
  };
  return (
    <form
      className="form publication__part"
      aria-labelledby={headingId}
      onSubmit={onSubmit}
      noValidate
    >
      <h3 id={headingId}>Details for the library</h3>
      <p className="field__hint">
        Your title and abstract are the ones you gave with your thesis. The school adds the degree,
        department and dates.
      </p>
      <MetadataFields
        idPrefix="student-publication"
        values={values}
        onChange={setValues}
        errors={errors}
        disabled={save.isPending}
      />
      {save.isError && Object.keys(errors).length === 0 ? (
        <Alert tone="error">
          {messageFor(save.error, "Your details could not be saved. Please try again.")}
        </Alert>
      ) : null}
      {save.isError && Object.keys(errors).length > 0 ? (
        <Alert tone="error">Please correct the fields marked above.</Alert>
      ) : null}
      {saved ? <Alert tone="success">Your details were saved.</Alert> : null}
      <div className="publication__actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save details"}
        </button>
      </div>
    </form>
  );
}

export function MetadataFacts({ view }: { view: PublicationView }) {
  return (
    <FactList
      className="facts"
      facts={[
        { label: "Keywords", value: view.keywords.join(", ") || "Not given" },
        { label: "Language", value: view.language ? languageName(view.language) : "Not given" },
        {
          label: "Supervisors",
          value:
            view.supervisors
              .map((s) => (s.orcid ? `${s.name} (ORCID ${s.orcid})` : s.name))
              .join("; ") || "Not given",
        },
        {
          label: "Degree",
          value: view.degree ? `${view.degree.name} (${view.degree.abbreviation})` : "Not set",
        },
        { label: "Department", value: view.department ?? "Not set" },
        {
          label: "Examination date",
          value: view.examinationDate ? formatDate(view.examinationDate) : "Not set",
        },
        { label: "Award date", value: view.awardDate ? formatDate(view.awardDate) : "Not set" },
      ]}
    />
  );
}

function LicencePart({ indexNumber, view }: PublicationPartProps) {
  const headingId = useId();
  const checkId = useId();
  const licence = useCurrentLicence();
  const accept = useAcceptLicence(indexNumber);
  const [agreed, setAgreed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const current = licence.data;
  const acceptedCurrent = view.licence !== null && view.licence.current;
  const closed = view.publishedAt !== null || view.withdrawn !== null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!current) return;
    if (!agreed) {
      setProblem("Tick the box to say you accept the licence.");
      return;
    }
    setProblem(null);
    accept.mutate(current.version, {
      onError: (error) => {
        setProblem(messageFor(error, "The licence could not be accepted. Please try again."));
        void licence.refetch();
      },
    });
  };

  return (
    <div className="publication__part" aria-labelledby={headingId}>
      <h3 id={headingId}>Distribution licence</h3>
      {view.licence ? (
        <p>
          You accepted version {view.licence.version} on {formatDateTime(view.licence.acceptedAt)}.
          {!view.licence.current && !closed
            ? " The school has since changed it: please read and accept the new version."
            : null}
        </p>
      ) : null}
      {view.licence ? <AcceptedLicence version={view.licence.version} /> : null}
      {closed || acceptedCurrent ? null : licence.isPending ? null : !current ? (
        <p className="muted">The school has not published its licence yet.</p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="form">
          <div
            className="publication__licence-text"
            tabIndex={0}
            role="region"
            aria-label={`Licence, version ${current.version}`}
          >
            {current.text}
          </div>
          <div className="field">
            <label htmlFor={checkId}>
              <input
                id={checkId}
                type="checkbox"
                checked={agreed}
                onChange={(e) => setAgreed(e.target.checked)}
                {...errorProps(checkId, problem ?? undefined)}
              />{" "}
              I have read version {current.version} of the licence and accept it
            </label>
            {problem ? (
              <p id={`${checkId}-error`} className="field__error" role="alert">
                {problem}
              </p>
            ) : null}
          </div>
          <div className="publication__actions">
            <button type="submit" className="button" disabled={accept.isPending}>
              Accept the licence
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The text the student accepted, folded away until asked for. */
function AcceptedLicence({ version }: { version: number }) {
  const [open, setOpen] = useState(false);
  const text = useLicenceVersion(open ? version : null);
  return (
    <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Read version {version}, the one you accepted</summary>
      {text.data ? (
        <div className="publication__licence-text">{text.data.text}</div>
      ) : text.isError ? (
        <p className="muted">The text could not be loaded. Close and open this again to retry.</p>
      ) : (
        <p className="muted">Loading...</p>
      )}
    </details>
  );
}

function EmbargoPart({ indexNumber, view }: PublicationPartProps) {
  const headingId = useId();
  const reasonId = useId();
  const choose = useChooseEmbargo(indexNumber);
  const [choice, setChoice] = useState<EmbargoChoice | "">(view.embargo?.choice ?? "");
  const [reason, setReason] = useState(view.embargo?.reason ?? "");
  const [saved, setSaved] = useState(false);
  const closed = view.publishedAt !== null || view.withdrawn !== null;
  const errors = fieldErrorsOf(choose.error);

  const current = view.embargo ? (
    <p>
      Your choice: <strong>{EMBARGO_LABELS[view.embargo.choice]}</strong>
      {view.embargo.until ? `, until ${formatDate(view.embargo.until)}` : null}
      {view.embargo.approval === "pending" ? " (waiting for the school's approval)" : null}
      {view.embargo.approval === "approved" ? " (approved by the school)" : null}
      {view.embargo.approval === "refused"
        ? ` (refused by the school${view.embargo.decisionNote ? `: ${view.embargo.decisionNote}` : ""}; please choose again)`
        : null}
    </p>
  ) : null;

  if (closed) {
    return (
      <div className="publication__part" aria-labelledby={headingId}>
        <h3 id={headingId}>Embargo</h3>
        {current}
      </div>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    if (!choice) return;
    choose.mutate(
      { choice, ...(choice === "sensitive" ? { reason } : {}) },
      { onSuccess: () => setSaved(true) },
    );
  };
  return (
    <form
      className="form publication__part"
      aria-labelledby={headingId}
      onSubmit={onSubmit}
      noValidate
    >
      <h3 id={headingId}>Embargo</h3>
      {current}
      <fieldset className="field">
        <legend>How long should your thesis file stay private after the award date?</legend>
        <p className="field__hint">
          During an embargo the title, abstract and other details are public; the file is not.
        </p>
        {EMBARGO_CHOICES.map((c) => (
          <div key={c}>
            <label>
              <input
                type="radio"
                name="embargo-choice"
                value={c}
                checked={choice === c}
                onChange={() => setChoice(c)}
              />{" "}
              {EMBARGO_LABELS[c]}
            </label>
          </div>
        ))}
      </fieldset>
      {choice === "sensitive" ? (
        <div className={errors.reason ? "field field--error" : "field"}>
          <label htmlFor={reasonId}>Why the thesis needs protecting (patent, sensitive data)</label>
          <textarea
            id={reasonId}
            rows={3}
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
      ) : null}
      {choose.isError && !errors.reason ? (
        <Alert tone="error">
          {messageFor(choose.error, "Your choice could not be saved. Please try again.")}
        </Alert>
      ) : null}
      {saved ? <Alert tone="success">Your embargo choice was saved.</Alert> : null}
      <div className="publication__actions">
        <button type="submit" className="button" disabled={choose.isPending || !choice}>
          Save embargo choice
        </button>
      </div>
    </form>
  );
}

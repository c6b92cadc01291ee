import { useId, useState, type FormEvent } from "react";
import {
  DEGREE_LEVELS,
  DEGREE_LEVEL_LABELS,
  type Degree,
  type DegreeLevel,
} from "../../../../common/publication.js";
import { Alert } from "../../../components/ui/Alert.js";
import { Loading } from "../../../components/ui/Loading.js";
import { messageFor } from "../../../lib/form-errors.js";
import { formatDateTime } from "../../../lib/format.js";
import {
  useAddLicenceVersion,
  useDegrees,
  useLicenceVersions,
  useSaveDegree,
} from "../../publication/api.js";
import { errorProps, fieldErrorsOf } from "../../publication/field-errors.js";
import { LoadError } from "../components/LoadError.js";
import "../../publication/publication.css";

/**
 * The school's publication settings (issue 20): the distribution licence, versioned (a new
 * version is a new row; older versions stay readable), and the degrees the school awards.
 */
export function PublicationSettingsPage() {
  return (
    <section aria-labelledby="publication-settings-title">
      <h1 id="publication-settings-title">Publication settings</h1>
      <LicenceVersions />
      <Degrees />
    </section>
  );
}

function Pager({
  page,
  total,
  pageSize,
  onPage,
  label,
}: {
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav aria-label={label} className="publication__actions">
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous page
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

function LicenceVersions() {
  const headingId = useId();
  const textId = useId();
  const [page, setPage] = useState(1);
  const versions = useLicenceVersions(page);
  const add = useAddLicenceVersion();
  const [text, setText] = useState("");
  const [saved, setSaved] = useState<number | null>(null);
  const errors = fieldErrorsOf(add.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    add.mutate(text, {
      onSuccess: (answer) => {
        setSaved(answer.data.version);
        setText("");
      },
    });
  };
  return (
    <section className="card publication__part" aria-labelledby={headingId}>
      <h2 id={headingId}>Distribution licence</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className={errors.text ? "field field--error" : "field"}>
          <label htmlFor={textId}>New version of the licence</label>
          <p className="field__hint">
            Students accept the newest version from then on; those who accepted an older one keep
            it.
          </p>
          <textarea
            id={textId}
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            {...errorProps(textId, errors.text)}
          />
          {errors.text ? (
            <p id={`${textId}-error`} className="field__error">
              The text {errors.text}
            </p>
          ) : null}
        </div>
        {add.isError && !errors.text ? (
          <Alert tone="error">{messageFor(add.error, "The licence could not be saved.")}</Alert>
        ) : null}
        {saved ? <Alert tone="success">Version {saved} saved.</Alert> : null}
        <button type="submit" className="button" disabled={add.isPending}>
          Save as a new version
        </button>
      </form>
      <h3>Versions</h3>
      {versions.isPending ? (
        <Loading label="Loading the licence versions..." />
      ) : versions.isError ? (
        <LoadError
          error={versions.error}
          what="the licence versions"
          onRetry={() => void versions.refetch()}
        />
      ) : versions.data.data.length === 0 ? (
        <p className="muted">
          No licence yet: students cannot accept one until you save the first version.
        </p>
      ) : (
        <>
          {versions.data.data.map((v) => (
            <details key={v.version}>
              <summary>
                Version {v.version}, saved {formatDateTime(v.createdAt)}
              </summary>
              <div className="publication__licence-text">{v.text}</div>
            </details>
          ))}
          <Pager
            page={page}
            total={versions.data.total}
            pageSize={versions.data.pageSize}
            onPage={setPage}
            label="Licence versions pages"
          />
        </>
      )}
    </section>
  );
}

interface DegreeValues {
  name: string;
  abbreviation: string;
  level: DegreeLevel;
  active: boolean;
}

function DegreeForm({ degree, onDone }: { degree: Degree | null; onDone: () => void }) {
  const id = useId();
  const save = useSaveDegree();
  const [values, setValues] = useState<DegreeValues>(
    degree
      ? {
          name: degree.name,
          abbreviation: degree.abbreviation,
          level: degree.level,
          active: degree.active,
        }
      : { name: "", abbreviation: "", level: "masters", active: true },
  );
  const errors = fieldErrorsOf(save.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ id: degree?.id ?? null, values }, { onSuccess: onDone });
  };
  const input = (field: "name" | "abbreviation", label: string) => (
    <div className={errors[field] ? "field field--error" : "field"}>
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        value={values[field]}
        onChange={(e) => setValues({ ...values, [field]: e.target.value })}
        {...errorProps(`${id}-${field}`, errors[field])}
      />
      {errors[field] ? (
        <p id={`${id}-${field}-error`} className="field__error">
          {label} {errors[field]}
        </p>
      ) : null}
    </div>
  );
  return (
    <form
      className="form"
      onSubmit={onSubmit}
      noValidate
      aria-label={degree ? `Edit ${degree.name}` : "Add a degree"}
    >
      {input("name", "Degree name")}
      {input("abbreviation", "Abbreviation")}
      <div className="field">
        <label htmlFor={`${id}-level`}>Level</label>
        <select
          id={`${id}-level`}
          value={values.level}
          onChange={(e) => setValues({ ...values, level: e.target.value as DegreeLevel })}
        >
          {DEGREE_LEVELS.map((l) => (
            <option key={l} value={l}>
              {DEGREE_LEVEL_LABELS[l]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-active`}>
          <input
            id={`${id}-active`}
            type="checkbox"
            checked={values.active}
            onChange={(e) => setValues({ ...values, active: e.target.checked })}
          />{" "}
          Still awarded
        </label>
      </div>
      {save.isError && !errors.name && !errors.abbreviation ? (
        <Alert tone="error">{messageFor(save.error, "The degree could not be saved.")}</Alert>
      ) : null}
      <div className="publication__actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {degree ? "Save degree" : "Add degree"}
        </button>
        {degree ? (
          <button type="button" className="button button--secondary" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function Degrees() {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const degrees = useDegrees(page);
  const [editing, setEditing] = useState<number | null>(null);
  const [formKey, setFormKey] = useState(0);
  return (
    <section className="card publication__part" aria-labelledby={headingId}>
      <h2 id={headingId}>Degrees</h2>
      {degrees.isPending ? (
        <Loading label="Loading the degrees..." />
      ) : degrees.isError ? (
        <LoadError
          error={degrees.error}
          what="the degrees"
          onRetry={() => void degrees.refetch()}
        />
      ) : (
        <>
          <ul>
            {degrees.data.data.map((d) => (
              <li key={d.id}>
                {editing === d.id ? (
                  <DegreeForm degree={d} onDone={() => setEditing(null)} />
                ) : (
                  <>
                    {d.name} ({d.abbreviation}), {DEGREE_LEVEL_LABELS[d.level]}
                    {d.active ? null : <span className="chip"> no longer awarded</span>}{" "}
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      onClick={() => setEditing(d.id)}
                    >
                      Edit <span className="visually-hidden">{d.name}</span>
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
          <Pager
            page={page}
            total={degrees.data.total}
            pageSize={degrees.data.pageSize}
            onPage={setPage}
            label="Degree pages"
          />
        </>
      )}
      <h3>Add a degree</h3>
      <DegreeForm key={formKey} degree={null} onDone={() => setFormKey((k) => k + 1)} />
    </section>
  );
}

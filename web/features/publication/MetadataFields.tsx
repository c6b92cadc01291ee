import { LANGUAGES } from "../../../common/languages.js";
import { MAX_KEYWORDS, MAX_SUPERVISORS } from "./constants.js";
import { errorProps } from "./field-errors.js";

export interface SupervisorValue {
  name: string;
  orcid: string;
}

export interface MetadataValues {
  keywords: string;
  language: string;
  supervisors: SupervisorValue[];
}

/** Keywords as typed (commas or new lines) to the list the API takes. */
export function splitKeywords(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((k) => k.trim())
    .filter((k) => k !== "");
}

export function toMetadataValues(view: {
  keywords: string[];
  language: string | null;
  supervisors: { name: string; orcid: string | null }[];
}): MetadataValues {
  return {
    keywords: view.keywords.join(", "),
    language: view.language ?? "",
    supervisors:
      view.supervisors.length > 0
        ? view.supervisors.map((s) => ({ name: s.name, orcid: s.orcid ?? "" }))
        : [{ name: "", orcid: "" }],
  };
}

export function toMetadataInput(values: MetadataValues) {
  return {
    keywords: splitKeywords(values.keywords),
    language: values.language,
    supervisors: values.supervisors.map((s) => ({
      name: s.name,
      orcid: s.orcid.trim() === "" ? null : s.orcid.trim(),
    })),
  };
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="field__error">
      {message}
    </p>
  ) : null;
}

/**
 * The student's part of the metadata (keywords, language, supervisors), used by the student's
 * form and the school's review alike. Errors come from the server by field name.
 */
export function MetadataFields({
  idPrefix,
  values,
  onChange,
  errors,
  disabled,
}: {
  idPrefix: string;
  values: MetadataValues;
  onChange: (values: MetadataValues) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const kw = `${idPrefix}-keywords`;
  const lang = `${idPrefix}-language`;
  const setSupervisor = (i: number, change: Partial<SupervisorValue>) =>
    onChange({
      ...values,
      supervisors: values.supervisors.map((s, j) => (j === i ? { ...s, ...change } : s)),
    });
  return (
    <>
      <div className={errors.keywords ? "field field--error" : "field"}>
        <label htmlFor={kw}>Keywords</label>
        <p className="field__hint" id={`${kw}-hint`}>
          1 to {MAX_KEYWORDS}, separated by commas.
        </p>
        <input
          id={kw}
          value={values.keywords}
          disabled={disabled}
          onChange={(e) => onChange({ ...values, keywords: e.target.value })}
          {...errorProps(kw, errors.keywords ?? keywordItemError(errors))}
        />
        <FieldError id={kw} message={errors.keywords ?? keywordItemError(errors)} />
      </div>
      <div className={errors.language ? "field field--error" : "field"}>
        <label htmlFor={lang}>Language of the thesis</label>
        <select
          id={lang}
          value={values.language}
          disabled={disabled}
          onChange={(e) => onChange({ ...values, language: e.target.value })}
          {...errorProps(lang, errors.language)}
        >
          <option value="">Choose a language</option>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name}
            </option>
          ))}
        </select>
        <FieldError id={lang} message={errors.language} />
      </div>
      <fieldset className="field publication__supervisors">
        <legend>Supervisors</legend>
        {errors.supervisors ? (
          <p className="field__error" id={`${idPrefix}-supervisors-error`}>
            {errors.supervisors}
          </p>
        ) : null}
        {values.supervisors.map((s, i) => {
          const nameId = `${idPrefix}-supervisor-${i}-name`;
          const orcidId = `${idPrefix}-supervisor-${i}-orcid`;
          const nameError = errors[`supervisors.${i}.name`];
          const orcidError = errors[`supervisors.${i}.orcid`];
          return (
            <div className="publication__supervisor" key={i}>
              <div className={nameError ? "field field--error" : "field"}>
                <label htmlFor={nameId}>Supervisor {i + 1}: name</label>
                <input
                  id={nameId}
                  value={s.name}
                  disabled={disabled}
                  autoComplete="off"
                  onChange={(e) => setSupervisor(i, { name: e.target.value })}
                  {...errorProps(nameId, nameError)}
                />
                <FieldError id={nameId} message={nameError} />
              </div>
              <div className={orcidError ? "field field--error" : "field"}>
                <label htmlFor={orcidId}>Supervisor {i + 1}: ORCID iD (optional)</label>
                <input
                  id={orcidId}
                  value={s.orcid}
                  disabled={disabled}
                  placeholder="0000-0002-1825-0097"
                  autoComplete="off"
                  onChange={(e) => setSupervisor(i, { orcid: e.target.value })}
                  {...errorProps(orcidId, orcidError)}
                />
                <FieldError id={orcidId} message={orcidError} />
              </div>
              {values.supervisors.length > 1 ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={disabled}
                  onClick={() =>
                    onChange({
                      ...values,
                      supervisors: values.supervisors.filter((_, j) => j !== i),
                    })
                  }
                >
                  Remove supervisor {i + 1}
                </button>
              ) : null}
            </div>
          );
        })}
        {values.supervisors.length < MAX_SUPERVISORS ? (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={disabled}
            onClick={() =>
              onChange({ ...values, supervisors: [...values.supervisors, { name: "", orcid: "" }] })
            }
          >
            Add a supervisor
          </button>
        ) : null}
      </fieldset>
    </>
  );
}

function keywordItemError(errors: Record<string, string>): string | undefined {
  const entry = Object.entries(errors).find(([field]) => field.startsWith("keywords."));
  if (!entry) return undefined;
  const n = Number(entry[0].split(".")[1]) + 1;
  return `Keyword ${n} ${entry[1]}`;
}

import { useId } from "react";
import {
  DOCUMENT_FILTERS,
  DOCUMENT_FILTER_LABELS,
} from "../../../../../common/documents-constants.js";
import type { SubmissionListQuery } from "../../../../../common/submissions-api.js";
import { NONE } from "../../../../../common/submissions-constants.js";
import {
  DOCUMENTS,
  DOCUMENT_LABELS,
  EXAMINER_STATES,
  EXAMINER_STATE_LABELS,
  SGS_STAGES,
  SGS_STAGE_LABELS,
} from "../../../../../common/workflow.js";
import { DebouncedInput } from "../../components/DebouncedInput.js";
import type { FilterKey } from "../lib/list-params.js";

const STAGE_OPTIONS = [
  { value: "", label: "Any stage" },
  ...SGS_STAGES.map((stage) => ({ value: stage as string, label: SGS_STAGE_LABELS[stage] })),
  { value: NONE, label: "Not started" },
];
const EXAMINER_OPTIONS = [
  { value: "", label: "Any" },
  ...EXAMINER_STATES.map((state) => ({
    value: state as string,
    label: EXAMINER_STATE_LABELS[state],
  })),
  { value: NONE, label: "Not sent yet" },
];
const DOCUMENT_OPTIONS = [
  { value: "", label: "Any" },
  ...DOCUMENTS.map((item) => ({ value: item as string, label: DOCUMENT_LABELS[item] })),
];
const UPLOAD_OPTIONS = [
  { value: "", label: "Any" },
  ...DOCUMENT_FILTERS.map((filter) => ({
    value: filter as string,
    label: DOCUMENT_FILTER_LABELS[filter],
  })),
];

/** The list's filters; each change goes into the address at once (text after a short pause). */
export function SubmissionFilters({
  query,
  onChange,
}: {
  query: SubmissionListQuery;
  onChange: (changes: Partial<Record<FilterKey, string | null>>) => void;
}) {
  const id = useId();
  const select = (key: FilterKey, label: string, options: { value: string; label: string }[]) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select
        id={`${id}-${key}`}
        value={query[key] ?? ""}
        onChange={(event) => onChange({ [key]: event.target.value || null })}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <fieldset className="filters">
      <legend>Filters</legend>
      {select("sgsStage", "SGS Admin stage", STAGE_OPTIONS)}
      {select("internalExaminer", "Internal examiner", EXAMINER_OPTIONS)}
      {select("externalExaminer", "External examiner", EXAMINER_OPTIONS)}
      {select("documents", "Documents", UPLOAD_OPTIONS)}
      {select("missingDocument", "Missing document", DOCUMENT_OPTIONS)}
      <div className="field">
        <label htmlFor={`${id}-programme`}>Programme</label>
        <DebouncedInput
          id={`${id}-programme`}
          type="text"
          autoComplete="off"
          value={query.programme ?? ""}
          onCommit={(value) => onChange({ programme: value || null })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-thesisStatus`}>Thesis Status</label>
        <DebouncedInput
          id={`${id}-thesisStatus`}
          type="text"
          autoComplete="off"
          value={query.thesisStatus ?? ""}
          onCommit={(value) => onChange({ thesisStatus: value || null })}
        />
      </div>
    </fieldset>
  );
}

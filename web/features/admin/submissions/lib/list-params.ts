import { DOCUMENT_FILTERS } from "../../../../../common/documents-constants.js";
import type { SubmissionListQuery } from "../../../../../common/submissions-api.js";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  NONE,
  SUBMISSION_SORTS,
} from "../../../../../common/submissions-constants.js";
import { DOCUMENTS, EXAMINER_STATES, SGS_STAGES } from "../../../../../common/workflow.js";

/**
 * The list's search, filters, sort and page live in the address (so a filtered list can be
 * bookmarked, shared, and reached from a dashboard figure). These read and write them by the rules
 * of the API's query schema (submissionListQuerySchema in common/submissions-api.ts); a value the
 * schema refuses is dropped rather than breaking the page.
 *
 * The rules are checked by hand so the list page does not load zod on its first load (issue 11);
 * list-params.test.ts proves over many addresses that the result is the schema's, field by field.
 */
export const FILTER_KEYS = [
  "q",
  "programme",
  "sgsStage",
  "internalExaminer",
  "externalExaminer",
  "thesisStatus",
  "missingDocument",
  "documents",
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** A parameter's value as the schema reads it, or null when the schema refuses it. */
type Read<T> = (text: string) => { value: T } | null;

/** z.string().trim().max(max): the trimmed text, refused when longer than max. */
const text =
  (max: number): Read<string> =>
  (value) => {
    const trimmed = value.trim();
    return trimmed.length <= max ? { value: trimmed } : null;
  };

/** z.enum(values): exactly one of the values (no trimming, no change of case). */
const oneOf =
  <T extends string>(values: readonly T[]): Read<T> =>
  (value) =>
    (values as readonly string[]).includes(value) ? { value: value as T } : null;

/** z.coerce.number().int().min(1).max(max): what Number() makes of it, a whole number in range. */
const wholeNumber =
  (max: number): Read<number> =>
  (value) => {
    const number = Number(value);
    return Number.isInteger(number) && number >= 1 && number <= max ? { value: number } : null;
  };

/**
 * One parameter: null when the address does not have it (or the schema refuses it: the page drops
 * it), `{ value: undefined }` when it is blank (the schema reads "" as "not set").
 */
function readParam<T>(
  params: URLSearchParams,
  key: keyof SubmissionListQuery,
  read: Read<T>,
): { value: T | undefined } | null {
  const value = params.get(key);
  if (value === null) return null;
  if (value.trim() === "") return { value: undefined };
  return read(value);
}

export function readListQuery(params: URLSearchParams): SubmissionListQuery {
  const query: SubmissionListQuery = {
    sort: readParam(params, "sort", oneOf(SUBMISSION_SORTS))?.value ?? "name",
    order: readParam(params, "order", oneOf(["asc", "desc"] as const))?.value ?? "asc",
    page: readParam(params, "page", wholeNumber(100_000))?.value ?? 1,
    pageSize: readParam(params, "pageSize", wholeNumber(MAX_PAGE_SIZE))?.value ?? DEFAULT_PAGE_SIZE,
  };
  // A filter the address names keeps its key even when blank (its value is then undefined), as
  // the schema's answer does; one the schema refuses is left out.
  const q = readParam(params, "q", text(100));
  if (q) query.q = q.value;
  const programme = readParam(params, "programme", text(200));
  if (programme) query.programme = programme.value;
  const sgsStage = readParam(params, "sgsStage", oneOf([...SGS_STAGES, NONE] as const));
  if (sgsStage) query.sgsStage = sgsStage.value;
  const internal = readParam(
    params,
    "internalExaminer",
    oneOf([...EXAMINER_STATES, NONE] as const),
  );
  if (internal) query.internalExaminer = internal.value;
  const external = readParam(
    params,
    "externalExaminer",
    oneOf([...EXAMINER_STATES, NONE] as const),
  );
  if (external) query.externalExaminer = external.value;
  const thesisStatus = readParam(params, "thesisStatus", text(100));
  if (thesisStatus) query.thesisStatus = thesisStatus.value;
  const missingDocument = readParam(params, "missingDocument", oneOf(DOCUMENTS));
  if (missingDocument) query.missingDocument = missingDocument.value;
  const documents = readParam(params, "documents", oneOf(DOCUMENT_FILTERS));
  if (documents) query.documents = documents.value;
  return query;
}

/** The id of the submission open in the details panel, if any. */
export function readOpenId(params: URLSearchParams): number | null {
  const value = Number(params.get("open"));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * A copy of the params with some keys set (or removed when blank). Changing the search or a
 * filter goes back to page 1, since the old page number means nothing in the new result.
 */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | number | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  if (Object.keys(changes).some((key) => (FILTER_KEYS as readonly string[]).includes(key))) {
    next.delete("page");
  }
  return next;
}

/** The list filters only (for the export link and "clear filters"). */
export function activeFilters(query: SubmissionListQuery): Partial<Record<FilterKey, string>> {
  const filters: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) {
    const value = query[key];
    if (value !== undefined && value !== "") filters[key] = String(value);
  }
  return filters;
}

import {
  submissionListQuerySchema,
  type SubmissionListQuery,
} from "../../../../../common/submissions-api.js";

/**
 * The list's search, filters, sort and page live in the address (so a filtered list can be
 * bookmarked, shared, and reached from a dashboard figure). These read and write them with the
 * API's own query schema; a value the schema refuses is dropped rather than breaking the page.
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

const QUERY_KEYS = [...FILTER_KEYS, "sort", "order", "page", "pageSize"] as const;

export function readListQuery(params: URLSearchParams): SubmissionListQuery {
  const raw: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  let parsed = submissionListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string") delete raw[key];
    }
    parsed = submissionListQuerySchema.safeParse(raw);
  }
  return parsed.success ? parsed.data : submissionListQuerySchema.parse({});
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

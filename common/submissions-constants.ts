/**
 * The administrator's list of submissions and the dashboard: the sorts, the page sizes, the word
 * for "not set", the caps on counts and lists, and the export formats (docs/api.md, "Submissions
 * and workflow").
 *
 * Plain constants without zod, apart from ./submissions-api.ts (which re-exports them beside its
 * schemas), so the list page can read its address and show its filters without loading zod
 * (issue 11: JavaScript on the first load).
 */

export const SUBMISSION_SORTS = [
  "name",
  "indexNumber",
  "programme",
  "createdAt",
  "updatedAt",
] as const;
export type SubmissionSort = (typeof SUBMISSION_SORTS)[number];
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;
/** The page sizes the list offers; the API takes any size from 1 to MAX_PAGE_SIZE. */
export const PAGE_SIZE_CHOICES = [25, 50, 100] as const;
/** "none": the field is not set yet (no stage, no examiner). */
export const NONE = "none";

/**
 * The list counts matching submissions up to this many and no further: counting hundreds of
 * thousands of matches costs more than showing the page, and nobody pages through them. Past it,
 * `total` is LIST_TOTAL_CAP and `totalCapped` is true; the screen says "more than 10,000".
 */
export const LIST_TOTAL_CAP = 10_000;

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;

/** The dashboard's overdue lists show at most this many rows; their totals count every one. */
export const OVERDUE_LIST_LIMIT = 100;

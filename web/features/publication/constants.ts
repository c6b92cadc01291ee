import type { EmbargoChoice } from "../../../common/publication.js";

/**
 * The few publication constants the student's status page shows, without zod: importing them
 * from common/publication.ts runs its schemas, which brought zod (about 25 kB compressed) to the
 * status page. constants.test.ts holds them equal to common/publication.ts.
 */
export const EMBARGO_CHOICES = [
  "none",
  "6m",
  "1y",
  "2y",
  "sensitive",
] as const satisfies readonly EmbargoChoice[];

export const EMBARGO_LABELS: Record<EmbargoChoice, string> = {
  none: "No embargo: open at once",
  "6m": "6 months",
  "1y": "1 year",
  "2y": "2 years",
  sensitive: "Patent or sensitive (needs the school's approval)",
};

export const MAX_KEYWORDS = 10;
export const MAX_SUPERVISORS = 5;

/**
 * The Reports figures (issue 22, docs/decisions/025-report-figures.md): the query
 * `GET /api/admin/reports` takes and the figures it answers, shared by the server, the Reports page
 * and the dean's PDF.
 *
 * Definitions every figure follows (the ADR says why):
 * - A duration is in whole days: the UTC calendar date of its end minus the UTC calendar date of
 *   its start (a stage entered and left on the same day lasts 0 days).
 * - Percentiles by the nearest-rank rule: of n durations sorted ascending, the p-th percentile is
 *   the one at rank ceil(p / 100 * n) (1-based). The median is the 50th percentile by that rule.
 *   With no durations (count 0) every percentile is null.
 * - The period is whole calendar months (UTC), from..to both included. A duration belongs to the
 *   month in which it ENDS; throughput counts an entry in its month and a leaving in its month.
 *   (Months, not days: the figures are read from monthly rollups, decisions/025.)
 * - Programme and cohort filter the records: the programme as stored, the cohort the UTC year of
 *   the record's creation.
 * - A record's history is unknown when it was not created in this application with its "create"
 *   timeline event (an import, or a record written before the timeline): what it already held when
 *   it arrived has no start time. A duration whose start is not known is never counted as days: it
 *   is counted apart, in `unknownHistory` of its figure.
 */

import { z } from "zod";
import { EXAMINER_STATES } from "./workflow.js";
import { EXAMINER_KINDS, RECOMMENDATIONS } from "./examiners-constants.js";

// The stages, legs and labels live in ./reports-constants.ts (no zod), so a page that only shows
// a label does not load zod (issue 11); re-exported here.
export * from "./reports-constants.js";
import { LATE_KNOWN_BY, REPORT_STAGES } from "./reports-constants.js";

// ---------------------------------------------------------------------------------------------
// The query

/** The longest period, in months (the throughput table has a row per month and stage). */
export const MAX_REPORT_MONTHS = 120;

/** A calendar month, YYYY-MM. */
export const monthSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month (YYYY-MM)");

/** Months since year 0: consecutive months differ by one. */
export function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

/** The month (YYYY-MM) of a month index. */
export function monthOfIndex(index: number): string {
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional());

/**
 * `GET /api/admin/reports` query. Every filter is optional:
 * - programme: exact programme name;
 * - cohort: the year the records were created (UTC);
 * - from, to: the period's first and last month (YYYY-MM, both included); without them the
 *   twelve months ending with the current month; one without the other: twelve months from or to it;
 * - compare: "true" adds the same figures for the same period a year earlier (`previous`);
 * - examinerPage: the page of the per-examiner table.
 */
export const reportQuerySchema = z
  .object({
    programme: optional(z.string().trim().max(200, "must be at most 200 characters")),
    cohort: optional(
      z.coerce
        .number({ error: "must be a year" })
        .int("must be a year")
        .min(1900, "must be a year from 1900 to 2999")
        .max(2999, "must be a year from 1900 to 2999"),
    ),
    from: optional(monthSchema),
    to: optional(monthSchema),
    compare: optional(z.enum(["true", "false"], { error: 'must be "true" or "false"' })).transform(
      (value) => value === "true",
    ),
    examinerPage: optional(
      z.coerce
        .number({ error: "must be a whole number" })
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .max(100_000, "must be at most 100000"),
    ).transform((value) => value ?? 1),
  })
  .superRefine((query, ctx) => {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    }
    if (query.from !== undefined && query.to !== undefined) {
      if (monthIndex(query.to) - monthIndex(query.from) >= MAX_REPORT_MONTHS) {
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `must be at most ${MAX_REPORT_MONTHS} months after from`,
        });
      }
    }
  });
/** The query as the route reads it (compare a boolean, examinerPage a number). */
export type ReportQuery = z.output<typeof reportQuerySchema>;
/** The query as a URL holds it (every value a string). */
export type ReportQueryInput = z.input<typeof reportQuerySchema>;

// ---------------------------------------------------------------------------------------------
// The figures

/** Whole days, nearest-rank percentiles; null when count is 0. */
export const distributionSchema = z.object({
  /** How many durations (records, or examinations) the figure is made of. */
  count: z.number().int(),
  median: z.number().int().nullable(),
  p75: z.number().int().nullable(),
  p90: z.number().int().nullable(),
});
export type Distribution = z.infer<typeof distributionSchema>;

export const stageFigureSchema = z.object({
  stage: z.enum(REPORT_STAGES),
  /** Time in the stage, of the records that left it in the period. */
  days: distributionSchema,
  /** Records that left the stage in the period but whose entry is unknown (not counted in days). */
  unknownHistory: z.number().int(),
});
export type StageFigure = z.infer<typeof stageFigureSchema>;

export const spanFigureSchema = z.object({
  /** From the first upload (a checklist item first set) to the released outcome. */
  days: distributionSchema,
  /** Outcomes released in the period whose first upload is unknown. */
  unknownHistory: z.number().int(),
});

export const kindTurnaroundSchema = z.object({
  kind: z.enum(EXAMINER_KINDS),
  /** Per leg, the examinations whose leg ended in the period. */
  legs: z.object({
    link_to_download: distributionSchema,
    download_to_report: distributionSchema,
    link_to_report: distributionSchema,
  }),
});
export type KindTurnaround = z.infer<typeof kindTurnaroundSchema>;

export const examinerFigureSchema = z.object({
  examinerId: z.number().int(),
  name: z.string(),
  institution: z.string(),
  kind: z.enum(EXAMINER_KINDS),
  /** Reports received in the period. */
  examined: z.number().int(),
  /** Link sent to report received, of those reports. */
  linkToReport: distributionSchema,
  /** Links out now with no report yet (not limited to the period). */
  inProgress: z.number().int(),
  /** Of those, past their due date today (the same in both periods). */
  lateNow: z.number().int(),
});
export type ExaminerFigure = z.infer<typeof examinerFigureSchema>;

export const outcomeCountSchema = z.object({
  decision: z.enum(RECOMMENDATIONS),
  count: z.number().int(),
});

export const outcomesFigureSchema = z.object({
  /** Outcomes released in the period, one entry per decision in RECOMMENDATIONS order. */
  counts: z.array(outcomeCountSchema),
  total: z.number().int(),
  /** Released outcome (minor or major corrections) to corrections approved, approved in the period. */
  correctionsToApproval: distributionSchema,
  /** Corrections outcomes not approved yet (today, not limited to the period). */
  correctionsPending: z.number().int(),
});

export const throughputRowSchema = z.object({
  /** YYYY-MM (UTC). */
  month: z.string(),
  stage: z.enum(REPORT_STAGES),
  /** Records that entered the stage that month (every entry, also after a move back). */
  entered: z.number().int(),
  /** Records that left it that month (to any other stage, forward or back). */
  left: z.number().int(),
});
export type ThroughputRow = z.infer<typeof throughputRowSchema>;

export const periodFiguresSchema = z.object({
  /** The period's first and last month, YYYY-MM. */
  from: z.string(),
  to: z.string(),
  /** One entry per REPORT_STAGES, in that order. */
  stages: z.array(stageFigureSchema),
  total: spanFigureSchema,
  /** One entry per examiner kind (internal, external). */
  turnaround: z.array(kindTurnaroundSchema),
  /** Examiners with a report received in the period or a link out now, by name; paged. */
  examiners: z.object({
    items: z.array(examinerFigureSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
  outcomes: outcomesFigureSchema,
  /** Every month of the period (oldest first) times every stage, zeros included. */
  throughput: z.array(throughputRowSchema),
});
export type PeriodFigures = z.infer<typeof periodFiguresSchema>;

/**
 * One late report: past its due date today (UTC). Known by the link's due date (an examination
 * whose link was sent and whose report is not in) or, where the examiner's state was typed by hand
 * without a link, by the day that state was typed plus the overdue setting
 * (ETS_REPORT_OVERDUE_DAYS).
 */
export const lateReportSchema = z.object({
  submissionId: z.number().int(),
  studentName: z.string(),
  indexNumber: z.string(),
  programme: z.string(),
  role: z.enum(EXAMINER_KINDS),
  /** The examiner's name when known by a link; null for a state typed by hand. */
  examinerName: z.string().nullable(),
  /** The examiner's state on the record ("awaiting", "received"). */
  state: z.enum(EXAMINER_STATES),
  knownBy: z.enum(LATE_KNOWN_BY),
  /** The due date (YYYY-MM-DD): the link's, or the typed state's day plus the setting. */
  dueOn: z.string(),
  /** When the link was sent, or when the state was typed (ISO time). */
  since: z.string(),
  /** Whole days past the due date: today minus dueOn (at least 1). */
  daysLate: z.number().int(),
});
export type LateReport = z.infer<typeof lateReportSchema>;

export const lateReportsSchema = z.object({
  /** The most days late first, at most REPORT_LATE_LIST_LIMIT (or the caller's limit). */
  items: z.array(lateReportSchema),
  total: z.number().int(),
  /** ETS_REPORT_OVERDUE_DAYS: a typed state is due this many days after it was typed. */
  overdueDays: z.number().int(),
});
export type LateReports = z.infer<typeof lateReportsSchema>;

export const reportFiguresSchema = z.object({
  /** When the figures were read (ISO time): "now" for late reports and pending counts. */
  generatedAt: z.string(),
  filters: z.object({
    programme: z.string().nullable(),
    cohort: z.number().int().nullable(),
  }),
  current: periodFiguresSchema,
  /** The same period a year earlier, when the query asked compare=true; else null. */
  previous: periodFiguresSchema.nullable(),
  /** Late reports now, filtered by programme and cohort (not by the period). */
  late: lateReportsSchema,
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

/**
 * The Reports page's figures as tables: what the page shows beside each chart, what the CSV and
 * XLSX exports hold and what the dean's PDF prints. One conversion (reportTables) serves all
 * three, so a number on the page is the same number in every file.
 */

import {
  EXAMINER_KIND_LABELS,
  RECOMMENDATIONS,
  RECOMMENDATION_LABELS,
} from "./examiners-constants.js";
import {
  LATE_KNOWN_BY_LABELS,
  REPORT_STAGE_LABELS,
  TURNAROUND_LEGS,
  TURNAROUND_LEG_LABELS,
  type ReportStage,
} from "./reports-constants.js";
// Types only: the page's chunk needs no zod for these tables.
import type {
  Distribution,
  ExaminerFigure,
  LateReports,
  PeriodFigures,
  ReportFigures,
} from "./reports.js";

export type ReportCell = string | number | null;

export interface ReportColumn {
  label: string;
  /** Numbers are right-aligned and written to XLSX as numbers. */
  numeric: boolean;
}

export interface ReportChartSpec {
  /** The unit of the charted values, e.g. "days" or "records". */
  unit: string;
  /** The column holding each row's label (the chart's categories). */
  categoryColumn: number;
  /** The numeric columns drawn as bars, one series each. */
  seriesColumns: readonly number[];
}

export interface ReportTable {
  /** Stable name, used in export addresses and file names: lowercase letters and hyphens. */
  id: string;
  title: string;
  columns: readonly ReportColumn[];
  rows: readonly (readonly ReportCell[])[];
  /** A sentence said under the table (records counted apart, the rule for percentiles). */
  note?: string;
  chart?: ReportChartSpec;
}

/** The chart's bars from the table's own cells: the chart can never show another number. */
export function tableChartData(table: ReportTable): {
  categories: string[];
  series: { name: string; values: (number | null)[] }[];
} | null {
  const chart = table.chart;
  if (!chart) return null;
  return {
    categories: table.rows.map((row) => String(row[chart.categoryColumn] ?? "")),
    series: chart.seriesColumns.map((column) => ({
      name: table.columns[column]?.label ?? "",
      values: table.rows.map((row) => {
        const value = row[column];
        return typeof value === "number" ? value : null;
      }),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The figures as tables

const PERCENTILE_NOTE =
  "Durations in whole days; percentiles by the nearest-rank rule (of n sorted durations, the p-th is the one at rank ceil(p/100 x n)).";

function distributionCells(d: Distribution): ReportCell[] {
  return [d.median, d.p75, d.p90, d.count];
}

const DISTRIBUTION_COLUMNS: ReportColumn[] = [
  { label: "Median (days)", numeric: true },
  { label: "75th percentile (days)", numeric: true },
  { label: "90th percentile (days)", numeric: true },
];

const EARLIER_COLUMNS: ReportColumn[] = [
  { label: "Median a year earlier (days)", numeric: true },
  { label: "Count a year earlier", numeric: true },
];

function monthName(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return new Intl.DateTimeFormat("en-GB", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);
}

/** The unit-free label of a table's stage row; shared by the page's headline and the PDF's. */
export const WHOLE_SPAN_LABEL = "Whole span: first upload to released outcome";

/** The figures as the tables the page shows, the exports hold and the PDF prints, in that order. */
export function reportTables(
  figures: ReportFigures,
  examiners: readonly ExaminerFigure[] = figures.current.examiners.items,
): ReportTable[] {
  const current = figures.current;
  const previous = figures.previous;
  const compare = previous !== null;
  const earlier = (find: (p: PeriodFigures) => Distribution | undefined): ReportCell[] => {
    if (!previous) return [];
    const d = find(previous);
    return [d?.median ?? null, d?.count ?? null];
  };

  const stageUnknown = current.stages.reduce((sum, s) => sum + s.unknownHistory, 0);
  const stages: ReportTable = {
    id: "stage-times",
    title: "Time in each stage",
    columns: [
      { label: "Stage", numeric: false },
      ...DISTRIBUTION_COLUMNS,
      { label: "Records", numeric: true },
      { label: "Unknown history", numeric: true },
      ...(compare ? EARLIER_COLUMNS : []),
    ],
    rows: [
      ...current.stages.map((s) => [
        REPORT_STAGE_LABELS[s.stage],
        ...distributionCells(s.days),
        s.unknownHistory,
        ...earlier((p) => p.stages.find((x) => x.stage === s.stage)?.days),
      ]),
      [
        WHOLE_SPAN_LABEL,
        ...distributionCells(current.total.days),
        current.total.unknownHistory,
        ...earlier((p) => p.total.days),
      ],
    ],
    note: `${PERCENTILE_NOTE} Records whose history is unknown (imported, or written before the timeline) are counted apart, never as zero days: ${stageUnknown + current.total.unknownHistory} in this period.`,
    chart: { unit: "days", categoryColumn: 0, seriesColumns: compare ? [1, 6] : [1, 2, 3] },
  };

  const turnaround: ReportTable = {
    id: "examiner-turnaround",
    title: "Examiner turnaround by kind",
    columns: [
      { label: "Examiner and step", numeric: false },
      ...DISTRIBUTION_COLUMNS,
      { label: "Examinations", numeric: true },
      ...(compare ? EARLIER_COLUMNS : []),
    ],
    rows: current.turnaround.flatMap((k) =>
      TURNAROUND_LEGS.map((leg) => [
        `${EXAMINER_KIND_LABELS[k.kind]}: ${TURNAROUND_LEG_LABELS[leg]}`,
        ...distributionCells(k.legs[leg]),
        ...earlier((p) => p.turnaround.find((x) => x.kind === k.kind)?.legs[leg]),
      ]),
    ),
    note: "By the examination's own dates: the link sent, the thesis downloaded, the report received; each step counted in the period it ended.",
    chart: { unit: "days", categoryColumn: 0, seriesColumns: compare ? [1, 5] : [1, 2, 3] },
  };

  const perExaminer: ReportTable = {
    id: "examiners",
    title: "Turnaround per examiner",
    columns: [
      { label: "Examiner", numeric: false },
      { label: "Institution", numeric: false },
      { label: "Kind", numeric: false },
      { label: "Reports received", numeric: true },
      { label: "Median link to report (days)", numeric: true },
      { label: "90th percentile (days)", numeric: true },
      { label: "Links out now", numeric: true },
      { label: "Late now", numeric: true },
    ],
    rows: examiners.map((e) => [
      e.name,
      e.institution,
      EXAMINER_KIND_LABELS[e.kind],
      e.examined,
      e.linkToReport.median,
      e.linkToReport.p90,
      e.inProgress,
      e.lateNow,
    ]),
    note: `${current.examiners.total} examiners with a report received in the period or a link out now.`,
  };

  const outcomeCount = (p: PeriodFigures, decision: string) =>
    p.outcomes.counts.find((c) => c.decision === decision)?.count ?? 0;
  const outcomes: ReportTable = {
    id: "outcomes",
    title: "Outcomes released",
    columns: [
      { label: "Outcome", numeric: false },
      { label: "Theses", numeric: true },
      ...(compare ? [{ label: "Theses a year earlier", numeric: true }] : []),
    ],
    rows: [
      ...RECOMMENDATIONS.map((decision) => [
        RECOMMENDATION_LABELS[decision],
        outcomeCount(current, decision),
        ...(previous ? [outcomeCount(previous, decision)] : []),
      ]),
    ],
    note: `${current.outcomes.total} outcomes released in the period.`,
    chart: { unit: "theses", categoryColumn: 0, seriesColumns: compare ? [1, 2] : [1] },
  };

  const corrections: ReportTable = {
    id: "corrections",
    title: "Corrections: released outcome to approval",
    columns: [
      { label: "Period", numeric: false },
      ...DISTRIBUTION_COLUMNS,
      { label: "Approved", numeric: true },
      { label: "Not approved yet", numeric: true },
    ],
    rows: [
      [
        "This period",
        ...distributionCells(current.outcomes.correctionsToApproval),
        current.outcomes.correctionsPending,
      ],
      ...(previous
        ? [
            [
              "A year earlier",
              ...distributionCells(previous.outcomes.correctionsToApproval),
              previous.outcomes.correctionsPending,
            ],
          ]
        : []),
    ],
    note: "Minor or major corrections, counted in the period they were approved; those not approved yet are counted today.",
  };

  const months = [...new Set(current.throughput.map((r) => r.month))];
  const cell = (month: string, stage: ReportStage, key: "entered" | "left") =>
    current.throughput.find((r) => r.month === month && r.stage === stage)?.[key] ?? 0;
  const flow: ReportTable = {
    id: "throughput-summary",
    title: "Theses in and out per month",
    columns: [
      { label: "Month", numeric: false },
      { label: `Entered ${REPORT_STAGE_LABELS.awaiting_review}`, numeric: true },
      { label: `Left ${REPORT_STAGE_LABELS.sent_to_examiners}`, numeric: true },
      { label: `Left ${REPORT_STAGE_LABELS.corrections}`, numeric: true },
    ],
    rows: months.map((month) => [
      monthName(month),
      cell(month, "awaiting_review", "entered"),
      cell(month, "sent_to_examiners", "left"),
      cell(month, "corrections", "left"),
    ]),
    note: "Every entry counts, also after a move back. The full table per stage follows.",
    chart: { unit: "theses", categoryColumn: 0, seriesColumns: [1, 2] },
  };

  const throughput: ReportTable = {
    id: "throughput",
    title: "Throughput: entering and leaving each stage per month",
    columns: [
      { label: "Month", numeric: false },
      { label: "Stage", numeric: false },
      { label: "Entered", numeric: true },
      { label: "Left", numeric: true },
    ],
    rows: current.throughput.map((r) => [
      monthName(r.month),
      REPORT_STAGE_LABELS[r.stage],
      r.entered,
      r.left,
    ]),
  };

  return [stages, turnaround, perExaminer, outcomes, corrections, flow, throughput];
}

/** The examinations late today, as a table (the PDF's last section, and an export). */
export function lateTable(late: LateReports): ReportTable {
  return {
    id: "late-reports",
    title: "Examiner reports late today",
    columns: [
      { label: "Student", numeric: false },
      { label: "Index number", numeric: false },
      { label: "Programme", numeric: false },
      { label: "Examiner", numeric: false },
      { label: "Due on", numeric: false },
      { label: "Days late", numeric: true },
      { label: "Known by", numeric: false },
    ],
    rows: late.items.map((r) => [
      r.studentName,
      r.indexNumber,
      r.programme,
      `${EXAMINER_KIND_LABELS[r.role]}${r.examinerName ? `: ${r.examinerName}` : ""}`,
      r.dueOn,
      r.daysLate,
      LATE_KNOWN_BY_LABELS[r.knownBy],
    ]),
    note:
      late.total > late.items.length
        ? `${late.total} reports are late; the ${late.items.length} most days late are listed.`
        : `${late.total} reports are late. A state typed by hand is due ${late.overdueDays} days after it was typed.`,
  };
}

export interface HeadlineFigure {
  label: string;
  value: string;
}

const days = (value: number | null) => (value === null ? "no data" : `${value} days`);

/** The few figures on the PDF's cover and at the top of the page. */
export function headlineFigures(figures: ReportFigures): HeadlineFigure[] {
  const current = figures.current;
  const link = (kind: "internal" | "external") =>
    current.turnaround.find((k) => k.kind === kind)?.legs.link_to_report.median ?? null;
  return [
    { label: "Median, first upload to released outcome", value: days(current.total.days.median) },
    { label: "Outcomes released", value: String(current.outcomes.total) },
    { label: "Median examiner turnaround, internal", value: days(link("internal")) },
    { label: "Median examiner turnaround, external", value: days(link("external")) },
    { label: "Examiner reports late today", value: String(figures.late.total) },
    {
      label: "Durations with an unknown start (counted apart)",
      value: String(
        current.total.unknownHistory +
          current.stages.reduce((sum, stage) => sum + stage.unknownHistory, 0),
      ),
    },
  ];
}

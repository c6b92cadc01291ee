import type { Distribution, PeriodFigures, ReportFigures } from "../../../../common/reports.js";
import { REPORT_STAGES } from "../../../../common/reports.js";
import { RECOMMENDATIONS } from "../../../../common/examiners-constants.js";

/** A GET /api/admin/reports answer for component tests, shaped by common/reports.ts. */
const dist = (median: number, count: number): Distribution => ({
  count,
  median,
  p75: median + 5,
  p90: median + 11,
});

export function makePeriod(from: string, to: string, shift = 0): PeriodFigures {
  return {
    from,
    to,
    stages: REPORT_STAGES.map((stage, index) => ({
      stage,
      days: dist(10 * (index + 1) + shift, 20 + index),
      unknownHistory: index === 0 ? 3 : 0,
    })),
    total: { days: dist(143 + shift, 57), unknownHistory: 4 },
    turnaround: (["internal", "external"] as const).map((kind, index) => ({
      kind,
      legs: {
        link_to_download: dist(2 + index, 30),
        download_to_report: dist(30 + index * 9, 28),
        link_to_report: dist(33 + index * 10 + shift, 28),
      },
    })),
    examiners: {
      items: [
        {
          examinerId: 5,
          name: "Grace Owusu",
          institution: "University of Ghana",
          kind: "external",
          examined: 4,
          linkToReport: dist(47, 4),
          inProgress: 1,
          lateNow: 1,
        },
      ],
      total: 60,
      page: 1,
      pageSize: 25,
    },
    outcomes: {
      counts: RECOMMENDATIONS.map((decision, index) => ({ decision, count: 12 - 2 * index })),
      total: 40,
      correctionsToApproval: dist(21, 14),
      correctionsPending: 5,
    },
    throughput: [
      { month: from, stage: "awaiting_review", entered: 9, left: 4 },
      { month: from, stage: "sent_to_examiners", entered: 3, left: 6 },
    ],
  };
}

export function makeFigures(overrides: Partial<ReportFigures> = {}): ReportFigures {
  return {
    generatedAt: "2026-11-27T05:00:00.000Z",
    filters: { programme: null, cohort: null },
    current: makePeriod("2025-12", "2026-11"),
    previous: null,
    late: {
      items: [
        {
          submissionId: 31,
          studentName: "Efua Sarpong",
          indexNumber: "PG5550002",
          programme: "MPhil Economics",
          role: "external",
          examinerName: "Grace Owusu",
          state: "awaiting",
          knownBy: "link_due_date",
          dueOn: "2026-10-01",
          since: "2026-08-01T09:00:00.000Z",
          daysLate: 57,
        },
      ],
      total: 1,
      overdueDays: 60,
    },
    ...overrides,
  };
}

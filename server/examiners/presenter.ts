import {
  RECOMMENDATION_LABELS,
  type CorrectionState,
  type Examination,
  type ExaminerRecord,
  type Outcome,
  type StudentExamination,
} from "../../common/examiners.js";
import type {
  ListedExaminer,
  StoredExamination,
  StoredOutcome,
  StoredReminder,
} from "./repository.js";

/** The one place that shapes examiners, examinations and the outcome for the API. */

/** Where an administrator reads an examiner's report (GET, inline PDF). */
export function examinerReportHref(examinationId: number): string {
  return `/api/admin/examinations/${examinationId}/report`;
}

export function presentExaminer(examiner: ListedExaminer): ExaminerRecord {
  return {
    id: examiner.id,
    name: examiner.name,
    email: examiner.email,
    institution: examiner.institution,
    kind: examiner.kind,
    active: examiner.active,
    openExaminations: examiner.openExaminations,
    createdAt: examiner.createdAt,
    updatedAt: examiner.updatedAt,
  };
}

export function presentExamination(
  examination: StoredExamination,
  reminders: StoredReminder[],
): Examination {
  const { report } = examination;
  return {
    id: examination.id,
    role: examination.role,
    state: examination.state,
    examiner: {
      id: examination.examiner.id,
      name: examination.examiner.name,
      email: examination.examiner.email,
      institution: examination.examiner.institution,
    },
    nominatedAt: examination.nominatedAt,
    sentAt: examination.sentAt,
    dueOn: examination.dueOn,
    linkExpiresAt: examination.linkExpiresAt,
    linkRevokedAt: examination.linkRevokedAt,
    receivedAt: examination.receivedAt,
    lastOpenedAt: examination.lastOpenedAt,
    report: report
      ? {
          fileName: report.fileName,
          sizeBytes: report.sizeBytes,
          pageCount: report.pageCount,
          hasJavaScript: report.hasJavaScript,
          hasEmbeddedFiles: report.hasEmbeddedFiles,
          uploadedAt: report.uploadedAt,
          recommendation: report.recommendation,
          note: report.note,
          href: examinerReportHref(examination.id),
        }
      : null,
    reminders: reminders
      .filter((r) => r.examinationId === examination.id)
      .map((r) => ({ sentAt: r.sentAt, offsetDays: r.offsetDays, manual: r.offsetDays === null })),
    replacedAt: examination.replacedAt,
  };
}

export function presentOutcome(outcome: StoredOutcome, state: CorrectionState): Outcome {
  return {
    decision: outcome.decision,
    label: RECOMMENDATION_LABELS[outcome.decision],
    corrections: outcome.corrections,
    releasedAt: outcome.releasedAt,
    correctionState: state,
    correctionsApprovedAt: outcome.correctionsApprovedAt,
  };
}

const dayOf = (iso: string | null): string | null => (iso === null ? null : iso.slice(0, 10));

/**
 * What the student sees: per role, the day the thesis went out and the day the report came in;
 * the released outcome. Built from dates and the school's own words only: no examiner, no note,
 * no recommendation of a single examiner, no report.
 */
export function presentStudentExamination(
  current: StoredExamination[],
  outcome: StoredOutcome | null,
  state: CorrectionState,
): StudentExamination {
  const role = (r: "internal" | "external") => {
    const examination = current.find((e) => e.role === r);
    return {
      sentOn: dayOf(examination?.sentAt ?? null),
      reportReceivedOn: dayOf(examination?.report?.uploadedAt ?? null),
    };
  };
  return {
    internal: role("internal"),
    external: role("external"),
    outcome: outcome
      ? {
          decision: outcome.decision,
          label: RECOMMENDATION_LABELS[outcome.decision],
          corrections: outcome.corrections,
          releasedOn: outcome.releasedAt.slice(0, 10),
          correctionState: state,
          correctionsApprovedOn: dayOf(outcome.correctionsApprovedAt),
        }
      : null,
  };
}

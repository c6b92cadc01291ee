import type { SubmissionStatusResponse } from "../../../common/api.js";
import {
  EXAMINER_STATE_LABELS,
  SGS_STAGE_LABELS,
  examinerStateFromLabel,
  type ExaminerState,
} from "../../../common/workflow.js";
import { formatDate } from "../../lib/format.js";
import { STAGE_GUIDE, type StageId } from "../../lib/stage-guide.js";

/**
 * Turns the status response (the prototype's eight status lines) and the dated milestones into
 * what the student's status page draws: a vertical stepper with one current step, the two
 * examiners side by side, and one plain sentence saying where the thesis is. Pure, so every
 * combination of lines can be tested without rendering.
 */

export type SubmissionStatus = SubmissionStatusResponse["data"];
export type StepState = "done" | "current" | "waiting";
export type ExaminerKind = "internal" | "external";

export interface Milestone {
  at: string;
  label: string;
}

export interface TrackMilestone {
  label: string;
  state: StepState;
  date: string | null;
}

export interface ExaminerTrack {
  examiner: ExaminerKind;
  title: string;
  state: StepState;
  /** The status line's own value ("Awaiting", "Received", "Report Submitted", "Pending"). */
  value: string;
  /** Sent, received, report submitted. */
  milestones: TrackMilestone[];
}

export interface ProgressStep {
  id: StageId;
  title: string;
  state: StepState;
  /** One line under the title: what is happening at this step for this student. */
  detail: string;
  /** ISO time this step was reached, when the timeline knows it. */
  date: string | null;
  /** Only the examiners' step: internal and external, side by side. */
  tracks?: ExaminerTrack[];
}

export interface Progress {
  steps: ProgressStep[];
  /** One sentence in plain words: where the thesis is now. */
  summary: string;
  /** What happens next, and whether the student needs to do anything. */
  next: string;
  /** 1-based position of the current step, and the number of steps. */
  position: { current: number; total: number };
}

const EXAMINER_TITLES: Record<ExaminerKind, string> = {
  internal: "Internal examiner",
  external: "External examiner",
};

const titleOf = (id: StageId): string => STAGE_GUIDE.find((stage) => stage.id === id)?.title ?? id;

/**
 * The milestone labels the server writes (common/workflow.ts describeWorkflowMove): a stage's
 * label, or "Internal examiner: Received". Reversals read "Returned to ..." and match nothing,
 * so a step that was undone and redone shows the date it was last reached.
 */
function dateOf(timeline: readonly Milestone[], label: string): string | null {
  const wanted = label.trim().toLowerCase();
  let latest: { at: string; time: number } | null = null;
  for (const item of timeline) {
    if (item.label.trim().toLowerCase() !== wanted) continue;
    const time = Date.parse(item.at);
    if (Number.isNaN(time)) continue;
    if (!latest || time > latest.time) latest = { at: item.at, time };
  }
  return latest?.at ?? null;
}

function examinerTrack(
  examiner: ExaminerKind,
  sentLine: SubmissionStatus["status"]["sentToInternal"],
  value: string,
  timeline: readonly Milestone[],
): ExaminerTrack {
  const state: ExaminerState | null = examinerStateFromLabel(value);
  const milestoneDate = (s: ExaminerState) =>
    dateOf(timeline, `${EXAMINER_TITLES[examiner]}: ${EXAMINER_STATE_LABELS[s]}`);
  const sent = sentLine === "Completed" || state === "received" || state === "report_submitted";
  const received = state === "received" || state === "report_submitted";
  const reported = state === "report_submitted";
  const reached = [sent, received, reported];
  const firstOpen = reached.indexOf(false);
  const milestoneState = (i: number): StepState =>
    reached[i] ? "done" : sent && i === firstOpen ? "current" : "waiting";
  return {
    examiner,
    title: EXAMINER_TITLES[examiner],
    state: reported ? "done" : sent ? "current" : "waiting",
    value,
    milestones: [
      {
        label: "Thesis sent",
        state: milestoneState(0),
        date: sent ? milestoneDate("awaiting") : null,
      },
      {
        label: "Thesis received",
        state: milestoneState(1),
        date: received ? milestoneDate("received") : null,
      },
      {
        label: "Report submitted",
        state: milestoneState(2),
        date: reported ? milestoneDate("report_submitted") : null,
      },
    ],
  };
}

/** When the thesis went to this examiner: the sent date, else the first later date known. */
function sinceOf(track: ExaminerTrack): string | null {
  return track.milestones.find((m) => m.date !== null)?.date ?? null;
}

const since = (date: string | null) => (date ? ` since ${formatDate(date)}` : "");
const who = (track: ExaminerTrack) => track.title.toLowerCase();

function examinersSentence(tracks: ExaminerTrack[], examinersAt: string | null): string {
  const withThem = tracks.filter((t) => t.state === "current");
  const reported = tracks.filter((t) => t.state === "done");
  const notSent = tracks.filter((t) => t.state === "waiting");
  const [first] = withThem;
  if (withThem.length === 2) {
    const dates = withThem
      .map(sinceOf)
      .filter((d): d is string => d !== null)
      .sort();
    return `Your thesis is with the internal and external examiners${since(dates[0] ?? examinersAt)}.`;
  }
  if (first) {
    const lead = reported[0]
      ? `The ${who(reported[0])}'s report is in; your thesis is still with the ${who(first)}`
      : `Your thesis is with the ${who(first)}`;
    const rest = notSent[0] ? `; it has not yet gone to the ${who(notSent[0])}` : "";
    return `${lead}${since(sinceOf(first))}${rest}.`;
  }
  if (reported[0] && notSent[0]) {
    return `The ${who(reported[0])}'s report is in; your thesis has not yet gone to the ${who(notSent[0])}.`;
  }
  return "Your examiners have been approved; the School of Graduate Studies is sending your thesis to them.";
}

export function toProgress(
  status: SubmissionStatus,
  timeline: readonly Milestone[] = [],
): Progress {
  const s = status.status;
  const tracks = [
    examinerTrack("internal", s.sentToInternal, s.internalReport, timeline),
    examinerTrack("external", s.sentToExternal, s.externalReport, timeline),
  ];
  const bothReported = tracks.every((t) => t.state === "done");

  const reviewAt = dateOf(timeline, SGS_STAGE_LABELS.awaiting_review);
  const departmentAt = dateOf(timeline, SGS_STAGE_LABELS.sent_to_department);
  const nominationsAt = dateOf(timeline, SGS_STAGE_LABELS.nominations_ready);
  const examinersAt = dateOf(timeline, SGS_STAGE_LABELS.sent_to_examiners);
  const reportDates = tracks
    .map((t) => t.milestones[2]?.date ?? null)
    .filter((d): d is string => d !== null)
    .sort();
  const resultAt = bothReported ? (reportDates[reportDates.length - 1] ?? null) : null;

  // Which steps are finished, from the status lines alone; the first unfinished one is current.
  const finished: Record<StageId, boolean> = {
    review: s.awaitingReview === "Completed",
    department: s.sentToDepartment === "Completed",
    nominations: s.nominationsReady === "Completed",
    examiners: bothReported,
    // The last step has no "finished" line: the School's decision is told in a letter.
    result: false,
  };
  const order: StageId[] = ["review", "department", "nominations", "examiners", "result"];
  const currentId = order.find((id) => !finished[id]) ?? "result";
  const stateOf = (id: StageId): StepState =>
    finished[id] ? "done" : id === currentId ? "current" : "waiting";

  const reviewDetail =
    s.awaitingReview === "Completed"
      ? "Your documents were checked and accepted."
      : s.awaitingReview === "In progress"
        ? "The School of Graduate Studies is checking your thesis and documents."
        : "Waiting for all your documents to be handed in.";
  const thesisStatus = s.thesisStatus?.trim() ? s.thesisStatus.trim() : null;

  const steps: ProgressStep[] = [
    {
      id: "review",
      title: titleOf("review"),
      state: stateOf("review"),
      detail: reviewDetail,
      date: reviewAt,
    },
    {
      id: "department",
      title: titleOf("department"),
      state: stateOf("department"),
      detail: finished.department
        ? "Your thesis went to your department."
        : "Your thesis goes to your department after the review.",
      date: departmentAt,
    },
    {
      id: "nominations",
      title: titleOf("nominations"),
      state: stateOf("nominations"),
      detail: finished.nominations
        ? "Your examiners were nominated and approved."
        : currentId === "nominations"
          ? "Your department is nominating your examiners."
          : "Your department nominates an internal and an external examiner.",
      date: nominationsAt,
    },
    {
      id: "examiners",
      title: titleOf("examiners"),
      state: stateOf("examiners"),
      detail: bothReported
        ? "Both examiners have submitted their reports."
        : "The internal and external examiners read your thesis and each write a report.",
      date: examinersAt,
      tracks,
    },
    {
      id: "result",
      title: titleOf("result"),
      state: stateOf("result"),
      detail: bothReported
        ? `The School is considering the reports${thesisStatus ? ` (thesis status: ${thesisStatus})` : ""}.`
        : "Once both reports are in, the School tells you the outcome.",
      date: resultAt,
    },
  ];

  let summary: string;
  let next: string;
  switch (currentId) {
    case "review":
      if (s.awaitingReview === "In progress") {
        summary = reviewAt
          ? `The School of Graduate Studies has been reviewing your thesis and documents${since(reviewAt)}.`
          : "The School of Graduate Studies is reviewing your thesis and documents.";
        next =
          "You do not need to do anything now. If a document is missing, the School will tell you.";
      } else {
        summary =
          "Your submission is on file, but the review starts only when all your documents are in.";
        next =
          "Check that your thesis, Turnitin report, supervisor form, statement of result and financial clearance have been handed in. If you are unsure, contact us.";
      }
      break;
    case "department":
      summary = "Your documents have been reviewed; your thesis goes to your department next.";
      next = "You do not need to do anything now.";
      break;
    case "nominations":
      summary = `Your thesis is with your department${since(departmentAt)}; the department is nominating your examiners.`;
      next =
        "You do not need to do anything now. Your supervisor or department can tell you more about nominations.";
      break;
    case "examiners":
      summary = examinersSentence(tracks, examinersAt);
      next =
        "You do not need to do anything now. Examination usually takes several weeks; please do not contact your examiners directly.";
      break;
    case "result":
      summary = `Both examiners' reports are in${resultAt ? ` (the last arrived on ${formatDate(resultAt)})` : ""}; the School of Graduate Studies will tell you the outcome.`;
      next = "Watch your email and your messages here for the School's letter.";
      break;
  }

  return {
    steps,
    summary,
    next,
    position: { current: order.indexOf(currentId) + 1, total: order.length },
  };
}

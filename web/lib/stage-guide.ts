/**
 * What each stage of a submission means and whom to contact about it, in plain words. The About
 * page, the FAQ and the student's status page all read this list, so they never disagree.
 * The ids match the steps of web/features/student/progress.ts.
 */
export type StageId = "review" | "department" | "nominations" | "examiners" | "result";

export interface StageGuide {
  id: StageId;
  title: string;
  meaning: string;
  contact: string;
}

export const STAGE_GUIDE: readonly StageGuide[] = [
  {
    id: "review",
    title: "Awaiting Review",
    meaning:
      "The School of Graduate Studies checks that your thesis and the four accompanying documents (Turnitin report, supervisor form, statement of result, financial clearance) are complete.",
    contact:
      "If a document is missing, the School will tell you. Questions: the School of Graduate Studies.",
  },
  {
    id: "department",
    title: "Sent to Department",
    meaning: "Your thesis has gone to your department, which proposes the examiners for it.",
    contact:
      "Questions about nominations: your supervisor or your department's graduate coordinator.",
  },
  {
    id: "nominations",
    title: "Nominations Ready",
    meaning:
      "Your department's nominations of an internal and an external examiner have reached the School, which approves them and prepares your thesis for dispatch.",
    contact: "Questions: the School of Graduate Studies.",
  },
  {
    id: "examiners",
    title: "With the examiners",
    meaning:
      "Your thesis is sent to the internal and the external examiner at the same time. Each one first receives it, then reads it and writes a report. The two run side by side and may finish at different times.",
    contact:
      "Never contact the examiners yourself. Questions about timing: the School of Graduate Studies.",
  },
  {
    id: "result",
    title: "Reports and result",
    meaning:
      "Both examiners' reports are with the School, which considers them and tells you the outcome and what happens next, for example corrections or the final submission.",
    contact: "The School of Graduate Studies will write to you; you can also contact us.",
  },
];

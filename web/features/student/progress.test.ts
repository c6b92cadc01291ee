import { describe, expect, it } from "vitest";
import { toProgress, type SubmissionStatus } from "./progress.js";

type Lines = SubmissionStatus["status"];

function status(lines: Partial<Lines> = {}): SubmissionStatus {
  return {
    studentName: "Ama Mensah",
    indexNumber: "PG1234567",
    programme: "MPhil Economics",
    contact: "0240000000",
    status: {
      awaitingReview: "Pending",
      sentToDepartment: "Pending",
      nominationsReady: "Pending",
      sentToInternal: "Pending",
      sentToExternal: "Pending",
      internalReport: "Pending",
      externalReport: "Pending",
      thesisStatus: null,
      ...lines,
    },
    documents: [],
  };
}

const throughNominations: Partial<Lines> = {
  awaitingReview: "Completed",
  sentToDepartment: "Completed",
  nominationsReady: "Completed",
};

const states = (p: ReturnType<typeof toProgress>) =>
  p.steps.map((step) => `${step.id}:${step.state}`);

describe("toProgress", () => {
  it("makes the review the current step while documents are still missing, and says what to check", () => {
    const p = toProgress(status());
    expect(states(p)).toEqual([
      "review:current",
      "department:waiting",
      "nominations:waiting",
      "examiners:waiting",
      "result:waiting",
    ]);
    expect(p.summary).toMatch(/review starts only when all your documents are in/);
    expect(p.next).toMatch(/Turnitin report/);
    expect(p.position).toEqual({ current: 1, total: 5 });
  });

  it("says the School is reviewing, with the date, while the review is in progress", () => {
    const p = toProgress(status({ awaitingReview: "In progress" }), [
      { at: "2025-03-03T10:00:00.000Z", label: "Awaiting Review" },
    ]);
    expect(p.steps[0]).toMatchObject({ state: "current", date: "2025-03-03T10:00:00.000Z" });
    expect(p.summary).toBe(
      "The School of Graduate Studies has been reviewing your thesis and documents since 3 March 2025.",
    );
  });

  it("puts the thesis with the department, nominating examiners, once it was sent there", () => {
    const p = toProgress(status({ awaitingReview: "Completed", sentToDepartment: "Completed" }), [
      { at: "2025-03-10T09:00:00.000Z", label: "Sent to Department" },
    ]);
    expect(states(p).slice(0, 3)).toEqual([
      "review:done",
      "department:done",
      "nominations:current",
    ]);
    expect(p.summary).toBe(
      "Your thesis is with your department since 10 March 2025; the department is nominating your examiners.",
    );
    expect(p.position.current).toBe(3);
  });

  it("runs both examiners side by side and names both while both are examining", () => {
    const p = toProgress(
      status({
        ...throughNominations,
        sentToInternal: "Completed",
        sentToExternal: "Completed",
        internalReport: "Received",
        externalReport: "Awaiting",
      }),
      [
        { at: "2025-03-12T08:00:00.000Z", label: "Internal examiner: Awaiting" },
        { at: "2025-03-14T08:00:00.000Z", label: "External examiner: Awaiting" },
        { at: "2025-03-20T08:00:00.000Z", label: "Internal examiner: Received" },
      ],
    );
    const examiners = p.steps.find((step) => step.id === "examiners");
    expect(examiners?.state).toBe("current");
    expect(examiners?.tracks?.map((t) => [t.examiner, t.state, t.value])).toEqual([
      ["internal", "current", "Received"],
      ["external", "current", "Awaiting"],
    ]);
    expect(examiners?.tracks?.[0]?.milestones.map((m) => m.state)).toEqual([
      "done",
      "done",
      "current",
    ]);
    expect(examiners?.tracks?.[1]?.milestones.map((m) => m.state)).toEqual([
      "done",
      "current",
      "waiting",
    ]);
    expect(examiners?.tracks?.[0]?.milestones[1]?.date).toBe("2025-03-20T08:00:00.000Z");
    expect(p.summary).toBe(
      "Your thesis is with the internal and external examiners since 12 March 2025.",
    );
  });

  it("says which report is in and which examiner still has the thesis", () => {
    const p = toProgress(
      status({
        ...throughNominations,
        sentToInternal: "Completed",
        sentToExternal: "Completed",
        internalReport: "Report Submitted",
        externalReport: "Received",
      }),
      [{ at: "2025-03-14T08:00:00.000Z", label: "External examiner: Awaiting" }],
    );
    expect(p.summary).toBe(
      "The internal examiner's report is in; your thesis is still with the external examiner since 14 March 2025.",
    );
    expect(p.steps.find((s) => s.id === "examiners")?.state).toBe("current");
  });

  it("says the School is sending the thesis when nominations are ready but no examiner has it", () => {
    const p = toProgress(status(throughNominations));
    expect(states(p)[3]).toBe("examiners:current");
    expect(p.steps[3]?.tracks?.every((t) => t.state === "waiting")).toBe(true);
    expect(p.summary).toMatch(/sending your thesis to them\.$/);
  });

  it("moves to the result once both reports are in, with the later report's date and the thesis status", () => {
    const p = toProgress(
      status({
        ...throughNominations,
        sentToInternal: "Completed",
        sentToExternal: "Completed",
        internalReport: "Report Submitted",
        externalReport: "Report Submitted",
        thesisStatus: "Initial Submission",
      }),
      [
        { at: "2025-04-01T08:00:00.000Z", label: "Internal examiner: Report Submitted" },
        { at: "2025-05-02T08:00:00.000Z", label: "External examiner: Report Submitted" },
      ],
    );
    expect(states(p).slice(3)).toEqual(["examiners:done", "result:current"]);
    expect(p.steps[4]?.date).toBe("2025-05-02T08:00:00.000Z");
    expect(p.steps[4]?.detail).toContain("Initial Submission");
    expect(p.summary).toBe(
      "Both examiners' reports are in (the last arrived on 2 May 2025); the School of Graduate Studies will tell you the outcome.",
    );
  });

  it("shows the date a stage was last reached when it was undone and redone", () => {
    const p = toProgress(status({ awaitingReview: "Completed", sentToDepartment: "Completed" }), [
      { at: "2025-03-01T08:00:00.000Z", label: "Sent to Department" },
      { at: "2025-03-05T08:00:00.000Z", label: "Returned to Awaiting Review" },
      { at: "2025-03-09T08:00:00.000Z", label: "Sent to Department" },
    ]);
    expect(p.steps[1]?.date).toBe("2025-03-09T08:00:00.000Z");
  });

  it("leaves dates out, not the steps, when there is no timeline", () => {
    const p = toProgress(
      status({ ...throughNominations, sentToInternal: "Completed", internalReport: "Awaiting" }),
    );
    expect(p.steps.every((step) => step.date === null)).toBe(true);
    expect(p.summary).toBe(
      "Your thesis is with the internal examiner; it has not yet gone to the external examiner.",
    );
  });
});

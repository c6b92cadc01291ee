import { describe, expect, it } from "vitest";
import {
  classifyExaminerMove,
  classifySgsMove,
  classifyWorkflowMove,
  describeWorkflowMove,
  examinerStateFromLabel,
  sgsStageFromLabel,
} from "./workflow.js";

describe("workflow", () => {
  it("reads stage labels case-insensitively and rejects unknown ones", () => {
    expect(sgsStageFromLabel("sent to examiners")).toBe("sent_to_examiners");
    expect(sgsStageFromLabel("Sent to Department")).toBe("sent_to_department");
    expect(sgsStageFromLabel("Archived")).toBeNull();
    expect(examinerStateFromLabel("Report Submitted")).toBe("report_submitted");
  });

  it("calls one step forward 'next' and anything else a skip or a reversal", () => {
    expect(classifySgsMove(null, "awaiting_review")).toBe("next");
    expect(classifySgsMove("awaiting_review", "sent_to_department")).toBe("next");
    expect(classifySgsMove("awaiting_review", "sent_to_examiners")).toBe("skip");
    expect(classifySgsMove("sent_to_examiners", "sent_to_department")).toBe("reverse");
    expect(classifySgsMove("sent_to_department", null)).toBe("reverse");
    expect(classifySgsMove("nominations_ready", "nominations_ready")).toBe("unchanged");
    expect(classifyExaminerMove("awaiting", "received")).toBe("next");
    expect(classifyExaminerMove(null, "report_submitted")).toBe("skip");
  });

  it("classifies a workflow field's move by the field's own flow", () => {
    expect(classifyWorkflowMove("sgsStage", "sent_to_department", "nominations_ready")).toBe(
      "next",
    );
    expect(classifyWorkflowMove("internalExaminer", "awaiting", "report_submitted")).toBe("skip");
    expect(classifyWorkflowMove("externalExaminer", "received", "awaiting")).toBe("reverse");
  });

  it("describes moves in the plain words the student sees", () => {
    expect(describeWorkflowMove("sgsStage", "awaiting_review", "sent_to_department")).toBe(
      "Sent to Department",
    );
    expect(describeWorkflowMove("sgsStage", "sent_to_examiners", "sent_to_department")).toBe(
      "Returned to Sent to Department",
    );
    expect(describeWorkflowMove("sgsStage", "sent_to_department", null)).toBe("SGS stage cleared");
    expect(describeWorkflowMove("internalExaminer", "received", "report_submitted")).toBe(
      "Internal examiner: Report Submitted",
    );
    expect(describeWorkflowMove("externalExaminer", "received", "awaiting")).toBe(
      "External examiner: Awaiting (moved back)",
    );
  });
});

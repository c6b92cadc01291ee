import { describe, expect, it } from "vitest";
import {
  classifyExaminerMove,
  classifySgsMove,
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
});

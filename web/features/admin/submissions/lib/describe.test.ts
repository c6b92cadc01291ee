import { describe, expect, it } from "vitest";
import { describeEvent, eventKindLabel } from "./describe.js";

describe("history events in the administrator's words", () => {
  it("names the document, the file and the decision for uploads and reviews", () => {
    expect(
      describeEvent({
        field: "upload.turnitinReport",
        from: null,
        to: "similarity.pdf",
        kind: "upload",
      }),
    ).toBe("Turnitin report uploaded: similarity.pdf");
    expect(
      describeEvent({
        field: "review.thesis",
        from: "pending",
        to: "thesis-final.pdf",
        kind: "accept",
      }),
    ).toBe("Thesis accepted: thesis-final.pdf");
    expect(
      describeEvent({
        field: "review.supervisorForm",
        from: "accepted",
        to: "Sign the second page.",
        kind: "return",
      }),
    ).toBe("Supervisor form returned to the student: “Sign the second page.”");
    expect(eventKindLabel("accept")).toBe("Accepted");
    expect(eventKindLabel("return")).toBe("Returned");
  });

  it("labels the thesis title the student gives", () => {
    expect(
      describeEvent({ field: "thesisTitle", from: null, to: "Rainfall and maize", kind: "edit" }),
    ).toBe("Thesis title set to Rainfall and maize");
  });

  it("keeps describing the checklist and workflow as before", () => {
    expect(
      describeEvent({ field: "documents.thesis", from: null, to: "2025-03-05", kind: "edit" }),
    ).toBe("Thesis: received 5 March 2025");
  });
});

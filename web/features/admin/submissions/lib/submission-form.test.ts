import { describe, expect, it } from "vitest";
import { makeSubmission } from "../../test/harness.js";
import {
  diffChanges,
  hasUnsavedChanges,
  nextSgsStage,
  rebaseFormValues,
  toFormValues,
} from "./submission-form.js";

describe("diffChanges", () => {
  it("keeps only the fields that differ from the version being edited", () => {
    const base = makeSubmission({ contact: "0244000000", sgsStage: "awaiting_review" });
    expect(
      diffChanges(
        {
          studentName: base.studentName,
          contact: null,
          sgsStage: "sent_to_department",
          studentEmail: base.studentEmail,
        },
        base,
      ),
    ).toEqual({ contact: null, sgsStage: "sent_to_department" });
  });

  it("treats an email differing only in case as unchanged (the server stores lower case)", () => {
    const base = makeSubmission({ studentEmail: "ama@st.school.edu" });
    expect(diffChanges({ studentEmail: "Ama@St.School.edu" }, base)).toEqual({});
  });

  it("sends a document only when its state or date changed", () => {
    const base = makeSubmission();
    const changes = diffChanges(
      {
        documents: {
          thesis: { submitted: true, receivedOn: "2025-03-01" },
          supervisorForm: { submitted: true, receivedOn: "2025-04-01" },
        },
      },
      base,
    );
    expect(changes).toEqual({
      documents: { supervisorForm: { submitted: true, receivedOn: "2025-04-01" } },
    });
  });
});

describe("rebaseFormValues", () => {
  it("keeps what the administrator changed and takes everything else from the newer version", () => {
    const mine = makeSubmission({
      version: 2,
      thesisStatus: "Initial Submission",
      contact: "0244000000",
    });
    const theirs = makeSubmission({
      version: 3,
      thesisStatus: "Initial Submission",
      contact: "0200111222",
      sgsStage: "nominations_ready",
    });
    const values = { ...toFormValues(mine), thesisStatus: "Under Examination" };
    const rebased = rebaseFormValues(values, mine, theirs);
    expect(rebased.thesisStatus).toBe("Under Examination");
    expect(rebased.contact).toBe("0200111222");
    expect(rebased.sgsStage).toBe("nominations_ready");
    expect(hasUnsavedChanges(rebased, theirs)).toBe(true);
    expect(hasUnsavedChanges(toFormValues(theirs), theirs)).toBe(false);
  });
});

describe("nextSgsStage", () => {
  it("follows the flow and stops at the last stage", () => {
    expect(nextSgsStage(null)).toBe("awaiting_review");
    expect(nextSgsStage("nominations_ready")).toBe("sent_to_examiners");
    expect(nextSgsStage("sent_to_examiners")).toBeNull();
  });
});

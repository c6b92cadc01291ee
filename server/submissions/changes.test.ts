import { describe, expect, it } from "vitest";
import { emptyDocuments, type SubmissionFields } from "../../common/submission.js";
import { applyChanges, diffFields, eventsFor, outOfOrderMoves } from "./changes.js";
import { buildTimeline } from "./timeline.js";

const base = (): SubmissionFields => ({
  studentName: "Abena Mensah",
  indexNumber: "10234567",
  programme: "MPhil Economics",
  contact: null,
  studentEmail: null,
  documents: emptyDocuments(),
  sgsStage: "awaiting_review",
  internalExaminer: null,
  externalExaminer: null,
  thesisStatus: null,
  effectiveDate: null,
});

describe("applying and diffing changes", () => {
  it("leaves out fields untouched and clears fields sent as null", () => {
    const before = { ...base(), contact: "024", thesisStatus: "Initial Submission" };
    const after = applyChanges(before, { contact: null, programme: "MA English" });
    expect(after).toMatchObject({
      contact: null,
      programme: "MA English",
      thesisStatus: "Initial Submission",
    });
    expect(diffFields(before, after)).toEqual([
      { field: "programme", from: "MPhil Economics", to: "MA English" },
      { field: "contact", from: "024", to: null },
    ]);
  });

  it("keeps a document's date when it is marked submitted again without one", () => {
    const before = base();
    before.documents.thesis = { submitted: true, receivedOn: "2025-01-02" };
    const after = applyChanges(before, { documents: { thesis: { submitted: true } } });
    expect(after.documents.thesis).toEqual({ submitted: true, receivedOn: "2025-01-02" });
    expect(diffFields(before, after)).toEqual([]);
    const cleared = applyChanges(before, { documents: { thesis: { submitted: false } } });
    expect(diffFields(before, cleared)).toEqual([
      { field: "documents.thesis", from: "2025-01-02", to: null },
    ]);
  });

  it("finds the moves that skip or reverse, not the next step", () => {
    const before = base();
    const after = {
      ...before,
      sgsStage: "sent_to_department" as const,
      internalExaminer: "received" as const,
    };
    const changes = diffFields(before, after);
    expect(outOfOrderMoves(5, changes)).toEqual([
      { submissionId: 5, field: "internalExaminer", from: null, to: "received", kind: "skip" },
    ]);
    const events = eventsFor(5, changes, "edit", 9, "t", true);
    expect(events.map((e) => [e.field, e.kind, e.confirmedOutOfOrder])).toEqual([
      ["sgsStage", "next", false],
      ["internalExaminer", "skip", true],
    ]);
    expect(eventsFor(5, changes, "bulk", 9, "t", false).map((e) => e.kind)).toEqual([
      "bulk",
      "bulk",
    ]);
  });
});

describe("buildTimeline", () => {
  it("dates what a record arrived with from its creation and later moves from their events", () => {
    const fields = base();
    fields.documents.turnitinReport = { submitted: true, receivedOn: null };
    const submission = {
      ...fields,
      sgsStage: "sent_to_department" as const,
      id: 1,
      createdAt: "2025-02-01T08:00:00.000Z",
      updatedAt: "2025-02-03T08:00:00.000Z",
      version: 2,
      thesisTitle: null,
      thesisAbstract: null,
    };
    const items = buildTimeline(submission, [
      {
        at: "2025-02-03T08:00:00.000Z",
        field: "sgsStage",
        from: "awaiting_review",
        to: "sent_to_department",
      },
    ]);
    expect(items).toEqual([
      { at: "2025-02-01T08:00:00.000Z", label: "Submission recorded" },
      { at: "2025-02-01T08:00:00.000Z", label: "Turnitin report received" },
      { at: "2025-02-01T08:00:00.000Z", label: "Awaiting Review" },
      { at: "2025-02-03T08:00:00.000Z", label: "Sent to Department" },
    ]);
  });
});

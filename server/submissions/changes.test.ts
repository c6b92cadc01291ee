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
        kind: "next",
      },
    ]);
    expect(items).toEqual([
      { at: "2025-02-01T08:00:00.000Z", label: "Submission recorded" },
      { at: "2025-02-01T08:00:00.000Z", label: "Turnitin report received" },
      { at: "2025-02-01T08:00:00.000Z", label: "Awaiting Review" },
      { at: "2025-02-03T08:00:00.000Z", label: "Sent to Department" },
    ]);
  });

  it("tells the student of uploads and the school's decisions, one milestone each", () => {
    const submission = {
      ...base(),
      id: 1,
      createdAt: "2025-03-01T08:00:00.000Z",
      updatedAt: "2025-03-05T08:00:00.000Z",
      version: 3,
      thesisTitle: "Rainfall and maize yields",
      thesisAbstract: "We measure.",
    };
    const accepted = "2025-03-04T09:00:00.000Z";
    const returned = "2025-03-05T10:00:00.000Z";
    const items = buildTimeline(submission, [
      {
        at: "2025-03-02T08:00:00.000Z",
        field: "upload.thesis",
        from: null,
        to: "final.pdf",
        kind: "upload",
      },
      {
        at: "2025-03-03T08:00:00.000Z",
        field: "upload.turnitinReport",
        from: null,
        to: "t.pdf",
        kind: "upload",
      },
      // Accepting sets the item received; the acceptance's own milestone stands for both.
      { at: accepted, field: "documents.thesis", from: null, to: "2025-03-04", kind: "review" },
      { at: accepted, field: "review.thesis", from: "pending", to: "final.pdf", kind: "accept" },
      {
        at: returned,
        field: "review.turnitinReport",
        from: "pending",
        to: "Similarity report is cut off after page 2.",
        kind: "return",
      },
      // Returning the accepted thesis clears the item, again said by the return itself.
      {
        at: "2025-03-05T11:00:00.000Z",
        field: "documents.thesis",
        from: "2025-03-04",
        to: null,
        kind: "review",
      },
      {
        at: "2025-03-05T11:00:00.000Z",
        field: "review.thesis",
        from: "accepted",
        to: "Wrong file.",
        kind: "return",
      },
    ]);
    expect(items.map((i) => i.label)).toEqual([
      "Submission recorded",
      "Awaiting Review",
      "Thesis uploaded",
      "Turnitin report uploaded",
      "Thesis accepted",
      "Turnitin report returned: Similarity report is cut off after page 2.",
      "Thesis returned: Wrong file.",
    ]);
    expect(items[4]?.at).toBe(accepted);
  });

  it("keeps a checklist change made by hand, beside a review at another moment", () => {
    const submission = {
      ...base(),
      id: 1,
      createdAt: "2025-03-01T08:00:00.000Z",
      updatedAt: "2025-03-05T08:00:00.000Z",
      version: 3,
      thesisTitle: null,
      thesisAbstract: null,
    };
    const items = buildTimeline(submission, [
      {
        at: "2025-03-02T08:00:00.000Z",
        field: "review.thesis",
        from: "pending",
        to: "a.pdf",
        kind: "accept",
      },
      {
        at: "2025-03-06T08:00:00.000Z",
        field: "documents.statementOfResult",
        from: null,
        to: "2025-03-06",
        kind: "edit",
      },
    ]);
    expect(items.map((i) => i.label)).toEqual([
      "Submission recorded",
      "Awaiting Review",
      "Thesis accepted",
      "Statement of Result received",
    ]);
  });
});

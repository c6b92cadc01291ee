import { describe, expect, it } from "vitest";
import {
  emptyDocuments,
  fromSubmissionRecord,
  normaliseDate,
  toStatusView,
  toSubmissionRecord,
  type Submission,
} from "./submission.js";

function submission(overrides: Partial<Submission> = {}): Submission {
  return {
    id: 7,
    studentName: "Abena Mensah",
    indexNumber: "10234567",
    programme: "MPhil Economics",
    contact: "024 123 4567",
    studentEmail: null,
    documents: emptyDocuments(),
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
    thesisTitle: null,
    thesisAbstract: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    version: 1,
    ...overrides,
  };
}

const allDocuments = () => {
  const docs = emptyDocuments();
  for (const key of Object.keys(docs) as (keyof typeof docs)[])
    docs[key] = { submitted: true, receivedOn: null };
  return docs;
};

describe("record mapping", () => {
  it("reads a full prototype record and writes it back unchanged", () => {
    const record = {
      idNo: 1,
      StudentName: "Abena Mensah",
      IndexNumber: "10234567",
      Programme: "MPhil Economics",
      Contact: "024 123 4567",
      Thesis: "Submitted",
      "Turnitin report": "Submitted",
      "Supervisor form": "Submitted",
      "Statement of Result": "Submitted",
      "Financial Clearance": "Submitted",
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Received",
      ExternalExaminer: "Report Submitted",
      "Thesis Status": "Initial Submission",
      "Effective Date": "2024-03-12",
    };
    const parsed = fromSubmissionRecord(record);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.fields.sgsStage).toBe("sent_to_examiners");
    expect(parsed.fields.internalExaminer).toBe("received");
    expect(parsed.fields.externalExaminer).toBe("report_submitted");
    expect(toSubmissionRecord(submission({ ...parsed.fields, id: 1 }))).toEqual(record);
  });

  it("treats missing and blank cells as missing fields", () => {
    const parsed = fromSubmissionRecord({
      StudentName: "Yaw Asante",
      IndexNumber: "10999999",
      Programme: "PhD Chemistry",
      Contact: "  ",
    });
    if (!parsed.ok) throw new Error("expected ok");
    expect(parsed.fields.contact).toBeNull();
    expect(parsed.fields.documents.thesis).toEqual({ submitted: false, receivedOn: null });
    expect(toSubmissionRecord(submission(parsed.fields))).not.toHaveProperty("Contact");
  });

  it("keeps a document's received date when the cell holds one", () => {
    const parsed = fromSubmissionRecord({
      StudentName: "A",
      IndexNumber: "10999999",
      Programme: "P",
      Thesis: "2025-02-03",
    });
    if (!parsed.ok) throw new Error("expected ok");
    expect(parsed.fields.documents.thesis).toEqual({ submitted: true, receivedOn: "2025-02-03" });
  });

  it("names each bad column with its reason", () => {
    const parsed = fromSubmissionRecord({
      StudentName: "",
      IndexNumber: "1",
      Programme: "P",
      SGSAdmin: "Lost",
      InternalExaminer: "Maybe",
      "Effective Date": "2024-02-30",
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.column)).toEqual([
      "StudentName",
      "IndexNumber",
      "SGSAdmin",
      "InternalExaminer",
      "Effective Date",
    ]);
  });

  it("normalises dates and rejects impossible ones", () => {
    expect(normaliseDate("2024-03-12T10:00:00Z")).toBe("2024-03-12");
    expect(normaliseDate("2024-02-30")).toBeNull();
    expect(normaliseDate("12/03/2024")).toBeNull();
  });
});

describe("student status view", () => {
  it("lists the five documents in the prototype's order with what was received and when", () => {
    const documents = {
      ...emptyDocuments(),
      turnitinReport: { submitted: true, receivedOn: "2025-04-02" },
    };
    const view = toStatusView(submission({ documents }));
    expect(view.documents.map((d) => d.label)).toEqual([
      "Thesis",
      "Turnitin report",
      "Supervisor form",
      "Statement of Result",
      "Financial Clearance",
    ]);
    expect(view.documents[1]).toEqual({
      item: "turnitinReport",
      label: "Turnitin report",
      submitted: true,
      receivedOn: "2025-04-02",
    });
    expect(view.documents.filter((d) => !d.submitted)).toHaveLength(4);
  });

  it("keeps the prototype's response fields", () => {
    const view = toStatusView(submission());
    expect(Object.keys(view)).toEqual([
      "studentName",
      "indexNumber",
      "programme",
      "contact",
      "status",
      "documents",
    ]);
    expect(Object.keys(view.status)).toEqual([
      "awaitingReview",
      "sentToDepartment",
      "nominationsReady",
      "sentToInternal",
      "sentToExternal",
      "internalReport",
      "externalReport",
      "thesisStatus",
    ]);
  });

  it("shows everything pending while documents are still missing", () => {
    const { status } = toStatusView(submission());
    expect(status.awaitingReview).toBe("Pending");
    expect(status.sentToDepartment).toBe("Pending");
    expect(status.internalReport).toBe("Pending");
  });

  it("shows review in progress once every document is in", () => {
    expect(toStatusView(submission({ documents: allDocuments() })).status.awaitingReview).toBe(
      "In progress",
    );
    expect(toStatusView(submission({ sgsStage: "awaiting_review" })).status.awaitingReview).toBe(
      "In progress",
    );
  });

  it("completes every stage up to the current one", () => {
    const { status } = toStatusView(
      submission({ documents: allDocuments(), sgsStage: "nominations_ready" }),
    );
    expect(status).toMatchObject({
      awaitingReview: "Completed",
      sentToDepartment: "Completed",
      nominationsReady: "Completed",
      sentToInternal: "Pending",
    });
  });

  it("reports each examiner separately once sent to examiners", () => {
    const { status } = toStatusView(
      submission({
        sgsStage: "sent_to_examiners",
        internalExaminer: "report_submitted",
        externalExaminer: null,
        thesisStatus: "Initial Submission",
      }),
    );
    expect(status.sentToInternal).toBe("Completed");
    expect(status.sentToExternal).toBe("Pending");
    expect(status.internalReport).toBe("Report Submitted");
    expect(status.externalReport).toBe("Pending");
    expect(status.thesisStatus).toBe("Initial Submission");
  });
});

import { describe, expect, it } from "vitest";
import { MAX_FILE_NAME_LENGTH } from "../../common/documents.js";
import { presentDocumentSlots, slotState } from "./presenter.js";
import type { ChecklistEntry, StoredDocumentVersion } from "./repository.js";
import { contentDisposition } from "../http/content-disposition.js";
import { displayFileName } from "../files/upload.js";

const NOT_RECEIVED: ChecklistEntry = { submitted: false, receivedOn: null };
const RECEIVED: ChecklistEntry = { submitted: true, receivedOn: "2025-05-06" };

function version(overrides: Partial<StoredDocumentVersion>): StoredDocumentVersion {
  return {
    id: 1,
    submissionId: 1,
    indexNumber: "10000001",
    item: "thesis",
    version: 1,
    isCurrent: true,
    fileName: "thesis.pdf",
    sizeBytes: 1000,
    sha256: "a".repeat(64),
    pageCount: 10,
    hasJavaScript: false,
    hasEmbeddedFiles: false,
    uploadedBy: 1,
    uploadedAt: "2025-05-01T10:00:00.000Z",
    reviewState: "pending",
    reviewedBy: null,
    reviewedAt: null,
    returnReason: null,
    ...overrides,
  };
}

const limits = { maxThesisBytes: 100, maxFormBytes: 10 };

describe("a checklist item's state", () => {
  it("is accepted whenever the record says received, whatever the current version says", () => {
    expect(slotState(RECEIVED, null)).toBe("accepted");
    expect(slotState(RECEIVED, version({ reviewState: "pending" }))).toBe("accepted");
    expect(slotState(RECEIVED, version({ reviewState: "returned" }))).toBe("accepted");
  });

  it("follows the current version's review otherwise", () => {
    expect(slotState(NOT_RECEIVED, null)).toBe("to_upload");
    expect(slotState(NOT_RECEIVED, version({ reviewState: "pending" }))).toBe("with_school");
    expect(slotState(NOT_RECEIVED, version({ reviewState: "returned" }))).toBe("returned");
    // Accepted once, then cleared by an administrator: the student uploads again.
    expect(slotState(NOT_RECEIVED, version({ reviewState: "accepted" }))).toBe("to_upload");
  });
});

describe("the slots", () => {
  const checklist = {
    thesis: NOT_RECEIVED,
    turnitinReport: RECEIVED,
    supervisorForm: RECEIVED,
    statementOfResult: NOT_RECEIVED,
    financialClearance: NOT_RECEIVED,
  };
  const versions = [
    version({ id: 1, version: 1, isCurrent: false, reviewState: "superseded" }),
    version({
      id: 3,
      version: 3,
      isCurrent: true,
      reviewState: "returned",
      returnReason: "Blurry",
    }),
    version({ id: 2, version: 2, isCurrent: false, reviewState: "returned" }),
    version({ id: 4, item: "turnitinReport", reviewState: "accepted" }),
  ];
  const slots = presentDocumentSlots(checklist, versions, limits);

  it("lists the five items in checklist order with their limits", () => {
    expect(slots.map((s) => [s.item, s.maxBytes])).toEqual([
      ["thesis", 100],
      ["turnitinReport", 10],
      ["supervisorForm", 10],
      ["statementOfResult", 10],
      ["financialClearance", 10],
    ]);
  });

  it("puts the current version first and the earlier ones newest first", () => {
    const thesis = slots[0];
    expect(thesis?.state).toBe("returned");
    expect(thesis?.current?.id).toBe(3);
    expect(thesis?.current?.returnReason).toBe("Blurry");
    expect(thesis?.earlier.map((v) => v.id)).toEqual([2, 1]);
    expect(thesis?.canUpload).toBe(true);
    expect(thesis?.current?.href).toBe("/api/documents/3/file");
  });

  it("tells an accepted upload from a paper copy", () => {
    expect(slots[1]).toMatchObject({ state: "accepted", paperCopy: false, canUpload: false });
    expect(slots[2]).toMatchObject({
      state: "accepted",
      paperCopy: true,
      canUpload: false,
      receivedOn: "2025-05-06",
      current: null,
    });
    expect(slots[3]).toMatchObject({ state: "to_upload", receivedOn: null, canUpload: true });
  });
});

describe("the thesis while corrections are open", () => {
  const accepted = {
    thesis: RECEIVED,
    turnitinReport: RECEIVED,
    supervisorForm: NOT_RECEIVED,
    statementOfResult: NOT_RECEIVED,
    financialClearance: NOT_RECEIVED,
  };
  const versions = [version({ id: 7, reviewState: "accepted" })];

  it("takes the corrected version although the school accepted it; other accepted items stay closed", () => {
    const open = presentDocumentSlots(accepted, versions, limits, { correctionsOpen: true });
    expect(open[0]).toMatchObject({ item: "thesis", state: "accepted", canUpload: true });
    expect(open[1]).toMatchObject({ item: "turnitinReport", state: "accepted", canUpload: false });
    const closed = presentDocumentSlots(accepted, versions, limits);
    expect(closed[0]).toMatchObject({ item: "thesis", state: "accepted", canUpload: false });
  });
});

describe("a file's display name", () => {
  it("keeps the last part of any path the client sent", () => {
    expect(displayFileName("C:\\Users\\ama\\Desktop\\thesis.pdf")).toBe("thesis.pdf");
    expect(displayFileName("../../etc/passwd")).toBe("passwd");
  });

  it("drops control characters and direction overrides", () => {
    expect(displayFileName("the\u0000sis\u0007.pdf")).toBe("thesis.pdf");
    expect(displayFileName("report\u202efdp.exe")).toBe("reportfdp.exe");
  });

  it("is at most the longest name shown, and never empty", () => {
    const long = `${"é".repeat(MAX_FILE_NAME_LENGTH + 50)}.pdf`;
    expect(Array.from(displayFileName(long))).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(displayFileName("   ")).toBe("document.pdf");
    expect(displayFileName(undefined)).toBe("document.pdf");
  });
});

describe("Content-Disposition", () => {
  it("gives an ASCII fallback and the exact name encoded", () => {
    expect(contentDisposition("inline", 'Thèse "finale".pdf')).toBe(
      "inline; filename=\"Th_se _finale_.pdf\"; filename*=UTF-8''Th%C3%A8se%20%22finale%22.pdf",
    );
    expect(contentDisposition("attachment", "a;b.pdf")).toBe(
      "attachment; filename=\"a;b.pdf\"; filename*=UTF-8''a%3Bb.pdf",
    );
  });
});

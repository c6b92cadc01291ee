import { describe, expect, it } from "vitest";
import { REVIEW_STATES } from "../../../../../common/documents-constants.js";
import { makeVersion } from "../../test/harness.js";
import { downloadHref, reviewActions, slotStateText, versionFlags } from "./document-review.js";

describe("the reviewer's choices and words for a document", () => {
  it("offers Accept only while the current version waits, and Return also to undo an acceptance", () => {
    const offered = Object.fromEntries(
      REVIEW_STATES.map((reviewState) => [
        reviewState,
        reviewActions({ current: makeVersion({ reviewState }) }),
      ]),
    );
    expect(offered).toEqual({
      pending: { accept: true, return: true },
      accepted: { accept: false, return: true },
      returned: { accept: false, return: false },
      superseded: { accept: false, return: false },
    });
    expect(reviewActions({ current: null })).toEqual({ accept: false, return: false });
  });

  it("says a paper copy is one, and gives the received date of an accepted upload", () => {
    expect(slotStateText({ state: "accepted", paperCopy: true, receivedOn: "2025-03-01" })).toBe(
      "Paper copy received 1 March 2025",
    );
    expect(slotStateText({ state: "accepted", paperCopy: false, receivedOn: "2025-03-04" })).toBe(
      "Accepted 4 March 2025",
    );
    expect(slotStateText({ state: "with_school", paperCopy: false, receivedOn: null })).toBe(
      "Waiting for review",
    );
  });

  it("names what a PDF carries, in words", () => {
    expect(versionFlags({ hasJavaScript: true, hasEmbeddedFiles: true })).toEqual([
      "Contains scripts",
      "Contains attachments",
    ]);
    expect(versionFlags({ hasJavaScript: false, hasEmbeddedFiles: false })).toEqual([]);
  });

  it("asks for the PDF as an attachment whether or not its address has a query", () => {
    expect(downloadHref("/api/documents/7")).toBe("/api/documents/7?download=1");
    expect(downloadHref("/api/documents/7?v=2")).toBe("/api/documents/7?v=2&download=1");
  });
});

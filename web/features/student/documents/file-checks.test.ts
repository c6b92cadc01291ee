import { describe, expect, it } from "vitest";
import { checkFileBeforeUpload, formatProgress, percentOf } from "./file-checks.js";

const MB = 1024 * 1024;

describe("checkFileBeforeUpload", () => {
  it("lets a PDF within the limit through", () => {
    expect(
      checkFileBeforeUpload(
        { name: "thesis.pdf", size: 2 * MB, type: "application/pdf" },
        { item: "thesis", maxBytes: 100 * MB },
      ),
    ).toBeNull();
  });

  it("accepts a .PDF name whatever the browser's type, and a PDF type whatever the name", () => {
    expect(
      checkFileBeforeUpload(
        { name: "FORM.PDF", size: 10, type: "" },
        { item: "supervisorForm", maxBytes: MB },
      ),
    ).toBeNull();
    expect(
      checkFileBeforeUpload(
        { name: "scan", size: 10, type: "application/pdf" },
        { item: "supervisorForm", maxBytes: MB },
      ),
    ).toBeNull();
  });

  it("refuses a file that is not a PDF, naming it", () => {
    expect(
      checkFileBeforeUpload(
        { name: "thesis.docx", size: 10, type: "application/msword" },
        { item: "supervisorForm", maxBytes: MB },
      ),
    ).toBe("thesis.docx is not a PDF. Save or export it as a PDF and upload that file.");
  });

  it("refuses an empty file, naming it", () => {
    expect(
      checkFileBeforeUpload(
        { name: "form.pdf", size: 0, type: "application/pdf" },
        { item: "supervisorForm", maxBytes: MB },
      ),
    ).toMatch(/^form\.pdf is empty\./);
  });

  it("refuses a file over the limit, naming the file and the limit", () => {
    expect(
      checkFileBeforeUpload(
        { name: "big.pdf", size: 10 * MB + 1, type: "application/pdf" },
        { item: "turnitinReport", maxBytes: 10 * MB },
      ),
    ).toBe(
      "big.pdf is larger than 10 MB, the limit for the Turnitin report. Make the file smaller (for example, export it again with compressed images) and upload it.",
    );
    expect(
      checkFileBeforeUpload(
        { name: "big.pdf", size: 10 * MB, type: "application/pdf" },
        { item: "turnitinReport", maxBytes: 10 * MB },
      ),
    ).toBeNull();
    expect(
      checkFileBeforeUpload(
        { name: "thesis.pdf", size: 100 * MB + 1, type: "application/pdf" },
        { item: "thesis", maxBytes: 100 * MB },
      ),
    ).toMatch(/^thesis\.pdf is larger than 100 MB, the limit for a thesis\. /);
  });
});

describe("formatProgress", () => {
  it("shares the unit when both amounts have it", () => {
    expect(formatProgress(Math.round(4.2 * MB), 8 * MB)).toBe("4.2 of 8.0 MB");
    expect(formatProgress(Math.round(12.4 * MB), 48 * MB)).toBe("12 of 48 MB");
  });

  it("keeps both units when they differ", () => {
    expect(formatProgress(840 * 1024, 12 * MB)).toBe("840 KB of 12 MB");
    expect(formatProgress(0, 2 * MB)).toBe("0 bytes of 2.0 MB");
  });

  it("rounds the percentage and survives an empty total", () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(0, 0)).toBe(0);
  });
});

import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDocuments, type Submission } from "../../common/submission.js";
import type { SubmissionFilters } from "../../common/submissions-api.js";
import { makeSubmission } from "../../testing/factories.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { CSV_BOM, csvLine, protectCell } from "./csv.js";
import { exportCells, exportSubmissions, submissionPages } from "./export.js";
import { rowToSubmission } from "./repository.js";
import { EXPORT_COLUMNS, exportRow, xlsxStream } from "./spreadsheet.js";

/**
 * The export reads only the columns it shows and writes cells straight from them; the files must
 * be the bytes the writer made from whole Submissions before (exportRow, then csvLine with
 * protectCell), on both databases.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const awkward: Parameters<typeof makeSubmission>[1][] = [
    { studentName: 'Ama <b>&amp; "Kofi"', contact: "+233 24 123 4567" },
    { studentName: "  leading and trailing  ", programme: "Line\nbreak, and comma" },
    { studentName: "Bell\u0007 and _x0041_ literal", contact: "=1+1" },
    { studentName: "Ɛsi 😀 Mensah", contact: "", thesisStatus: "", effectiveDate: "" },
    {
      studentName: "-negative",
      programme: "@at",
      thesisStatus: "Passed",
      effectiveDate: "2025-01-02",
    },
    {
      documents: {
        thesis: { submitted: true, receivedOn: "2024-02-03" },
        turnitinReport: { submitted: true, receivedOn: null },
        supervisorForm: { submitted: false, receivedOn: null },
        statementOfResult: { submitted: true, receivedOn: "" },
        financialClearance: { submitted: true, receivedOn: "2024-12-31" },
      },
      sgsStage: "sent_to_examiners",
      internalExaminer: "report_submitted",
      externalExaminer: "received",
    },
    { sgsStage: "awaiting_review", internalExaminer: "awaiting", documents: emptyDocuments() },
  ];
  for (const overrides of awkward) await makeSubmission(t.db, overrides);
  // More than two pages, so rows cross the page boundaries.
  for (let i = 0; i < 1234; i += 1) {
    await makeSubmission(t.db, {
      contact: i % 3 ? `024 ${i}` : null,
      sgsStage: i % 4 ? "awaiting_review" : null,
      externalExaminer: i % 5 ? null : "awaiting",
      documents: {
        ...emptyDocuments(),
        thesis: { submitted: i % 2 === 0, receivedOn: i % 6 === 0 ? "2025-06-07" : null },
      },
    });
  }
});
afterAll(async () => {
  await t.close();
});

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** The CSV export as it was written before: whole Submissions, exportRow, csvLine. */
async function referenceCsv(filters: SubmissionFilters): Promise<Buffer> {
  let text = CSV_BOM + csvLine(EXPORT_COLUMNS);
  for await (const page of submissionPages(t.db, filters)) {
    for (const s of page) {
      text += csvLine(
        exportRow(s).map((cell) => (typeof cell === "string" ? protectCell(cell) : cell)),
      );
    }
  }
  return Buffer.from(text, "utf8");
}

describe("the export's own rows", () => {
  it("make the same cells as exportRow of the whole submission, for every row", async () => {
    const rows = await t.db.selectFrom("submissions").selectAll().orderBy("id").execute();
    expect(rows.length).toBeGreaterThan(1200);
    for (const row of rows) {
      const s: Submission = rowToSubmission(row);
      expect(exportCells(row)).toEqual(exportRow(s));
    }
  });

  it("write the same CSV bytes as before, with and without filters", async () => {
    const cases: SubmissionFilters[] = [{}, { sgsStage: "awaiting_review" }, { q: "Mensah" }];
    for (const filters of cases) {
      const file = exportSubmissions(t.db, { format: "csv", ...filters });
      const bytes = await collect(file.body);
      expect(bytes.equals(await referenceCsv(filters))).toBe(true);
    }
    const all = await collect(exportSubmissions(t.db, { format: "csv" }).body);
    // The header and every submission, each on its line.
    expect(all.toString("utf8").split("\r\n").length - 2).toBe(1241);
  });

  it("write the same XLSX bytes as the workbook written from whole submissions", async () => {
    const now = new Date("2026-11-23T10:00:00Z");
    const file = exportSubmissions(t.db, { format: "xlsx" }, now);
    const bytes = await collect(file.body);
    const before = await collect(xlsxStream(submissionPages(t.db, {}), now));
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.equals(before)).toBe(true);
  });
});

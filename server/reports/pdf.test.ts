import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportTable } from "../../common/report-tables.js";
import { readPdf } from "../../testing/pdf-text.js";
import { inspectPdf } from "../files/pdf.js";
import { printable, renderDeanPdf, type DeanReportContent } from "./pdf.js";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-dean-pdf-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function bytesOf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const stages: ReportTable = {
  id: "stage-times",
  title: "Time in each stage",
  columns: [
    { label: "Stage", numeric: false },
    { label: "Median (days)", numeric: true },
    { label: "90th percentile (days)", numeric: true },
  ],
  rows: [
    ["Awaiting Review", 17, 29],
    ["Sent to Examiners", 83, 121],
    ["Corrections", null, null],
  ],
  note: "3 records counted apart.",
  chart: { unit: "days", categoryColumn: 0, seriesColumns: [1, 2] },
};

function content(overrides: Partial<DeanReportContent> = {}): DeanReportContent {
  return {
    programme: "MPhil Economics",
    period: { from: "2025-09", to: "2026-08" },
    cohort: null,
    generatedAt: new Date("2026-09-02T10:00:00Z"),
    headline: [
      { label: "Median, first upload to released outcome", value: "143 days" },
      { label: "Examiner reports late today", value: "7" },
    ],
    tables: [stages],
    late: {
      id: "late-reports",
      title: "Examiner reports late today",
      columns: [
        { label: "Student", numeric: false },
        { label: "Days late", numeric: true },
      ],
      rows: [["Ama Mensah", 12]],
    },
    ...overrides,
  };
}

describe("the dean's PDF", () => {
  it("holds the period, programme, headline figures, tables and late list, and passes the upload checks", async () => {
    const bytes = await bytesOf(renderDeanPdf(content()));
    const file = path.join(dir, "dean.pdf");
    fs.writeFileSync(file, bytes);
    expect(await inspectPdf(file)).toEqual({
      ok: true,
      pageCount: 3,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
    const pdf = await readPdf(bytes);
    expect(pdf.title).toBe("Dean's report: MPhil Economics, September 2025 to August 2026");
    const [cover, stagePage, latePage] = pdf.pages;
    expect(cover).toContain("MPhil Economics");
    expect(cover).toContain("September 2025 to August 2026");
    expect(cover).toContain("143 days");
    expect(cover).toContain("Median, first upload to released outcome");
    expect(stagePage).toContain("Time in each stage");
    expect(stagePage).toMatch(/Sent to Examiners 83 121/);
    expect(stagePage).toMatch(/Corrections - -/);
    expect(latePage).toMatch(/Ama Mensah 12/);
    expect(latePage).toContain("Page 3 of 3");
  });

  it("draws its charts as vector paths, never as images", async () => {
    const pdf = await readPdf(await bytesOf(renderDeanPdf(content())));
    const chartPage = pdf.drawing[1]!;
    // Four bars, grid lines and the axis at least; no picture anywhere.
    expect(chartPage.paths).toBeGreaterThan(6);
    expect(pdf.drawing.every((page) => page.images === 0)).toBe(true);
    // Without a chart the table page draws far fewer paths (the table's rules only).
    const noChart = await readPdf(
      await bytesOf(renderDeanPdf(content({ tables: [{ ...stages, chart: undefined }] }))),
    );
    expect(noChart.drawing[1]!.paths).toBeLessThan(chartPage.paths);
  });

  it("says 'All programmes' without a programme, and the cohort when one is chosen", async () => {
    const pdf = await readPdf(
      await bytesOf(renderDeanPdf(content({ programme: null, cohort: 2024 }))),
    );
    expect(pdf.pages[0]).toContain("All programmes");
    expect(pdf.pages[0]).toContain("Records created in 2024");
  });

  it("spreads a long table over pages, and says when a table is empty", async () => {
    const long: ReportTable = {
      ...stages,
      id: "examiners",
      title: "Turnaround per examiner",
      chart: undefined,
      rows: Array.from({ length: 150 }, (_, i) => [`Dr. Kofi Mensah ${i + 1}`, i, i + 3]),
    };
    const empty: ReportTable = { ...stages, id: "outcomes", title: "Outcomes released", rows: [] };
    const pdf = await readPdf(await bytesOf(renderDeanPdf(content({ tables: [long, empty] }))));
    expect(pdf.pageCount).toBeGreaterThanOrEqual(5);
    expect(pdf.text).toContain("Dr. Kofi Mensah 150 149 152");
    expect(pdf.text).toContain("No records for this selection.");
  });

  it("keeps names the standard fonts cannot show readable instead of garbling them", () => {
    expect(printable("Ɛkua Mensah")).toBe("?kua Mensah");
    expect(printable("Akosua Nyarko-Asante é ü")).toBe("Akosua Nyarko-Asante é ü");
    // ř is not in Windows-1252 (its plain r is), á is.
    expect(printable("Dvořák")).toBe("Dvorák");
  });
});

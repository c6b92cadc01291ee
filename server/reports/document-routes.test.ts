import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headlineFigures, lateTable, reportTables } from "../../common/report-tables.js";
import type { ReportCell, ReportTable } from "../../common/report-tables.js";
import type { ExaminerFigure, LateReports, ReportFigures } from "../../common/reports.js";
import { signedInAdmin, signedInStudent } from "../../testing/accounts.js";
import { readPdf } from "../../testing/pdf-text.js";
import { generateRecord, insertExaminers, seeded } from "../../testing/report-history.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { inspectPdf } from "../files/pdf.js";
import { parseCsv, protectCell } from "../submissions/csv.js";
import { lateReports } from "./service.js";
import { EXPORT_LATE_LIMIT } from "./export-data.js";
import { REPORT_TABLE_IDS } from "./document-routes.js";

/**
 * The Reports files (issue 22) over a generated history, on SQLite and PostgreSQL: every CSV, the
 * XLSX and the dean's PDF read back and compared with what GET /api/admin/reports answers for the
 * same filters. The history is written relative to the real clock, as the routes read it.
 */

const PROGRAMME = "MPhil Economics";
const YEAR = 365 * 86_400_000;

let t: TestApp;
let cookie: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-report-files-"));
  cookie = await signedInAdmin(t.app, "dean.office@sgs.test");
  // Enough examiners that the per-examiner table has more than one page (25 a page).
  const examinerIds = await insertExaminers(t.db, 40);
  const rng = seeded(2024);
  const now = Date.now();
  for (let i = 0; i < 120; i += 1) {
    await generateRecord(t.db, rng, examinerIds, {
      start: now - 2 * YEAR,
      now,
      programme: i % 3 === 0 ? "PhD Chemistry" : PROGRAMME,
    });
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, withCookie = cookie) =>
  t.app.inject({ method: "GET", url, headers: withCookie ? { cookie: withCookie } : {} });

const QUERY = `programme=${encodeURIComponent(PROGRAMME)}&compare=true`;

async function figures(extra = ""): Promise<ReportFigures> {
  const res = await get(`/api/admin/reports?${QUERY}${extra}`);
  expect(res.statusCode).toBe(200);
  return res.json<ReportFigures>();
}

/** Every examiner of the period, from every page the API answers. */
async function allExaminers(first: ReportFigures): Promise<ExaminerFigure[]> {
  const items = [...first.current.examiners.items];
  const pages = Math.ceil(first.current.examiners.total / first.current.examiners.pageSize);
  for (let page = 2; page <= pages; page += 1) {
    items.push(...(await figures(`&examinerPage=${page}`)).current.examiners.items);
  }
  return items;
}

async function expectedTables(): Promise<{ figures: ReportFigures; tables: ReportTable[] }> {
  const answer = await figures();
  const late: LateReports = await lateReports(
    t.db,
    { programme: PROGRAMME },
    new Date(),
    t.config,
    EXPORT_LATE_LIMIT,
  );
  return {
    figures: answer,
    tables: [...reportTables(answer, await allExaminers(answer)), lateTable(late)],
  };
}

const csvCell = (value: ReportCell) =>
  value === null ? "" : typeof value === "number" ? String(value) : protectCell(value);

describe("Reports exports", () => {
  it("has figures to export: the history gives every table rows and the examiners two pages", async () => {
    const answer = await figures();
    expect(answer.current.examiners.total).toBeGreaterThan(answer.current.examiners.pageSize);
    expect(answer.current.outcomes.total).toBeGreaterThan(0);
    expect(answer.current.stages.some((s) => s.days.count > 0)).toBe(true);
  });

  it("writes every table as CSV that reads back to the API's figures", async () => {
    const { tables } = await expectedTables();
    expect(tables.map((table) => table.id)).toEqual([...REPORT_TABLE_IDS]);
    for (const table of tables) {
      const res = await get(`/api/admin/reports/export?${QUERY}&format=csv&table=${table.id}`);
      expect(res.statusCode, table.id).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toMatch(
        new RegExp(`attachment; filename="ets-${table.id}-mphil-economics-\\d{4}-\\d{2}-to-`),
      );
      expect(res.body.startsWith("\uFEFF")).toBe(true);
      const [header, ...rows] = parseCsv(res.body.slice(1)).filter((row) => row.join("") !== "");
      expect(header, table.id).toEqual(table.columns.map((c) => c.label));
      expect(rows, table.id).toEqual(table.rows.map((row) => row.map(csvCell)));
    }
    // The per-examiner table holds every page, not only the first.
    const examiners = tables.find((table) => table.id === "examiners")!;
    expect(examiners.rows.length).toBeGreaterThan(25);
  });

  it("writes every table as a sheet of one XLSX workbook, numbers as numbers", async () => {
    const { tables } = await expectedTables();
    const res = await get(`/api/admin/reports/export?${QUERY}&format=xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets).toHaveLength(tables.length);
    tables.forEach((table, index) => {
      const sheet = workbook.worksheets[index]!;
      const values = (row: number) =>
        // A sparse array (empty cells are holes): Array.from visits the holes too.
        Array.from((sheet.getRow(row).values as unknown[]).slice(1), (v) => v ?? null);
      expect(values(1)).toEqual(table.columns.map((c) => c.label));
      table.rows.forEach((row, r) => {
        const expected = row.map((cell) => (typeof cell === "string" ? protectCell(cell) : cell));
        // Trailing empty cells are not stored.
        while (expected.length > 0 && expected[expected.length - 1] === null) expected.pop();
        expect(values(r + 2), `${table.id} row ${r + 1}`).toEqual(expected);
      });
    });
  });

  it("writes one table as XLSX when asked for it", async () => {
    const res = await get(`/api/admin/reports/export?${QUERY}&format=xlsx&table=outcomes`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Outcomes released"]);
  });

  it("refuses a CSV without a table, an unknown table and a malformed month, naming the field", async () => {
    const noTable = await get(`/api/admin/reports/export?format=csv`);
    expect(noTable.statusCode).toBe(400);
    expect(noTable.json().fields).toEqual([
      { field: "table", message: expect.stringContaining("name the table") },
    ]);
    const unknown = await get(`/api/admin/reports/export?format=csv&table=salaries`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields[0].field).toBe("table");
    const month = await get(`/api/admin/reports/dean.pdf?from=2025-13`);
    expect(month.statusCode).toBe(400);
    expect(month.json().fields[0].field).toBe("from");
    expect(month.body).not.toContain("at ");
  });

  it("is for administrators only", async () => {
    expect((await get(`/api/admin/reports/export?format=xlsx`, "")).statusCode).toBe(401);
    expect((await get(`/api/admin/reports/dean.pdf`, "")).statusCode).toBe(401);
    const studentCookie = await signedInStudent(t.app, "ama.mensah@st.test", "PG7700001");
    expect((await get(`/api/admin/reports/export?format=xlsx`, studentCookie)).statusCode).toBe(
      403,
    );
    expect((await get(`/api/admin/reports/dean.pdf`, studentCookie)).statusCode).toBe(403);
  });
});

describe("the dean's PDF route", () => {
  it("holds the period, programme, headline figures and every table's rows, and passes the upload checks", async () => {
    const { figures: answer, tables } = await expectedTables();
    const res = await get(`/api/admin/reports/dean.pdf?${QUERY}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const bytes = res.rawPayload;
    const file = path.join(dir, "dean.pdf");
    fs.writeFileSync(file, bytes);
    const inspection = await inspectPdf(file);
    expect(inspection).toMatchObject({ ok: true, hasJavaScript: false, hasEmbeddedFiles: false });
    const pdf = await readPdf(bytes);
    // A cover, a page at least per table, and not a runaway.
    expect(pdf.pageCount).toBeGreaterThanOrEqual(tables.length + 1);
    expect(pdf.pageCount).toBeLessThan(60);
    expect(inspection.ok && inspection.pageCount).toBe(pdf.pageCount);
    const month = (m: string) =>
      new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(
        new Date(`${m}-01T00:00:00Z`),
      );
    const cover = pdf.pages[0]!;
    expect(cover).toContain(PROGRAMME);
    expect(cover).toContain(`${month(answer.current.from)} to ${month(answer.current.to)}`);
    const late = await lateReports(t.db, { programme: PROGRAMME }, new Date(), t.config, 1);
    for (const figure of headlineFigures({ ...answer, late })) {
      expect(cover).toContain(`${figure.value} ${figure.label}`);
    }
    // Every row of the charted tables, cell by cell, in the order the table prints them.
    for (const id of ["stage-times", "examiner-turnaround", "outcomes", "corrections"]) {
      const table = tables.find((x) => x.id === id)!;
      for (const row of table.rows) {
        const cells = row.map((cell) =>
          cell === null ? "-" : typeof cell === "number" ? cell.toLocaleString("en-GB") : cell,
        );
        const pattern = cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+");
        expect(pdf.text, `${id}: ${cells.join(" ")}`).toMatch(new RegExp(pattern));
      }
    }
    // Charts are drawn, not pasted.
    expect(pdf.drawing.every((page) => page.images === 0)).toBe(true);
  });
});

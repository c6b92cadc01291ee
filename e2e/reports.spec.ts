import fs from "node:fs";
import { expect, test, type Locator } from "@playwright/test";
import { readPdf } from "../testing/pdf-text.js";
import { expectAccessible } from "./support/axe.js";
import { parseCsv } from "./support/csv.js";
import { tabTo } from "./support/keyboard.js";
import {
  adminApi,
  createSubmission,
  findSubmission,
  scrollWidth,
  signInAsAdmin,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 22: an administrator opens Reports, filters by programme, reads a chart's table, and
 * downloads the CSV and the dean's PDF; both files hold the figures the page shows. The records
 * are made through the API for a programme of this run's own, so the figures are this test's.
 */

async function rowCells(table: Locator, header: string): Promise<string[]> {
  const row = table
    .locator("tr")
    .filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
  return row.getByRole("cell").allTextContents();
}

test("an administrator reads a figure's table, and the CSV and PDF hold the same figures", async ({
  page,
}) => {
  const programme = `MPhil ${unique("Reports").replace(/-/g, " ")}`;
  const api = await adminApi();
  const created = [];
  for (const name of ["Ama Mensah", "Kofi Boateng", "Efua Owusu"]) {
    created.push(
      await createSubmission(api, {
        studentName: name,
        indexNumber: uniqueIndexNumber(),
        programme,
        sgsStage: "awaiting_review",
      }),
    );
  }
  // Two of the three move on: they leave Awaiting Review today.
  for (const submission of created.slice(0, 2)) {
    const current = await findSubmission(api, submission.indexNumber);
    const res = await api.patch(`/api/admin/submissions/${current.id}`, {
      data: { version: current.version, changes: { sgsStage: "sent_to_department" } },
    });
    expect(res.status(), await res.text()).toBe(200);
  }

  await signInAsAdmin(page);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "Reports" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Time in each stage" })).toBeVisible();
  await expectAccessible(page);

  // Filter by programme from the keyboard: the filters go to the address.
  const programmeField = page.getByLabel("Programme");
  await tabTo(page, programmeField);
  await page.keyboard.type(programme);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]programme=MPhil/);
  await expect(page.getByRole("status").filter({ hasText: programme })).toBeVisible();

  // The chart has its text alternative; its table has the numbers.
  await expect(page.getByRole("img", { name: "Time in each stage (chart, days)" })).toBeVisible();
  const table = page.getByRole("table", { name: "Time in each stage" });
  const awaiting = await rowCells(table, "Awaiting Review");
  // Median, 75th, 90th (whole days: left the same day), records, unknown history.
  expect(awaiting).toEqual(["0", "0", "0", "2", "0"]);
  const flow = await rowCells(
    page.getByRole("table", { name: "Theses in and out per month" }),
    new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" }).format(
      new Date(),
    ),
  );
  expect(flow[0]).toBe("3");
  const headline = await page.locator(".reports__headline-item").evaluateAll((items) =>
    items.map((item) => ({
      label: item.querySelector("dt")?.textContent ?? "",
      value: item.querySelector("dd")?.textContent ?? "",
    })),
  );
  expect(headline.length).toBeGreaterThan(3);
  await expectAccessible(page);

  // The CSV of that table holds the same row.
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download Time in each stage as CSV" }).click();
  const csvFile = await (await csvDownload).path();
  const rows = parseCsv(fs.readFileSync(csvFile, "utf8").replace(/^\uFEFF/, ""));
  const csvRow = rows.find((row) => row[0] === "Awaiting Review");
  expect(csvRow?.slice(1)).toEqual(awaiting);

  // The dean's PDF: the programme, the headline figures and the row, as the page shows them.
  const pdfDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the dean's report (PDF)" }).click();
  const pdfFile = await (await pdfDownload).path();
  const pdf = await readPdf(fs.readFileSync(pdfFile));
  expect(pdf.pages[0]).toContain(programme);
  for (const figure of headline) expect(pdf.pages[0]).toContain(`${figure.value} ${figure.label}`);
  expect(pdf.text).toContain(`Awaiting Review ${awaiting.join(" ")}`);
  expect(pdf.drawing.every((p) => p.images === 0)).toBe(true);

  // At phone width the page does not scroll sideways (wide tables scroll in their own region).
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(table).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await expectAccessible(page);
});

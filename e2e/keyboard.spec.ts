import { expect, test } from "@playwright/test";
import { factValue } from "./support/lines.js";
import { tabTo } from "./support/keyboard.js";
import { readState } from "./support/state.js";
import { sampleRecords } from "./support/app.js";

/**
 * One whole flow with the keyboard alone: log in, reach the list, search, move between rows with
 * the arrow keys, open the details with Enter and close them with Escape. No clicks, no fill().
 * Reads the "Wiredu" sample rows (no test changes them).
 */

test("an administrator logs in, searches and opens a submission with the keyboard alone", async ({
  page,
}) => {
  const { admin } = readState();
  const expected = sampleRecords()
    .filter((r) => r.StudentName?.toLowerCase().includes("wiredu"))
    .sort((a, b) => (a.StudentName ?? "").localeCompare(b.StudentName ?? ""));
  expect(expected.length).toBeGreaterThan(2);

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/welcome/i);
  // The skip link comes first.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();

  await tabTo(
    page,
    page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Login", exact: true }),
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/auth\/login$/);
  await tabTo(page, page.getByLabel("Student email"));
  await page.keyboard.type(admin.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(admin.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin$/);

  // The All Submissions card.
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await tabTo(page, page.locator("a.dashboard-card").filter({ hasText: "All Submissions" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/all_submissions$/);

  // The search box has focus on arrival.
  const box = page.getByPlaceholder("search according to name or index number");
  await expect(box).toBeFocused();
  await page.keyboard.type("WIREDU");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]q=WIREDU/);
  const rows = page.locator("table.submissions-table tbody tr");
  await expect(rows).toHaveCount(expected.length);

  // Into the table (one tab stop for the whole list), then down a row and open it.
  await tabTo(page, rows.nth(0));
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(rows.nth(expected.length - 1)).toBeFocused();
  await page.keyboard.press("Home");
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");

  const panel = page.getByRole("dialog", { name: "Submission Details" });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("heading", { name: "Submission Details" })).toBeFocused();
  const second = expected[1]!;
  await expect(factValue(panel, "Name")).toHaveText(second.StudentName!);
  await expect(factValue(panel, "Index Number")).toHaveText(second.IndexNumber!);

  // Tab moves into the panel's controls; Escape closes it from there and focus returns to the row.
  await page.keyboard.press("Tab");
  await expect(panel.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(rows.nth(1)).toBeFocused();

  // Enter on the row again, then Close with the keyboard.
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(panel).toHaveCount(0);
  await expect(rows.nth(1)).toBeFocused();
});

import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
import { signInAsAdmin } from "./support/app.js";

/**
 * The administrator's list on a desk screen (issue 24, item 5): at 1440 x 900 with the details
 * panel open, one line per record, at least 15 records in view, the panel beside the list from its
 * top, the page using the screen's width. On a phone the list and the panel stay as they were:
 * the panel under the list, rows free to wrap. Screenshots go to test-results/ for a person to
 * look at; the assertions measure what the eye would check.
 */

function rows(page: Page): Locator {
  return page.locator("table.submissions-table tbody tr");
}

function detailsPanel(page: Page): Locator {
  return page.getByRole("dialog", { name: "Submission Details" });
}

async function openFirstRecord(page: Page): Promise<void> {
  await signInAsAdmin(page);
  await page.goto("/admin/all_submissions");
  await expect(rows(page).first()).toBeVisible();
  await rows(page).first().click();
  await expect(detailsPanel(page)).toBeVisible();
  await expect(detailsPanel(page).getByRole("heading", { level: 2 })).toBeVisible();
}

/**
 * For each row of the list: whether it is wholly in view (inside the window and the list's
 * scrolling box, below its sticky header), and the most lines any of its cells takes (the
 * distinct line boxes of the cell's content).
 */
async function rowGeometry(page: Page) {
  return page.evaluate(() => {
    const wrap = document.querySelector(".submissions-table-wrap");
    const head = document.querySelector("table.submissions-table thead");
    if (!wrap || !head) throw new Error("no list");
    const box = wrap.getBoundingClientRect();
    const top = Math.max(0, box.top, head.getBoundingClientRect().bottom);
    const bottom = Math.min(window.innerHeight, box.bottom);
    return Array.from(document.querySelectorAll("table.submissions-table tbody tr"), (row) => {
      const rect = row.getBoundingClientRect();
      let lines = 0;
      for (const cell of Array.from(row.children)) {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = new Set<number>();
        for (const r of Array.from(range.getClientRects())) {
          if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
        }
        // Line boxes a few pixels apart (a chip beside text) are one line.
        const sorted = [...tops].sort((a, b) => a - b);
        let count = 0;
        let last = -Infinity;
        for (const t of sorted) {
          if (t - last > 8) count += 1;
          last = t;
        }
        lines = Math.max(lines, count);
      }
      return {
        visible: rect.top >= top - 0.5 && rect.bottom <= bottom + 0.5,
        height: rect.height,
        lines,
      };
    });
  });
}

test.describe("at 1440 x 900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the list shows at least 15 one-line records beside the open panel", async ({ page }) => {
    await openFirstRecord(page);
    await page.screenshot({ path: "test-results/admin-list-1440x900.png" });

    const geometry = await rowGeometry(page);
    const visible = geometry.filter((row) => row.visible);
    expect(visible.length).toBeGreaterThanOrEqual(15);
    for (const row of geometry) expect(row.lines).toBe(1);
    // One line each: every row as high as the lowest one.
    const lowest = Math.min(...geometry.map((row) => row.height));
    for (const row of geometry) expect(row.height).toBeLessThanOrEqual(lowest + 1);

    // The panel beside the list, its top level with the list's.
    const list = await page.locator(".submissions-table-wrap").boundingBox();
    const panel = await detailsPanel(page).boundingBox();
    if (!list || !panel) throw new Error("the list or the panel is not shown");
    expect(Math.abs(panel.y - list.y)).toBeLessThanOrEqual(1);
    expect(panel.x).toBeGreaterThanOrEqual(list.x + list.width);

    // The page uses the screen's width: list and panel span nearly all of it.
    expect(panel.x + panel.width - list.x).toBeGreaterThanOrEqual(1440 - 2 * 48);

    await expectAccessible(page);

    // From 1280 px on, as narrow as a desk screen gets: still one line per record beside the panel.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: "test-results/admin-list-1280x800.png" });
    for (const row of await rowGeometry(page)) expect(row.lines).toBe(1);
    const narrowList = await page.locator(".submissions-table-wrap").boundingBox();
    const narrowPanel = await detailsPanel(page).boundingBox();
    expect(narrowPanel?.y).toBeCloseTo(narrowList?.y ?? 0, 0);
  });

  test("keyboard focus on a row stays visible in the dense list", async ({ page }) => {
    await openFirstRecord(page);
    await rows(page).nth(1).focus();
    await page.keyboard.press("ArrowDown");
    const focused = rows(page).nth(2);
    await expect(focused).toBeFocused();
    const outline = await focused.evaluate((row) => getComputedStyle(row).outlineStyle);
    expect(outline).not.toBe("none");
  });
});

test.describe("at 390 x 844, a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("keeps the phone layout: the panel under the list, the list scrolling sideways", async ({
    page,
  }) => {
    await openFirstRecord(page);
    await page.screenshot({ path: "test-results/admin-list-390x844.png", fullPage: true });
    const list = await page.locator(".submissions-table-wrap").boundingBox();
    const panel = await detailsPanel(page).boundingBox();
    if (!list || !panel) throw new Error("the list or the panel is not shown");
    expect(panel.y).toBeGreaterThanOrEqual(list.y + list.height);
    // The page is not wider than the phone.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectAccessible(page);
  });
});

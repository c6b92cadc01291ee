import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";

/**
 * The public thesis pages (issue 20; docs/decisions/027): server-written HTML, read here by a
 * browser for what a test of the HTML cannot see: axe, the phone width, the keyboard. The sample
 * data publishes two of its students' theses (server/sample-journeys.ts). The pages carry no
 * script (server/publication/public.test.ts checks the HTML), so what is seen is what a crawler gets.
 */

test("the list and a thesis page are accessible, usable by keyboard and fit a phone", async ({
  page,
}) => {
  await page.goto("/theses");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const results = page.getByRole("list").filter({ has: page.locator("li > a") });
  await expect(results.getByRole("link").first()).toBeVisible();
  await expectAccessible(page);

  // Keyboard: the skip link comes first and shows when focused; the search box is labelled.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.getByLabel("Search by title, author or keyword").fill("zzzz-no-such-thesis");
  await page.getByRole("button", { name: "Search" }).press("Enter");
  await expect(page.getByText("No published thesis matches")).toBeVisible();

  await page.goto("/theses");
  await page.locator("ol.results li > a").first().click();
  await expect(page).toHaveURL(/\/theses\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('meta[name="citation_title"]')).toHaveCount(1);
  await expectAccessible(page);

  // A phone: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  for (const url of ["/theses", page.url()]) {
    await page.goto(url);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${url} is wider than a phone`).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }
});

import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
import { sampleRecord, signInAsNewStudent } from "./support/app.js";

/**
 * The status page's Publication section before its part loads (PublicationPlaceholder): the
 * section's heading and a loading status hold its place, so a screen reader's headings list has
 * "Publication" from the first render and keeps it when the part arrives. Sample record used here
 * (an index number has one account): 77.
 */

const LOADING = "Loading your publication details...";

const headings = (page: Page) => page.getByRole("heading", { level: 2 }).allTextContents();

test("the Publication heading and a loading status are there before the section's code, and stay in place after", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  try {
    // The section's code is held back until the test lets it go, so the placeholder is seen
    // whatever the machine's speed.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/PublicationSection-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });

    await signInAsNewStudent(page, sampleRecord(77).IndexNumber, "placeholder");
    await page.goto("/dashboard/status");
    await expect(page.getByRole("region", { name: "Your progress" })).toBeVisible();

    const placeholder = page.getByRole("region", { name: "Publication" });
    await expect(placeholder).toHaveAttribute("aria-busy", "true");
    await expect(
      placeholder.getByRole("heading", { level: 2, name: "Publication" }),
    ).toBeAttached();
    await expect(placeholder.getByRole("status")).toHaveText(LOADING);
    const before = await headings(page);
    expect(before.indexOf("Submission Details")).toBe(before.indexOf("Publication") + 1);

    // Scrolled near it, the code is asked for (and held): still the placeholder, in view.
    await page.getByRole("heading", { name: "Submission Details" }).scrollIntoViewIfNeeded();
    await expect(placeholder.getByRole("status")).toBeVisible();
    const box = await placeholder.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(200);
    await expectAccessible(page);

    // The code arrives: the loaded section under the same heading, the headings list unchanged.
    release();
    const section = page.getByRole("region", { name: "Publication" });
    await expect(section.getByRole("button", { name: "Save details" })).toBeVisible();
    await expect(section).not.toHaveAttribute("aria-busy", "true");
    await expect(page.getByText(LOADING)).toHaveCount(0);
    expect(await headings(page)).toEqual(before);
  } finally {
    await context.close();
  }
});

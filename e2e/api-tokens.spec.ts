import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
import { baseUrl, sampleRecord, scrollWidth, signInAsAdmin, unique } from "./support/app.js";

/**
 * API tokens (issue 21): an administrator creates a token on /admin/tokens (shown once), a system
 * uses it with a plain fetch, the administrator revokes it, and the next call is refused. Sample
 * record 7 is read here, never changed.
 */

/** A plain fetch, as another system makes it: no browser, no cookie, only the token. */
async function readWith(token: string, indexNumber: string): Promise<Response> {
  return fetch(`${baseUrl()}/api/submissions/${encodeURIComponent(indexNumber)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

test("an administrator creates a token shown once, a system reads with it, and revoking it refuses the next call", async ({
  page,
}) => {
  const record = sampleRecord(7);
  const name = unique("Registrar SIS");
  await signInAsAdmin(page);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "API tokens" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();
  await expectAccessible(page);

  // Asking with nothing filled in names the fields.
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("is required")).toBeVisible();
  await expect(page.getByText("choose at least one scope")).toBeVisible();

  await page.getByLabel("Name").fill(name);
  // Keyboard: the scope's checkbox is reached and ticked without a mouse.
  const readScope = page.getByRole("checkbox", { name: /submissions:read/ });
  await readScope.focus();
  await page.keyboard.press("Space");
  await expect(readScope).toBeChecked();
  await page.getByLabel("Expires after").selectOption({ label: "30 days" });
  await page.getByRole("button", { name: "Create token" }).click();

  await expect(page.getByRole("heading", { name: `Token “${name}” created` })).toBeFocused();
  await expect(page.getByText("you will not see it again")).toBeVisible();
  const token = await page.getByLabel("The new token").inputValue();
  expect(token).toMatch(/^ets_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page);

  const read = await readWith(token, record.IndexNumber);
  expect(read.status).toBe(200);
  const body = (await read.json()) as { data: { studentName: string } };
  expect(body.data.studentName).toBe(record.StudentName);

  // Gone after a reload: the server keeps only its hash, the page never stored it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Active");
  await expect(page.getByLabel("The new token")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // At phone width the page does not scroll sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Revoke ${name}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("alert")).toContainText("has been revoked");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");

  const refused = await readWith(token, record.IndexNumber);
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { message: string }).message).toMatch(/revoked/);
});

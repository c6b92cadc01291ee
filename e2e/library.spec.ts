import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { resolveFromRoot } from "../server/paths.js";
import { startSwordServer, type SwordServer } from "../testing/sword-server.js";
import { expectAccessible } from "./support/axe.js";
import { freePort, stopServer, waitForHealth } from "./support/own-server.js";

/**
 * The library's screens (issue 20, items 3 and 4; ADR 026): "Deposit to repository" in the
 * details panel, deposited over SWORD v2 to the tests' own endpoint, with the handle shown; the
 * per-thesis exports; and /admin/library (export by award date, bulk deposit, the deposits list)
 * at phone width, by keyboard, axe clean. This file starts its own server (the same build) with
 * REPOSITORY_SWORD_URL set and the deposit queue looked at every second; the sample list's two
 * published students (19433289 open, 16075856 under embargo) are deposited here.
 */

test.describe.configure({ mode: "serial" });

const ADMIN = { email: "librarian@sgs.test", password: "e2e-library-passcode" };
let work = "";
let sword: SwordServer;
let server: ChildProcess | null = null;
let baseUrl = "";

test.beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-e2e-library-"));
  sword = await startSwordServer();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [resolveFromRoot("dist", "server", "server.js")], {
    cwd: resolveFromRoot(),
    env: {
      NODE_ENV: "test",
      // One process, as in global-setup.ts: stopped by its PID.
      ETS_WORKERS: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATABASE_URL: `sqlite:${path.join(work, "ets.sqlite")}`,
      STORAGE_URL: `file:${path.join(work, "files")}`,
      ETS_SAMPLE_DATA: "on",
      ETS_ADMIN_EMAIL: ADMIN.email,
      ETS_ADMIN_PASSWORD: ADMIN.password,
      REPOSITORY_SWORD_URL: sword.serviceDocumentUrl,
      ETS_DEPOSIT_INTERVAL_SECONDS: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(`${baseUrl}/api/health`, server);
});

test.afterAll(async () => {
  await stopServer(server);
  await sword?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByLabel("Student email").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${baseUrl}/admin`));
}

test("the administrator deposits a published thesis from its details panel and sees the repository's handle", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${baseUrl}/admin/all_submissions?q=19433289`);
  await page.locator("table.submissions-table tbody tr").first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  const library = panel.getByRole("region", { name: "Repository and library" });
  await expect(library).toBeVisible();

  // The exports are links the browser downloads; the Dublin Core one answers XML.
  const dc = library.getByRole("link", { name: "Dublin Core XML" });
  const href = await dc.getAttribute("href");
  expect(href).toBe("/api/admin/submissions/19433289/publication/export/dc");
  const answer = await page.request.get(`${baseUrl}${href}`);
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain("<oai_dc:dc");

  const deposit = library.getByRole("button", { name: "Deposit to repository" });
  await deposit.focus();
  await page.keyboard.press("Enter");
  await expect(library.getByText(/Deposited on/)).toBeVisible({ timeout: 30_000 });
  const handle = library.getByRole("link", { name: /\/handle\/123456789\// });
  await expect(handle).toBeVisible();
  expect(sword.completed().filter((item) => item.slug?.startsWith("ets-thesis-"))).toHaveLength(1);
  await expectAccessible(page);
});

test("the library page exports by award date and deposits a selection, at phone width and by keyboard", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page);
  await page.goto(`${baseUrl}/admin/library`);
  await expect(page.getByRole("heading", { name: "Library: exports and deposits" })).toBeVisible();
  await expectAccessible(page);

  // A backwards range is refused next to its field, before anything is downloaded.
  await page.getByLabel("First award date").fill("2026-12-31");
  await page.getByLabel("Last award date").fill("2026-01-01");
  await page.getByRole("button", { name: "Download the export" }).click();
  await expect(page.getByText("The last award date must be on or after the first.")).toBeVisible();
  await expect(page.getByLabel("Last award date")).toHaveAttribute("aria-invalid", "true");

  // Bulk deposit by keyboard: one published thesis and one unknown index number.
  await page.getByLabel("Index numbers").focus();
  await page.keyboard.type("16075856\nno-such-index");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Queue the deposits" })).toBeFocused();
  await page.keyboard.press("Enter");
  const result = page.getByRole("alert").filter({ hasText: "Deposits queued" });
  await expect(result).toContainText("1 queued, 1 refused");
  await expect(result).toContainText(
    "no-such-index: There is no submission with this index number.",
  );

  // The list shows both deposits once the queue has done its work.
  await expect(async () => {
    await page.reload();
    const table = page.getByRole("table");
    await expect(table.getByRole("row")).toHaveCount(3);
    await expect(table.getByText("Deposited")).toHaveCount(2);
  }).toPass({ timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page);
});

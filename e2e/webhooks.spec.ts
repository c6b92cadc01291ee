import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.js";
import { expectAccessible } from "./support/axe.js";
import {
  adminApi,
  baseUrl,
  createSubmission,
  scrollWidth,
  signInAsAdmin,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 21: an administrator creates an API token for the university's system (shown once), adds a
 * webhook to a receiver this test starts on 127.0.0.1 (the browser tests' server allows that host
 * with WEBHOOK_ALLOWED_HOSTS), copies its secret, moves a submission's stage, and sees the signed
 * delivery in the webhook's log, then sends it again. (e2e/api-tokens.spec.ts follows a token
 * further: used, listed, revoked.)
 */

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

/** The receiver's check, as docs/api.md shows it. */
function verified(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers["ets-signature"] ?? ""));
  if (!match) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(match[2]!, "hex"));
}

test("an administrator creates a token and a webhook, moves a stage and sees the delivery in the webhook's log", async ({
  page,
}) => {
  const api = await adminApi();
  const indexNumber = uniqueIndexNumber();
  await createSubmission(api, {
    studentName: "Ama Mensah",
    indexNumber,
    programme: "MPhil Economics",
    sgsStage: "awaiting_review",
  });
  const hookUrl = `${receiver.url}/${indexNumber}`;

  await signInAsAdmin(page);
  await page.goto("/admin");

  // The token the registrar's system will call with: shown once, then only its name is listed.
  const tokenName = unique("Registrar SIS");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "API tokens" })
    .click();
  await page.getByLabel("Name").fill(tokenName);
  await page.getByRole("checkbox", { name: /submissions:read/ }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("you will not see it again")).toBeVisible();
  const token = await page.getByLabel("The new token").inputValue();
  expect(token).toMatch(/^ets_/);
  // A system's call carries the token alone, never the page's session cookie.
  const read = await fetch(`${baseUrl()}/api/submissions/${indexNumber}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(read.status, await read.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: tokenName })).toContainText("Active");
  await expect(page.getByLabel("The new token")).toHaveCount(0);

  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "Webhooks" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

  // Nothing chosen: the form says what is missing, and where.
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
    "Choose at least one event.",
  );

  await page.getByLabel("Endpoint address").fill(hookUrl);
  // The events are labelled checkboxes the keyboard can tick.
  await page.getByRole("checkbox", { name: "Stage changed" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: "Stage changed" })).toBeChecked();
  await page.getByRole("button", { name: "Add webhook" }).click();

  const secretBox = page.getByLabel("Signing secret");
  await expect(secretBox).toBeVisible();
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByText("it is not shown again")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: hookUrl });
  await expect(row).toContainText("Active");
  await expectAccessible(page);

  // The stage moves in the submissions list's details panel.
  await page.goto(`/admin/all_submissions?q=${indexNumber}`);
  await page.getByRole("row").filter({ hasText: indexNumber }).first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  await panel.getByRole("button", { name: "Advance to next stage" }).click();
  await expect(panel.getByRole("alert").filter({ hasText: "Moved to" })).toBeVisible();

  // The server's worker delivers it, signed with the secret the page showed once.
  await expect
    .poll(() => receiver.received.filter((r) => r.path.endsWith(indexNumber)).length, {
      timeout: 15_000,
    })
    .toBe(1);
  const [delivery] = receiver.received.filter((r) => r.path.endsWith(indexNumber));
  expect(verified(secret, delivery!.headers, delivery!.body)).toBe(true);
  expect(JSON.parse(delivery!.body)).toMatchObject({
    type: "submission.stage_changed",
    submission: { indexNumber },
    data: { from: "awaiting_review", to: "sent_to_department" },
  });

  await page.goto("/admin/webhooks");
  await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  await page.getByRole("button", { name: `Delivery log of ${hookUrl}` }).click();
  const log = page.getByRole("region", { name: `Delivery log of ${hookUrl}` });
  const logRow = log.getByRole("row").filter({ hasText: "Stage changed" });
  await expect(logRow).toContainText("Delivered");
  await expect(logRow).toContainText("HTTP 200");
  await expectAccessible(page);

  await logRow.getByRole("button", { name: /^Send again/ }).click();
  await expect(log.getByRole("alert")).toContainText("will be sent again");
  await expect
    .poll(() => receiver.received.filter((r) => r.path.endsWith(indexNumber)).length, {
      timeout: 15_000,
    })
    .toBe(2);

  // Phone width: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await api.dispose();
});

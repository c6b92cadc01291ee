import fs from "node:fs";
import {
  expect,
  test,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from "@playwright/test";
import { pngRenamedAsPdf, validPdf, writeLargePdf } from "../testing/pdf-fixtures.js";
import { expectAccessible } from "./support/axe.js";
import { tabTo } from "./support/keyboard.js";
import { factValue } from "./support/lines.js";
import { waitForMail } from "./support/mail.js";
import {
  adminApi,
  baseUrl,
  createSubmission,
  scrollWidth,
  signInAsAdmin,
  signInAsNewStudent,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 8: the student uploads the thesis (with its title and abstract) and the forms from the
 * status page; the school opens, returns and accepts them in the details panel. Every submission
 * here is made by the test itself, so no sample record is read or changed.
 */

const MEGABYTE = 1024 * 1024;

/** The date the product shows for something received today (the server dates it in UTC). */
function todayInWords(): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date(new Date().toISOString().slice(0, 10)));
}

async function newSubmission(tag: string) {
  const api = await adminApi();
  try {
    return await createSubmission(api, {
      studentName: `Akosua ${unique(tag).replace(/-/g, "")}`,
      indexNumber: uniqueIndexNumber(),
      programme: "MPhil Geography",
    });
  } finally {
    await api.dispose();
  }
}

/** A second browser, signed in as the new student of `indexNumber`. */
async function studentBrowser(
  browser: Browser,
  indexNumber: string,
  tag: string,
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const email = await signInAsNewStudent(page, indexNumber, tag);
  return { context, page, email };
}

/** One checklist item's row in the student's "Your documents". */
function studentRow(page: Page, label: string): Locator {
  return page
    .getByRole("region", { name: "Your documents" })
    .getByRole("listitem", { name: label, exact: true });
}

function rowChip(row: Locator): Locator {
  return row.locator(".document__head .chip");
}

function listRows(page: Page): Locator {
  return page.locator("table.submissions-table tbody tr");
}

/**
 * The list narrowed to the submission and to those with a document waiting for review (the
 * filter goes into the address), then its details panel.
 */
async function openWaitingSubmission(page: Page, indexNumber: string): Promise<Locator> {
  await page.goto(`/admin/all_submissions?q=${encodeURIComponent(indexNumber)}`);
  await expect(listRows(page)).toHaveCount(1);
  await page.locator("summary", { hasText: /^Filters/ }).click();
  await page
    .getByRole("combobox", { name: "Documents", exact: true })
    .selectOption({ label: "Waiting for review" });
  await expect(page).toHaveURL(/[?&]documents=waiting(&|$)/);
  await expect(listRows(page)).toHaveCount(1);
  await listRows(page).first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  await expect(factValue(panel, "Index Number")).toHaveText(indexNumber);
  return panel;
}

/** One checklist item in the panel's Documents section. */
function reviewEntry(panel: Locator, label: string): Locator {
  return panel
    .getByRole("region", { name: "Documents", exact: true })
    .getByRole("listitem")
    .filter({ has: panel.page().getByRole("heading", { level: 4, name: label, exact: true }) });
}

test("a student uploads the thesis with its title and abstract and the Turnitin report; the school returns the report, the student sends it again, and the school accepts it", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const submission = await newSubmission("Documents");
  const title = `Groundwater recharge in the Volta basin ${unique("title")}`;
  const abstract =
    "This thesis measures how much rain reaches the aquifers of the Volta basin, and when.";
  const reason =
    "The similarity report is for an earlier draft. Please run it on the final thesis.";

  // A thesis of a few megabytes, written to disk in pieces, as a long thesis with figures is.
  const thesisFile = testInfo.outputPath("thesis-final.pdf");
  await writeLargePdf(thesisFile, 4 * MEGABYTE);
  const thesisBytes = fs.statSync(thesisFile).size;

  const student = await studentBrowser(browser, submission.indexNumber, "documents");
  try {
    await student.page.goto("/dashboard/status");
    const documents = student.page.getByRole("region", { name: "Your documents" });
    await expect(documents.getByRole("listitem", { name: /./ })).toHaveCount(5);
    await expect(documents).toContainText("0 of 5 accepted. 5 to upload.");

    // The thesis waits for its title and abstract.
    const thesis = studentRow(student.page, "Thesis");
    await expect(rowChip(thesis)).toHaveText("To upload");
    const thesisInput = thesis.getByLabel("Choose a PDF for the Thesis");
    await expect(thesisInput).toBeDisabled();
    await thesis.getByLabel("Thesis title").fill(title);
    await thesis.getByLabel("Abstract").fill(abstract);
    await thesis.getByRole("button", { name: "Save title and abstract" }).click();
    await expect(
      thesis.getByRole("status").filter({ hasText: "Title and abstract saved." }),
    ).toBeVisible();
    await expect(factValue(thesis, "Thesis title")).toHaveText(title);
    await expect(thesisInput).toBeEnabled();

    // Sending the thesis on a slow line (CDP throttles this page's uploads) shows real progress.
    const cdp = await student.context.newCDPSession(student.page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: MEGABYTE,
    });
    await thesisInput.setInputFiles(thesisFile);
    const progress = thesis.getByRole("progressbar", { name: "Uploading thesis-final.pdf" });
    await expect(progress).toBeVisible();
    await expect(rowChip(thesis)).toHaveText("Uploading");
    await expect
      .poll(async () => Number(await progress.getAttribute("aria-valuenow")), {
        message: "the progress bar moves between 0 and 100 while the file is sent",
      })
      .toBeGreaterThan(0);
    const partway = Number(await progress.getAttribute("aria-valuenow"));
    expect(partway).toBeLessThan(100);
    await expect(progress).toHaveAttribute("aria-valuetext", /^\d+%, [\d.]+( KB)? of 4\.0 MB$/);
    await expect(thesis.getByRole("button", { name: /^Cancel/ })).toBeVisible();
    await expect(
      thesis
        .getByRole("status")
        .filter({ hasText: "thesis-final.pdf uploaded. The school will review it." }),
    ).toBeVisible({ timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    await expect(progress).toHaveCount(0);
    await expect(rowChip(thesis)).toHaveText("With the school");
    await expect(thesis).toContainText(
      `Version 1 · ${(thesisBytes / MEGABYTE).toFixed(1)} MB · 1 page`,
    );

    // The Turnitin report, a small PDF.
    const turnitin = studentRow(student.page, "Turnitin report");
    await turnitin.getByLabel("Choose a PDF for the Turnitin report").setInputFiles({
      name: "turnitin-report.pdf",
      mimeType: "application/pdf",
      buffer: validPdf({ pages: 2 }),
    });
    await expect(
      turnitin
        .getByRole("status")
        .filter({ hasText: "turnitin-report.pdf uploaded. The school will review it." }),
    ).toBeVisible();
    await expect(rowChip(turnitin)).toHaveText("With the school");
    await expect(turnitin).toContainText("2 pages");
    await expect(documents).toContainText(
      "0 of 5 accepted. 2 with the school for review. 3 to upload.",
    );
    await expectAccessible(student.page);

    // The school: the thesis title in the panel, the thesis opens as a PDF.
    await signInAsAdmin(page);
    const panel = await openWaitingSubmission(page, submission.indexNumber);
    await expect(listRows(page).first()).toContainText("2 to review");
    await expect(factValue(panel, "Thesis title")).toHaveText(title);
    await panel.getByText("Thesis abstract").click();
    await expect(panel.locator(".thesis-abstract")).toContainText(abstract);
    const thesisEntry = reviewEntry(panel, "Thesis");
    await expect(thesisEntry).toContainText("Waiting for review");
    await expect(thesisEntry).toContainText("thesis-final.pdf");
    const openThesis = thesisEntry.getByRole("link", { name: "Open Thesis" });
    const href = await openThesis.getAttribute("href");
    expect(href).toMatch(/^\/api\/documents\/\d+\/file$/);
    await expect(openThesis).toHaveAttribute("target", "_blank");
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("application/pdf");
    expect(file.headers()["content-disposition"]).toMatch(/^inline; filename="thesis-final.pdf"/);
    expect(file.headers()["x-content-type-options"]).toBe("nosniff");
    const body = await file.body();
    expect(body.length).toBe(thesisBytes);
    expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const [tab] = await Promise.all([page.context().waitForEvent("page"), openThesis.click()]);
    // Chromium's own viewer shows it in the new tab (its pages are not in the DOM to read).
    await expect.poll(() => tab.url()).toBe(`${baseUrl()}${href}`);
    await expect.poll(() => tab.evaluate(() => document.contentType)).toBe("application/pdf");
    await tab.close();

    // Return the Turnitin report: the reason is required.
    const turnitinEntry = reviewEntry(panel, "Turnitin report");
    await turnitinEntry.getByRole("button", { name: "Return Turnitin report" }).click();
    const dialog = page.getByRole("dialog", { name: "Return Turnitin report" });
    const reasonField = dialog.getByLabel("Reason for returning it");
    await expect(reasonField).toBeFocused();
    await dialog.getByRole("button", { name: "Return to the student" }).click();
    await expect(reasonField).toHaveAttribute("aria-invalid", "true");
    await reasonField.fill(reason);
    await dialog.getByRole("button", { name: "Return to the student" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      panel
        .getByRole("status")
        .filter({ hasText: "Turnitin report returned to the student with your reason." }),
    ).toBeVisible();
    await expect(turnitinEntry.locator(".chip").first()).toContainText("Returned to the student");
    await expect(turnitinEntry.locator("blockquote")).toHaveText(reason);
    await expectAccessible(page);
    const returnedList = `/admin/all_submissions?documents=returned&q=${encodeURIComponent(submission.indexNumber)}`;
    await page.goto(returnedList);
    await expect(listRows(page)).toHaveCount(1);
    await expect(listRows(page).first()).toContainText("1 to review");

    // The student reads the reason in full (and by mail), and sends a new version.
    const mail = await waitForMail(student.email, (m) =>
      m.subject.includes("Turnitin report returned"),
    );
    expect(mail.text).toContain(reason);
    await student.page.reload();
    await expect(rowChip(turnitin)).toHaveText("Returned");
    await expect(turnitin.locator(".document__reason")).toContainText("Why the school returned it");
    await expect(turnitin.locator(".document__reason-text")).toHaveText(reason);
    await turnitin.getByLabel("Choose a PDF for the Turnitin report").setInputFiles({
      name: "turnitin-final.pdf",
      mimeType: "application/pdf",
      buffer: validPdf({ pages: 3 }),
    });
    await expect(
      turnitin
        .getByRole("status")
        .filter({ hasText: "turnitin-final.pdf uploaded. The school will review it." }),
    ).toBeVisible();
    await expect(rowChip(turnitin)).toHaveText("With the school");
    await expect(turnitin.locator(".document__reason")).toHaveCount(0);

    // The school: the report is no longer among the returned ones; it accepts the new version.
    await page.reload();
    await expect(page.getByText("No submission matches")).toBeVisible();
    const reopened = await openWaitingSubmission(page, submission.indexNumber);
    const newTurnitin = reviewEntry(reopened, "Turnitin report");
    await expect(newTurnitin).toContainText("turnitin-final.pdf");
    await expect(newTurnitin).toContainText("Waiting for review");
    await newTurnitin.getByRole("button", { name: "Accept Turnitin report" }).click();
    const today = todayInWords();
    await expect(
      reopened.getByRole("status").filter({
        hasText: `Turnitin report accepted: the checklist shows it received on ${today}.`,
      }),
    ).toBeVisible();
    await expect(newTurnitin.locator(".chip").first()).toContainText(`Accepted ${today}`);

    // The student's row shows the date; the first version is listed as returned, with its reason.
    await student.page.reload();
    await expect(rowChip(turnitin)).toHaveText("Accepted");
    await expect(turnitin.locator(".document__state")).toHaveText(`Accepted on ${today}`);
    await expect(turnitin.getByLabel("Choose a PDF for the Turnitin report")).toHaveCount(0);
    await turnitin.getByText("Earlier versions (1)").click();
    const earlier = turnitin.locator(".versions__item");
    await expect(earlier).toHaveCount(1);
    await expect(earlier).toContainText("turnitin-report.pdf");
    await expect(earlier).toContainText(`Version 1`);
    await expect(earlier).toContainText(`Returned on ${today}`);
    await expect(earlier).toContainText(`Reason: ${reason}`);
    await expect(documents).toContainText(
      "1 of 5 accepted. 1 with the school for review. 3 to upload.",
    );
    await expectAccessible(student.page);
  } finally {
    await student.context.close();
  }
});

test("on a 360 px phone a file that is not a PDF is refused in its row, naming the file, and a PDF chosen with the keyboard goes through; another student cannot read it", async ({
  browser,
  playwright,
}) => {
  const mine = await newSubmission("Owner");
  const theirs = await newSubmission("Other");
  const owner = await studentBrowser(browser, mine.indexNumber, "owner", {
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const other = await studentBrowser(browser, theirs.indexNumber, "other");
  try {
    await owner.page.goto("/dashboard/status");
    const form = studentRow(owner.page, "Supervisor form");
    await expect(rowChip(form)).toHaveText("To upload");
    const input = form.getByLabel("Choose a PDF for the Supervisor form");
    const button = form.locator("label.dropzone__button");
    // A target a thumb can hit.
    expect((await button.boundingBox())?.height).toBeGreaterThanOrEqual(44);

    // A photo renamed .pdf passes the browser's check on the name; the server reads the bytes.
    const answered = owner.page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith("/documents/supervisorForm"),
    );
    await input.setInputFiles({
      name: "supervisor-form.pdf",
      mimeType: "application/pdf",
      buffer: pngRenamedAsPdf(),
    });
    const refusal = await answered;
    expect(refusal.status()).toBe(400);
    expect(((await refusal.json()) as { reason: string }).reason).toBe("not_pdf");
    const alert = form.getByRole("alert");
    await expect(alert).toContainText("supervisor-form.pdf is not a PDF.");
    await expect(rowChip(form)).toHaveText("To upload");
    // A refused file is not worth sending again as it is.
    await expect(alert.getByRole("button", { name: /Try again/ })).toHaveCount(0);
    await expect(input).toBeEnabled();
    expect(await scrollWidth(owner.page)).toBeLessThanOrEqual(360);
    await expectAccessible(owner.page);

    // A real PDF, chosen with the keyboard: Tab reaches the input (its focus shows on the
    // button), Space opens the file chooser.
    await tabTo(owner.page, input);
    await expect(button).toHaveCSS("outline-style", "solid");
    const chooser = owner.page.waitForEvent("filechooser");
    await owner.page.keyboard.press("Space");
    await (
      await chooser
    ).setFiles({
      name: "supervisor-form.pdf",
      mimeType: "application/pdf",
      buffer: validPdf(),
    });
    await expect(rowChip(form)).toHaveText("With the school");
    await expect(form.getByRole("alert")).toHaveCount(0);
    await expect(form).toContainText("Version 1");
    expect(await scrollWidth(owner.page)).toBeLessThanOrEqual(360);

    const listed = await owner.page.request.get(
      `/api/submissions/${encodeURIComponent(mine.indexNumber)}/documents`,
    );
    expect(listed.status()).toBe(200);
    const { data } = (await listed.json()) as {
      data: { items: { item: string; current: { href: string } | null }[] };
    };
    const href = data.items.find((slot) => slot.item === "supervisorForm")?.current?.href;
    expect(href).toMatch(/^\/api\/documents\/\d+\/file$/);

    // Its student reads it; another student gets nothing, not even that it exists; nor does anyone
    // signed out.
    const own = await owner.page.request.get(href!);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toBe("application/pdf");
    const refused = await other.page.request.get(href!);
    expect(refused.status()).toBe(404);
    expect(refused.headers()["content-type"]).not.toBe("application/pdf");
    expect(await refused.text()).not.toContain("supervisor-form.pdf");
    const theirList = await other.page.request.get(
      `/api/submissions/${encodeURIComponent(mine.indexNumber)}/documents`,
    );
    expect(theirList.status()).toBe(403);
    const anonymous = await playwright.request.newContext({ baseURL: baseUrl() });
    expect((await anonymous.get(href!)).status()).toBe(401);
    await anonymous.dispose();
  } finally {
    await owner.context.close();
    await other.context.close();
  }
});

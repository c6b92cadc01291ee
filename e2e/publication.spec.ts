import Database from "better-sqlite3";
import { expect, test, type APIResponse } from "@playwright/test";
import { validPdf } from "../testing/pdf-fixtures.js";
import { expectAccessible } from "./support/axe.js";
import { readState } from "./support/state.js";
import {
  adminApi,
  createSubmission,
  sameOrigin,
  scrollWidth,
  signInAsAdmin,
  signInAsNewStudent,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 20, publication: the student fills the metadata, accepts the licence and chooses a
 * 1-year embargo on the status page; the administrator reviews the record in the details panel,
 * sets the school's part and confirms, and the thesis is published with its file under embargo;
 * the administrator deposits it to the repository (the tests' SWORD v2 endpoint, started by
 * global setup) and sees its handle; the public page shows the metadata and no file link, and its
 * HTML, fetched without a browser, carries the citation tags; once the embargo's end has passed,
 * the file link appears and the download gives the thesis the student uploaded.
 */
async function ok(answer: APIResponse, what: string) {
  expect(answer.status(), `${what}: ${await answer.text()}`).toBeLessThan(300);
  return (await answer.json()) as { data: { id: number } };
}

/** The content of each <meta name="…"> of that name in a page's HTML, in order. */
function metaContents(html: string, name: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<meta\s+name="([^"]+)"\s+content="([^"]*)"/g)) {
    if (match[1] === name) found.push(match[2] ?? "");
  }
  return found;
}

test("the student fills the metadata, accepts the licence and chooses a 1-year embargo; the administrator confirms and deposits; the public page keeps the file until the embargo ends", async ({
  page,
  browser,
}) => {
  const api = await adminApi();
  const index = uniqueIndexNumber();
  // A record whose outcome the school typed as "Pass": final, as the sample list's records are.
  const submission = await createSubmission(api, {
    studentName: `Ama Mensah ${unique("pub")}`,
    indexNumber: index,
    programme: "MPhil Economics",
    thesisStatus: "Pass",
  });

  await signInAsNewStudent(page, index, "publication");
  const details = await page.request.put(`/api/submissions/${index}/thesis`, {
    data: {
      title: "Rainfall Variability and Maize Yields in the Northern Savannah",
      abstract: "How rainfall shapes maize yields across three districts over twenty seasons.",
    },
    headers: sameOrigin(),
  });
  expect(details.status(), await details.text()).toBe(200);
  // The final thesis, uploaded and accepted: the file the public page serves after the embargo.
  const thesisPdf = validPdf({ pages: 2 });
  const uploaded = await ok(
    await page.request.post(`/api/submissions/${index}/documents/thesis`, {
      multipart: {
        file: { name: "thesis-final.pdf", mimeType: "application/pdf", buffer: thesisPdf },
      },
      headers: sameOrigin(),
    }),
    "upload the thesis",
  );
  await ok(
    await api.post(`/api/admin/documents/${uploaded.data.id}/accept`, { data: {} }),
    "accept the thesis",
  );

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/dashboard/status");
  // The section loads as the student scrolls near it (web/components/ui/WhenNear.tsx): scroll
  // down to the details below it, as a student would.
  await page.getByRole("heading", { name: "Submission Details" }).scrollIntoViewIfNeeded();
  const section = page.getByRole("region", { name: "Publication" });
  await expect(section).toBeVisible();

  // A bad ORCID iD is refused by name, next to its field.
  await section.getByLabel("Keywords").fill("maize, rainfall, Northern Savannah");
  await section.getByLabel("Language of the thesis").selectOption("eng");
  await section.getByLabel("Supervisor 1: name").fill("Prof. Kofi Mensah");
  await section.getByLabel("Supervisor 1: ORCID iD (optional)").fill("0000-0002-1825-0098");
  await section.getByRole("button", { name: "Save details" }).click();
  await expect(
    section.getByText("is not a valid ORCID iD (its check digit is wrong)"),
  ).toBeVisible();
  await expect(section.getByLabel("Supervisor 1: ORCID iD (optional)")).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await section.getByLabel("Supervisor 1: ORCID iD (optional)").fill("0000-0002-1825-0097");
  await section.getByRole("button", { name: "Save details" }).click();
  await expect(
    section.getByRole("alert").filter({ hasText: "Your details were saved." }),
  ).toBeVisible();

  // The licence: read, ticked, accepted.
  await expect(section.getByRole("region", { name: /Licence, version \d+/ })).toBeVisible();
  await section.getByLabel(/I have read version \d+ of the licence and accept it/).check();
  await section.getByRole("button", { name: "Accept the licence" }).click();
  await expect(section.getByText(/You accepted version \d+ on/)).toBeVisible();

  // The embargo: one year, by keyboard.
  await section.getByLabel("1 year").focus();
  await page.keyboard.press("Space");
  await expect(section.getByLabel("1 year")).toBeChecked();
  await section.getByRole("button", { name: "Save embargo choice" }).click();
  await expect(section.getByText("Your embargo choice was saved.")).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await expectAccessible(page);

  // The administrator confirms in the details panel.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsAdmin(admin);
  await admin.goto(`/admin/all_submissions?q=${index}&open=${submission.id}`);
  const panel = admin.getByRole("dialog", { name: "Submission Details" });
  const review = panel.getByRole("region", { name: "Publication" });
  await expect(review).toBeVisible();
  await expect(review.getByText("The school's confirmation of the metadata")).toBeVisible();
  await expect(review.getByLabel("Keywords")).toHaveValue("maize, rainfall, Northern Savannah");
  await review.getByLabel("Degree").selectOption({ label: "Master of Philosophy (MPhil)" });
  await review.getByLabel("Department").fill("Department of Agricultural Economics");
  await review.getByLabel("Examination date").fill("2026-05-04");
  await review.getByLabel("Award date").fill("2026-07-20");
  await review.getByRole("button", { name: "Confirm metadata" }).click();
  await expect(review.getByText("Published", { exact: true })).toBeVisible();
  await expect(review.getByRole("link", { name: "Public page" })).toHaveAttribute(
    "href",
    `/theses/${submission.id}`,
  );
  await expect(review.getByText("1 year, until 20 July 2027")).toBeVisible();
  await expectAccessible(admin);

  // The administrator deposits it to the repository and sees the handle it was given.
  const library = panel.getByRole("region", { name: "Repository and library" });
  await library.getByRole("button", { name: "Deposit to repository" }).click();
  await expect(library.getByText(/Deposited on/)).toBeVisible({ timeout: 30_000 });
  await expect(library.getByRole("link", { name: /\/handle\// })).toBeVisible();

  // The student sees where the thesis is published, and that the file waits for the embargo.
  await page.reload();
  await page.getByRole("heading", { name: "Submission Details" }).scrollIntoViewIfNeeded();
  await expect(section.getByText("Where it stands: Published")).toBeVisible();
  await expect(section.getByRole("link", { name: `/theses/${submission.id}` })).toBeVisible();
  await expect(section.getByText(/available from 20 July 2027/)).toBeVisible();
  await expect(section.getByRole("button", { name: "Save details" })).toHaveCount(0);

  // The public page: the metadata, and no file while the embargo runs.
  // A reader without an account, in a browser context of its own.
  const publicContext = await browser.newContext();
  const publicPage = await publicContext.newPage();
  await publicPage.goto(`/theses/${submission.id}`);
  await expect(
    publicPage.getByRole("heading", {
      name: "Rainfall Variability and Maize Yields in the Northern Savannah",
    }),
  ).toBeVisible();
  await expect(publicPage.getByText("Prof. Kofi Mensah")).toBeVisible();
  await expect(publicPage.getByText("Available from 20 July 2027")).toBeVisible();
  await expect(publicPage.getByRole("link", { name: /Download PDF/ })).toHaveCount(0);
  await expectAccessible(publicPage);

  // What a crawler reads, without running any script: the citation tags, no PDF address yet.
  const crawled = await publicPage.request.get(`/theses/${submission.id}`);
  expect(crawled.status()).toBe(200);
  const html = await crawled.text();
  expect(metaContents(html, "citation_title")).toEqual([
    "Rainfall Variability and Maize Yields in the Northern Savannah",
  ]);
  expect(metaContents(html, "citation_author")).toEqual([submission.studentName]);
  expect(metaContents(html, "citation_pdf_url")).toEqual([]);
  expect((await publicPage.request.get(`/theses/${submission.id}/file`)).status()).toBe(404);

  // The embargo's end passes. The server's clock cannot be moved from outside, so its end date is
  // moved back to yesterday instead: the server compares the two on every read (the lifting job
  // and its clock are tested in server/publication/embargo.test.ts).
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const database = new Database(readState().databasePath);
  try {
    database.pragma("busy_timeout = 5000");
    const moved = database
      .prepare("update publications set embargo_until = ? where submission_id = ?")
      .run(yesterday, submission.id);
    expect(moved.changes).toBe(1);
  } finally {
    database.close();
  }

  await publicPage.reload();
  const download = publicPage.getByRole("link", { name: /Download PDF/ });
  await expect(download).toBeVisible();
  const file = await publicPage.request.get((await download.getAttribute("href")) ?? "");
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toContain("application/pdf");
  expect(Buffer.from(await file.body()).equals(thesisPdf)).toBe(true);
  const recrawled = await (await publicPage.request.get(`/theses/${submission.id}`)).text();
  expect(metaContents(recrawled, "citation_pdf_url")).toHaveLength(1);

  await publicContext.close();
  await adminContext.close();
  await api.dispose();
});

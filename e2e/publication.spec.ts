import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
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
 * sets the school's part and confirms, and the thesis is published with its file under embargo.
 * (The deposit and the public page come with the library and public slices.)
 */
test("the student fills the metadata, accepts the licence and chooses a 1-year embargo; the administrator confirms and the thesis is published under embargo", async ({
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

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/dashboard/status");
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

  // The student sees where the thesis is published, and that the file waits for the embargo.
  await page.reload();
  await expect(section.getByText("Where it stands: Published")).toBeVisible();
  await expect(section.getByRole("link", { name: `/theses/${submission.id}` })).toBeVisible();
  await expect(section.getByText(/available from 20 July 2027/)).toBeVisible();
  await expect(section.getByRole("button", { name: "Save details" })).toHaveCount(0);

  await adminContext.close();
  await api.dispose();
});

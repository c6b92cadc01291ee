import { expect, test, type Page } from "@playwright/test";
import { readmeSampleStudent } from "../testing/sample-students.js";
import { codeFrom, waitForMail } from "./support/mail.js";
import { signInAsNewStudent, uniqueEmail } from "./support/app.js";

/**
 * Issue 23: a newcomer signs up with an index number from the README's "Sample students to try"
 * and finds a student in that state. Each test takes a different sample record and only reads it.
 */

function documentsRegion(page: Page) {
  return page.getByRole("region", { name: "Your documents" });
}

function row(page: Page, label: string) {
  return documentsRegion(page).getByRole("listitem", { name: label, exact: true });
}

test("a newcomer signs up with the README's 'nothing received' index number and can upload every document", async ({
  page,
}) => {
  const indexNumber = readmeSampleStudent("nothing_received");
  const email = uniqueEmail("sample-newcomer");
  await page.goto("/auth/signup");
  await page.getByLabel("Institutional email").fill(email);
  await page.getByLabel("Index Number").fill(indexNumber);
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  const code = codeFrom(await waitForMail(email));

  await page.getByLabel("Student email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/dashboard/status");
  await expect(documentsRegion(page)).toContainText("0 of 5 accepted. 5 to upload.");
  await expect(
    row(page, "Turnitin report").getByLabel("Choose a PDF for the Turnitin report"),
  ).toBeEnabled();
  await expect(row(page, "Thesis").getByLabel("Thesis title")).toBeEditable();
});

test("the README's 'returned' student sees the returned document with the school's reason", async ({
  page,
}) => {
  await signInAsNewStudent(page, readmeSampleStudent("returned"), "sample-returned");
  await page.goto("/dashboard/status");
  const turnitin = row(page, "Turnitin report");
  await expect(turnitin.locator(".document__head .chip")).toHaveText("Returned");
  await expect(turnitin).toContainText("The similarity report stops after its first page.");
  await expect(turnitin.getByLabel("Choose a PDF for the Turnitin report")).toBeEnabled();
});

test("the README's 'with examiners' student sees the thesis with the examiners", async ({
  page,
}) => {
  await signInAsNewStudent(page, readmeSampleStudent("with_examiners"), "sample-examiners");
  await page.goto("/dashboard/status");
  const examination = page.getByRole("region", { name: "Examination" });
  await expect(examination).toContainText("Thesis sent to the internal examiner on");
  await expect(examination).toContainText("Report not received yet");
  await expect(examination).not.toContainText("Outcome");
});

test("the README's 'corrections to upload' student sees the corrections and can upload the thesis again", async ({
  page,
}) => {
  await signInAsNewStudent(
    page,
    readmeSampleStudent("corrections_to_upload"),
    "sample-corrections",
  );
  await page.goto("/dashboard/status");
  const examination = page.getByRole("region", { name: "Examination" });
  await expect(examination).toContainText("Minor corrections");
  await expect(examination).toContainText("Upload your corrected thesis in Your documents.");
  await expect(row(page, "Thesis").getByLabel("Choose a PDF for the Thesis")).toBeEnabled();
});

test("the README's 'final' student sees the released outcome and nothing left to upload", async ({
  page,
}) => {
  await signInAsNewStudent(page, readmeSampleStudent("final"), "sample-final");
  await page.goto("/dashboard/status");
  await expect(page.getByRole("region", { name: "Examination" })).toContainText("Pass");
  await expect(documentsRegion(page)).toContainText("The school has accepted all your documents.");
  await expect(documentsRegion(page).getByLabel(/^Choose a PDF/)).toHaveCount(0);
});

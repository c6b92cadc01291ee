import fs from "node:fs";
import ExcelJS from "exceljs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
import { csvRecords, toCsv } from "./support/csv.js";
import { factValue } from "./support/lines.js";
import { waitForMail } from "./support/mail.js";
import {
  adminApi,
  createSubmission,
  findSubmission,
  sampleRecord,
  sampleRecords,
  signInAsAdmin,
  signInAsNewStudent,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 5: moving a submission along and what the student sees of it, import, export and bulk
 * updates. Sample record changed here: 2 (no other test reads it). The "Kpodo" rows are read.
 */

const PLACEHOLDER = "search according to name or index number";

function rows(page: Page): Locator {
  return page.locator("table.submissions-table tbody tr");
}

async function search(page: Page, term: string): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.url().includes("/api/submissions?") && new URL(r.url()).searchParams.get("q") === term,
  );
  await page.getByPlaceholder(PLACEHOLDER).fill(term);
  expect((await answered).status()).toBe(200);
}

function statusLine(page: Page, label: string): Locator {
  return factValue(page.getByRole("region", { name: "Submission Status" }), label);
}

test("advancing a submission shows the student the new stage, its date, a message and a mail", async ({
  page,
  browser,
}) => {
  // Record 2: Sent to Department; the next stage is Nominations Ready.
  const record = sampleRecord(2);
  expect(record.SGSAdmin).toBe("Sent to Department");

  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  try {
    const studentEmail = await signInAsNewStudent(student, record.IndexNumber, "advance");
    await student.goto("/dashboard/status");
    await expect(statusLine(student, "Sent to Department")).toHaveText("Completed");
    await expect(statusLine(student, "Nominations Ready")).toHaveText("Pending");
    // Broadcasts from other tests may be there; this move's message is not.
    const unreadBefore = (
      (await (await student.request.get("/api/messages")).json()) as { unreadCount: number }
    ).unreadCount;
    await student.goto("/dashboard/messages");
    await expect(student.getByRole("heading", { level: 1, name: "MESSAGES" })).toBeVisible();
    await expect(student.getByRole("article").filter({ hasText: "Nominations Ready" })).toHaveCount(
      0,
    );

    // The administrator moves it on from the details panel.
    await signInAsAdmin(page);
    await page.goto(`/admin/all_submissions?q=${record.IndexNumber}`);
    await rows(page).first().click();
    const panel = page.getByRole("dialog", { name: "Submission Details" });
    await expect(panel.getByText("Next: Nominations Ready")).toBeVisible();
    await panel.getByRole("button", { name: "Advance to next stage" }).click();
    await expect(
      panel.getByRole("alert").filter({ hasText: "Moved to Nominations Ready." }),
    ).toBeVisible();
    await expect(panel.getByTestId("marker-SGS Admin")).toContainText("Nominations Ready");
    await expect(rows(page).first()).toContainText("SGS: Nominations Ready");
    // The panel's history records the move.
    await expect(panel.getByRole("region", { name: "History" })).toContainText("Nominations Ready");

    // The student's status, stepper date, message and mail.
    await student.goto("/dashboard/status");
    await expect(statusLine(student, "Nominations Ready")).toHaveText("Completed");
    const step = student.locator("li.stepper__step").filter({
      has: student.getByRole("heading", { level: 3, name: /^Nominations Ready/ }),
    });
    await expect(step.getByRole("heading", { level: 3 })).toHaveText("Nominations Ready Done");
    const stepDate = step.locator("time.stepper__date").first();
    await expect(stepDate).toHaveAttribute(
      "datetime",
      new RegExp(`^${new Date().toISOString().slice(0, 10)}`),
    );
    await expect(student.locator('li.stepper__step[aria-current="step"]')).toContainText(
      "With the examiners",
    );

    const timeline = await student.request.get(`/api/submissions/${record.IndexNumber}/timeline`);
    expect(timeline.status()).toBe(200);
    const { items } = (await timeline.json()) as { items: { at: string; label: string }[] };
    expect(items.map((i) => i.label)).toContain("Nominations Ready");

    const tabs = student.getByRole("navigation", { name: "Student dashboard" });
    await expect(tabs.getByRole("link", { name: /messages/ })).toContainText(
      `${unreadBefore + 1} unread`,
    );
    await tabs.getByRole("link", { name: /messages/ }).click();
    const message = student.getByRole("article").filter({ hasText: "Nominations Ready" });
    await expect(message.getByRole("heading", { level: 2 })).toContainText("Nominations Ready");
    await expect(message).toContainText(
      `Your thesis submission (${record.IndexNumber}) has been updated`,
    );
    await expectAccessible(student);
    await message.getByRole("button", { name: "Mark as read" }).click();
    await expect(message.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
    if (unreadBefore === 0) {
      await expect(student.getByText("All messages read.")).toBeVisible();
      await expect(tabs.getByRole("link", { name: /messages/ })).not.toContainText("unread");
    } else {
      await expect(tabs.getByRole("link", { name: /messages/ })).toContainText(
        `${unreadBefore} unread`,
      );
    }

    const mail = await waitForMail(studentEmail, (m) => m.subject.includes("Nominations Ready"));
    expect(mail.text).toContain(record.IndexNumber);
    expect(mail.text).toContain("Nominations Ready");
  } finally {
    await studentContext.close();
  }
});

test("an import with one bad row is refused with its row number and changes nothing; a good one is applied", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const tag = unique("Imported").replace(/-/g, "");
  const header = ["StudentName", "IndexNumber", "Programme", "Contact", "SGSAdmin"];
  const good1 = [
    `Kofi ${tag}`,
    uniqueIndexNumber(),
    "MA History",
    "024 111 2222",
    "Sent to Department",
  ];
  const good2 = [`Esi ${tag}`, uniqueIndexNumber(), "MSc Statistics", "", ""];
  const bad = [`Yaw ${tag}`, uniqueIndexNumber(), "MA History", "", "Sent to Nowhere"];
  const badCsv = toCsv([header, good1, bad]);

  await page.goto("/admin/import");
  await expect(page.getByRole("heading", { level: 1, name: "Import / Export" })).toBeVisible();
  const fileInput = page.getByLabel("Spreadsheet (CSV or XLSX)");
  await fileInput.setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(badCsv),
  });
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(
    page.getByRole("heading", { name: "This file cannot be imported yet" }),
  ).toBeVisible();
  const problems = page
    .getByRole("table")
    .filter({ has: page.getByRole("columnheader", { name: "Problem" }) });
  await expect(problems.locator("tbody tr")).toHaveCount(1);
  await expect(problems.locator("tbody tr td").nth(0)).toHaveText("3");
  await expect(problems.locator("tbody tr td").nth(1)).toHaveText("SGSAdmin");
  await expect(page.getByRole("button", { name: "Apply import" })).toHaveCount(0);
  await expectAccessible(page);

  // Applying it anyway (straight to the API) is refused whole: the good row is not imported either.
  const api = await adminApi();
  const refused = await api.post("/api/admin/import/apply", {
    multipart: { file: { name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(badCsv) } },
  });
  expect(refused.status()).toBe(400);
  const refusal = (await refused.json()) as { errors: { row: number; column: string | null }[] };
  expect(refusal.errors).toEqual([expect.objectContaining({ row: 3, column: "SGSAdmin" })]);
  const none = (await (await api.get("/api/submissions", { params: { q: tag } })).json()) as {
    total: number;
  };
  expect(none.total).toBe(0);

  // A good file: checked, then applied.
  await fileInput.setInputFiles({
    name: "good.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(toCsv([header, good1, good2])),
  });
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByRole("heading", { name: "Ready to import good.csv" })).toBeVisible();
  await expect(factValue(page.locator(".import-preview"), "New submissions")).toHaveText("2");
  await page.getByRole("button", { name: "Apply import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Import complete" })).toContainText(
    "2 new submissions added",
  );

  await page.goto("/admin/all_submissions");
  await search(page, tag.toLowerCase());
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).filter({ hasText: good1[1]! })).toContainText("SGS: Sent to Department");
  await expect(rows(page).filter({ hasText: good2[1]! })).toContainText(good2[0]!.toUpperCase());
  const imported = await findSubmission(api, good1[1]!);
  expect(imported).toMatchObject({
    studentName: good1[0],
    programme: "MA History",
    sgsStage: "sent_to_department",
  });
  await api.dispose();
});

test("export downloads the listed submissions as CSV and as XLSX", async ({ page }) => {
  await signInAsAdmin(page);
  const expected = sampleRecords()
    .filter((r) => r.StudentName?.toLowerCase().includes("kpodo"))
    .map((r) => r.IndexNumber)
    .sort();
  expect(expected.length).toBeGreaterThan(1);
  await page.goto("/admin/all_submissions?q=kpodo");
  await expect(rows(page)).toHaveCount(expected.length);

  const csvDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toMatch(/\.csv$/);
  const records = csvRecords(fs.readFileSync((await csvFile.path())!, "utf8"));
  expect(records.map((r) => r.IndexNumber).sort()).toEqual(expected);
  const first = sampleRecords().find((r) => r.IndexNumber === records[0]!.IndexNumber)!;
  expect(records[0]).toMatchObject({ StudentName: first.StudentName, Programme: first.Programme });

  const xlsxDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export XLSX" }).click();
  const xlsxFile = await xlsxDownload;
  expect(xlsxFile.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsxFile.path())!);
  const sheet = workbook.worksheets[0]!;
  const headerRow = (sheet.getRow(1).values as unknown[]).map(String);
  const indexColumn = headerRow.indexOf("IndexNumber");
  expect(indexColumn).toBeGreaterThan(0);
  const indexNumbers: string[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) indexNumbers.push(String(row.getCell(indexColumn).value));
  });
  expect(indexNumbers.sort()).toEqual(expected);
});

test("bulk update sets one stage on three selected rows", async ({ page }) => {
  const api = await adminApi();
  const tag = unique("Bulk").replace(/-/g, "");
  const created = [];
  for (const first of ["Abena", "Kwesi", "Efua"]) {
    created.push(
      await createSubmission(api, {
        studentName: `${first} ${tag}`,
        indexNumber: uniqueIndexNumber(),
        programme: "MPhil Economics",
        sgsStage: "sent_to_department",
      }),
    );
  }
  // One more row that must not change.
  const bystander = await createSubmission(api, {
    studentName: `Kojo ${tag}`,
    indexNumber: uniqueIndexNumber(),
    programme: "MPhil Economics",
    sgsStage: "sent_to_department",
  });

  await signInAsAdmin(page);
  await page.goto("/admin/all_submissions");
  await search(page, tag);
  await expect(rows(page)).toHaveCount(4);
  for (const s of created)
    await page.getByRole("checkbox", { name: `Select ${s.studentName}` }).check();
  const bulk = page.getByRole("region", { name: "3 selected" });
  await expect(bulk).toBeVisible();
  await bulk.getByLabel("Set", { exact: true }).selectOption({ label: "SGS Admin stage" });
  await bulk.getByLabel("To", { exact: true }).selectOption({ label: "Nominations Ready" });
  await expectAccessible(page);
  await bulk.getByRole("button", { name: "Apply to 3" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Updated 3 submissions" })).toContainText(
    "SGS Admin stage set to Nominations Ready",
  );

  for (const s of created) {
    await expect(rows(page).filter({ hasText: s.indexNumber })).toContainText(
      "SGS: Nominations Ready",
    );
    expect((await findSubmission(api, s.indexNumber)).sgsStage).toBe("nominations_ready");
  }
  await expect(rows(page).filter({ hasText: bystander.indexNumber })).toContainText(
    "SGS: Sent to Department",
  );
  expect((await findSubmission(api, bystander.indexNumber)).sgsStage).toBe("sent_to_department");
  await api.dispose();
});

test("a move that skips a stage asks for confirmation, and is saved and recorded only once confirmed", async ({
  page,
}) => {
  // Record 6: Sent to Department; Sent to Examiners skips Nominations Ready.
  const record = sampleRecord(6);
  expect(record.SGSAdmin).toBe("Sent to Department");
  await signInAsAdmin(page);
  await page.goto(`/admin/all_submissions?q=${record.IndexNumber}`);
  await rows(page).first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  await panel.getByLabel("SGS Admin stage").selectOption({ label: "Sent to Examiners" });
  await panel.getByRole("button", { name: "Save changes" }).click();

  const confirm = page.getByRole("alertdialog", { name: "Confirm out-of-order moves" });
  await expect(confirm).toContainText(
    "SGS Admin stage: Sent to Department → Sent to Examiners (skips ahead)",
  );
  await expect(confirm).toBeFocused();
  await expectAccessible(page);
  // Escape answers the question ("no") and leaves the panel open behind it.
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "Save changes" }).click();
  await confirm.getByRole("button", { name: "No, go back" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(
    panel.getByRole("status").or(panel.getByRole("alert")).filter({ hasText: "Not saved" }),
  ).toBeVisible();
  const api = await adminApi();
  expect((await findSubmission(api, record.IndexNumber)).sgsStage).toBe("sent_to_department");

  await panel.getByRole("button", { name: "Save changes" }).click();
  await confirm.getByRole("button", { name: "Yes, save these moves" }).click();
  await expect(
    panel.getByRole("alert").filter({ hasText: "Your changes have been saved." }),
  ).toBeVisible();
  await expect(panel.getByTestId("marker-SGS Admin")).toHaveAttribute("data-colour", "green");
  await expect(panel.getByTestId("marker-SGS Admin")).toContainText("Sent to Examiners");
  const history = panel.getByRole("region", { name: "History" }).locator("li").first();
  await expect(history).toContainText("Sent to Examiners");
  await expect(history).toContainText("Confirmed out of order");

  const saved = await findSubmission(api, record.IndexNumber);
  expect(saved.sgsStage).toBe("sent_to_examiners");
  const events = (await (await api.get(`/api/admin/submissions/${saved.id}/events`)).json()) as {
    items: { field: string; to: string | null; kind: string; confirmedOutOfOrder: boolean }[];
  };
  expect(events.items).toContainEqual(
    expect.objectContaining({
      field: "sgsStage",
      to: "sent_to_examiners",
      kind: "skip",
      confirmedOutOfOrder: true,
    }),
  );
  await api.dispose();
});

test("saving over someone else's change is refused with their change named, and keeps what was typed", async ({
  page,
}) => {
  // Record 20: nobody else edits it.
  const record = sampleRecord(20);
  await signInAsAdmin(page);
  await page.goto(`/admin/all_submissions?q=${record.IndexNumber}`);
  await rows(page).first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  const contact = panel.getByLabel("Contact", { exact: true });
  await contact.fill("020 999 0000");

  // Meanwhile another administrator saves a different field.
  const api = await adminApi();
  const before = await findSubmission(api, record.IndexNumber);
  const other = await api.patch(`/api/admin/submissions/${before.id}`, {
    data: { version: before.version, changes: { thesisStatus: "Corrections Required" } },
  });
  expect(other.status()).toBe(200);

  await panel.getByRole("button", { name: "Save changes" }).click();
  const warning = panel.getByRole("alert").filter({ hasText: "Not saved" });
  await expect(warning).toContainText("Someone else changed this submission");
  await expect(warning).toContainText("They changed: Thesis Status.");
  await expect(contact).toHaveValue("020 999 0000");
  await expect(panel.getByLabel("Thesis Status", { exact: true })).toHaveValue(
    "Corrections Required",
  );
  expect((await findSubmission(api, record.IndexNumber)).contact).toBe(record.Contact);

  // Saving again, now on their version, keeps both changes.
  await panel.getByRole("button", { name: "Save changes" }).click();
  await expect(
    panel.getByRole("alert").filter({ hasText: "Your changes have been saved." }),
  ).toBeVisible();
  const after = await findSubmission(api, record.IndexNumber);
  expect(after).toMatchObject({ contact: "020 999 0000", thesisStatus: "Corrections Required" });
  await api.dispose();
});

test("a notice to one student reaches only them (with a mail); a broadcast, once confirmed, reaches everyone", async ({
  page,
  browser,
}) => {
  // Records 21 and 49: accounts made here and nowhere else.
  const addressee = sampleRecord(21);
  const bystander = sampleRecord(49);
  const contexts = [await browser.newContext(), await browser.newContext()];
  const [one, other] = [await contexts[0]!.newPage(), await contexts[1]!.newPage()];
  try {
    const email = await signInAsNewStudent(one, addressee.IndexNumber, "notice");
    await signInAsNewStudent(other, bystander.IndexNumber, "bystander");
    const title = `Bring your Turnitin report ${unique("t")}`;

    await signInAsAdmin(page);
    await page.goto("/admin/notices");
    await expect(page.getByRole("heading", { level: 1, name: "Notices" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("radio", { name: "One student, by index number" }).check();
    await page.getByRole("textbox", { name: "Index number" }).fill(addressee.IndexNumber);
    await page.getByLabel("Title (optional)").fill(title);
    await page
      .getByLabel("Message", { exact: true })
      .fill("Please bring a printed copy to the SGS office.");
    await page.getByRole("button", { name: "Send notice" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Notice sent" })).toBeVisible();

    await one.goto("/dashboard/messages");
    await expect(one.getByRole("article").filter({ hasText: title })).toContainText(
      "Please bring a printed copy to the SGS office.",
    );
    await other.goto("/dashboard/messages");
    await expect(other.getByRole("heading", { level: 1, name: "MESSAGES" })).toBeVisible();
    await expect(other.getByRole("article").filter({ hasText: title })).toHaveCount(0);
    const mail = await waitForMail(email, (m) => m.subject.includes(title));
    expect(mail.text).toContain("Please bring a printed copy to the SGS office.");

    // A broadcast asks first.
    const broadcast = `The SGS office is closed on Friday. ${unique("b")}`;
    await page.reload();
    await page.getByRole("radio", { name: "Every student (broadcast)" }).check();
    await page.getByLabel("Message", { exact: true }).fill(broadcast);
    await page.getByRole("button", { name: "Send to every student" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Send this notice to every student?" });
    await expect(confirm).toContainText(broadcast);
    await confirm.getByRole("button", { name: "Yes, send to everyone" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Notice sent" })).toBeVisible();
    for (const student of [one, other]) {
      await student.goto("/dashboard/messages");
      const item = student.getByRole("article").filter({ hasText: broadcast });
      await expect(item).toContainText("To all students");
    }
  } finally {
    for (const context of contexts) await context.close();
  }
});

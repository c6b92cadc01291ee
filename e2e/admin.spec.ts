import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe.js";
import { factValue } from "./support/lines.js";
import { readState } from "./support/state.js";
import { codeFrom, waitForMail } from "./support/mail.js";
import {
  adminApi,
  loginThroughForm,
  sameOrigin,
  signInAsNewStudent,
  sampleRecord,
  sampleRecords,
  signInAsAdmin,
  unique,
  uniqueEmail,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * The administrator's side: dashboard, list and search, details panel, new submission and new
 * Super User, users and inbox. Sample records read here (never changed by any test): 7, 9, 114, and
 * the "Sarpong" rows; record 43 gets an account here.
 */

const PLACEHOLDER = "search according to name or index number";

function detailsPanel(page: Page): Locator {
  return page.getByRole("dialog", { name: "Submission Details" });
}

function marker(panel: Locator, line: "SGS Admin" | "Internal" | "External"): Locator {
  return panel.getByTestId(`marker-${line}`);
}

async function search(page: Page, term: string): Promise<void> {
  const box = page.getByPlaceholder(PLACEHOLDER);
  const answered = page.waitForResponse(
    (r) => r.url().includes("/api/submissions?") && new URL(r.url()).searchParams.get("q") === term,
  );
  await box.fill(term);
  const response = await answered;
  expect(response.status()).toBe(200);
}

function rows(page: Page): Locator {
  return page.locator("table.submissions-table tbody tr");
}

test("the administrator signs in to a dashboard with today's date and three cards of real figures", async ({
  page,
}) => {
  // The server's own figures first, then the page that shows them.
  const api = await adminApi();
  const stats = (await (await api.get("/api/admin/stats")).json()) as {
    totalSubmissions: number;
    totalUsers: number;
    addedThisMonth: number;
  };
  const list = (await (await api.get("/api/submissions", { params: { pageSize: 1 } })).json()) as {
    total: number;
  };
  await api.dispose();
  expect(stats.totalSubmissions).toBe(list.total);
  expect(stats.totalSubmissions).toBeGreaterThanOrEqual(sampleRecords().length);

  const { admin } = readState();
  await loginThroughForm(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/admin$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute(
    "href",
    "/admin",
  );
  await expect(nav.getByRole("link", { name: "Student Dashboard" })).toHaveCount(0);
  await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();

  // Today's date, in words.
  const now = new Date();
  const date = page.getByRole("main").locator("time").first();
  await expect(date).toContainText(String(now.getFullYear()));
  await expect(date).toContainText(now.toLocaleString("en-GB", { month: "long" }));
  await expect(date).toContainText(new RegExp(`\\b${now.getDate()}\\b`));

  // The figures are the server's, not the prototype's fixed 254.
  const card = (title: string) =>
    page
      .getByRole("link")
      .filter({ hasText: title })
      .filter({ has: page.locator(".dashboard-card__figure") });
  const figure = (title: string) => card(title).locator(".dashboard-card__figure");
  await expect(figure("All Submissions")).toHaveText(
    stats.totalSubmissions.toLocaleString("en-GB"),
  );
  await expect(figure("All Submissions")).not.toHaveText("254");
  await expect(figure("Add New User")).toHaveText(stats.totalUsers.toLocaleString("en-GB"));
  await expect(figure("Add New Submission")).toHaveText(
    stats.addedThisMonth.toLocaleString("en-GB"),
  );
  await expectAccessible(page);

  // Each card leads to its page.
  const destinations: [string, RegExp, string][] = [
    ["All Submissions", /\/admin\/all_submissions$/, "All Submissions"],
    ["Add New User", /\/admin\/new_user_entry$/, "Add a new Super User"],
    ["Add New Submission", /\/admin\/new_submission$/, "Add New Submission"],
  ];
  for (const [title, url, heading] of destinations) {
    await page.goto("/admin");
    await card(title).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
});

test("a dashboard figure leads to the list it counts", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin");
  const stage = page.getByRole("region", { name: "By SGS Admin stage" });
  const link = stage.getByRole("link").filter({ hasText: "Sent to Department" });
  const figure = Number(await link.locator(".count-list__figure").innerText());
  expect(figure).toBeGreaterThan(25);
  await link.click();
  await expect(page).toHaveURL(/\/admin\/all_submissions\?sgsStage=sent_to_department$/);
  await expect(page.getByRole("status").filter({ hasText: "Showing" })).toHaveText(
    `Showing 1–25 of ${figure} submissions`,
  );
  await expect(rows(page)).toHaveCount(25);
  const chips = await rows(page).evaluateAll((trs) =>
    trs.map((tr) => tr.querySelector(".status-chips > .chip")?.textContent ?? ""),
  );
  expect(new Set(chips)).toEqual(new Set(["SGS: Sent to Department"]));
});

test("searching all_submissions filters on the server in any case and shows names in upper case", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto("/admin/all_submissions");
  const box = page.getByPlaceholder(PLACEHOLDER);
  await expect(box).toBeFocused();
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /^IndexNumber/ })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /^Programme/ })).toBeVisible();
  await expect(rows(page)).toHaveCount(25);

  const term = "sARPon";
  const expected = sampleRecords()
    .filter(
      (r) =>
        r.StudentName?.toLowerCase().includes("sarpon") ||
        r.IndexNumber?.toLowerCase().includes("sarpon"),
    )
    .map((r) => (r.StudentName ?? "").toUpperCase())
    .sort();
  expect(expected.length).toBeGreaterThan(1);
  await search(page, term);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${term}(&|$)`));
  await expect(rows(page)).toHaveCount(expected.length);
  await expect(page.getByRole("status").filter({ hasText: "Showing" })).toHaveText(
    `Showing 1–${expected.length} of ${expected.length} submissions`,
  );
  const names = await rows(page)
    .locator("td.submissions-table__name")
    .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText));
  expect([...names].sort()).toEqual(expected);
  await expectAccessible(page);

  // An index number works too, and a term matching nothing says so.
  const record = sampleRecord(114);
  await search(page, record.IndexNumber);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(record.StudentName.toUpperCase());
  await search(page, "zzqx-no-such-student");
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText("No submission matches")).toBeVisible();
});

test("a row opens Submission Details by click or Enter, with green markers only where due; Close and Escape close it", async ({
  page,
}) => {
  await signInAsAdmin(page);
  // Record 114: Sent to Examiners, both examiners Received: every marker green.
  const green = sampleRecord(114);
  await page.goto(`/admin/all_submissions?q=${green.IndexNumber}`);
  await rows(page).first().click();
  const panel = detailsPanel(page);
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(/[?&]open=114(&|$)/);
  await expect(factValue(panel, "Name")).toHaveText(green.StudentName);
  await expect(factValue(panel, "Index Number")).toHaveText(green.IndexNumber);
  await expect(factValue(panel, "Programme")).toHaveText(green.Programme);
  for (const [line, value] of [
    ["SGS Admin", "Sent to Examiners"],
    ["Internal", "Received"],
    ["External", "Received"],
  ] as const) {
    await expect(marker(panel, line)).toContainText(value);
    await expect(marker(panel, line)).toHaveAttribute("data-colour", "green");
  }
  const greenColour = await marker(panel, "SGS Admin").evaluate((el) => getComputedStyle(el).color);
  await expectAccessible(page);
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/open=/);

  // Record 7: Sent to Department, no examiners yet: every marker the default colour.
  const plain = sampleRecord(7);
  expect(plain.SGSAdmin).toBe("Sent to Department");
  await search(page, plain.IndexNumber);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await expect(factValue(panel, "Name")).toHaveText(plain.StudentName);
  await expect(marker(panel, "SGS Admin")).toContainText("Sent to Department");
  await expect(marker(panel, "Internal")).toContainText("Not set");
  for (const line of ["SGS Admin", "Internal", "External"] as const) {
    await expect(marker(panel, line)).toHaveAttribute("data-colour", "default");
  }
  const defaultColour = await marker(panel, "SGS Admin").evaluate(
    (el) => getComputedStyle(el).color,
  );
  expect(defaultColour).not.toBe(greenColour);
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  // Focus goes back to the row the panel was opened from.
  await expect(rows(page).first()).toBeFocused();

  // Record 9: Sent to Examiners (green), but the examiners are Awaiting and Report Submitted,
  // neither of which is Received: only the SGS Admin marker is green.
  const mixed = sampleRecord(9);
  expect([mixed.SGSAdmin, mixed.InternalExaminer, mixed.ExternalExaminer]).toEqual([
    "Sent to Examiners",
    "Awaiting",
    "Report Submitted",
  ]);
  await search(page, mixed.IndexNumber);
  await rows(page).first().click();
  await expect(factValue(panel, "Name")).toHaveText(mixed.StudentName);
  await expect(marker(panel, "SGS Admin")).toHaveAttribute("data-colour", "green");
  await expect(marker(panel, "Internal")).toContainText("Awaiting");
  await expect(marker(panel, "Internal")).toHaveAttribute("data-colour", "default");
  await expect(marker(panel, "External")).toContainText("Report Submitted");
  await expect(marker(panel, "External")).toHaveAttribute("data-colour", "default");
});

test("new_submission adds a submission that search then finds; a duplicate index number is a field error", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const indexNumber = uniqueIndexNumber();
  const name = `Adwoa ${unique("Newrecord")}`;
  await page.goto("/admin/new_submission");
  await expect(page.getByRole("heading", { level: 1, name: "Add New Submission" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Student Name").fill(name);
  await page.getByLabel("Index Number").fill(indexNumber);
  await page.getByLabel("Programme").fill("MPhil Sociology");
  await page.getByLabel("Contact").fill("024 000 1111");
  await page.getByRole("radio", { name: "Sent to Department" }).check();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Submission added" })).toBeVisible();

  await page.goto("/admin/all_submissions");
  await search(page, name.split(" ")[1]!.toLowerCase());
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(name.toUpperCase());
  await expect(rows(page).first()).toContainText(indexNumber);
  await expect(rows(page).first()).toContainText("MPhil Sociology");
  await expect(rows(page).first()).toContainText("Sent to Department");

  // The same index number again: the field says so, nothing is added.
  await page.goto("/admin/new_submission");
  await page.getByLabel("Student Name").fill("Someone Else");
  await page.getByLabel("Index Number").fill(indexNumber);
  await page.getByLabel("Programme").fill("MA History");
  await page.getByRole("button", { name: "Submit" }).click();
  const indexField = page.getByLabel("Index Number");
  await expect(indexField).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#new-submission-indexNumber-error")).toContainText(/already exists/i);
  await expect(page.getByRole("heading", { name: "Submission added" })).toHaveCount(0);
  const api = await adminApi();
  const found = (await (
    await api.get("/api/submissions", { params: { q: indexNumber } })
  ).json()) as {
    items: { studentName: string }[];
  };
  await api.dispose();
  expect(found.items.map((i) => i.studentName)).toEqual([name]);
});

test("new_user_entry adds a Super User who can then sign in as an administrator", async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("superuser");
  const passcode = `Passcode-${Date.now()}`;
  await page.goto("/admin/new_user_entry");
  await expect(page.getByRole("heading", { level: 1, name: "Add a new Super User" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Name", { exact: true }).fill("Ama Registrar");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Passcode", { exact: true }).fill(passcode);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Super User added" })).toBeVisible();

  // A passcode that is too short is refused at the field.
  await page.getByRole("button", { name: "Add another Super User" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Short Code");
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("short"));
  await page.getByLabel("Passcode", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByLabel("Passcode", { exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );

  const context = await browser.newContext();
  const other = await context.newPage();
  try {
    await loginThroughForm(other, email, passcode);
    await expect(other).toHaveURL(/\/admin$/);
    await expect(other.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    const me = (await (await other.request.get("/api/me")).json()) as {
      user: { email: string; role: string };
    };
    expect(me.user).toMatchObject({ email, role: "admin" });
  } finally {
    await context.close();
  }
});

test("deactivating a student signs them out at once; reactivated, they can sign in again", async ({
  page,
  browser,
}) => {
  // Record 43: its account is made here and nowhere else.
  const record = sampleRecord(43);
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  try {
    const email = await signInAsNewStudent(student, record.IndexNumber, "deactivate");
    await student.goto("/dashboard/status");
    await expect(
      student.getByRole("heading", { level: 1, name: "Progress of Submission" }),
    ).toBeVisible();

    await signInAsAdmin(page);
    await page.goto(`/admin/users?role=student&q=${encodeURIComponent(email)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row).toContainText(record.IndexNumber);
    await expect(row).toContainText("Active");
    await expectAccessible(page);
    await row.getByRole("button", { name: `Deactivate ${record.StudentName}` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Deactivate ${record.StudentName}?` });
    await confirm.getByRole("button", { name: "Deactivate", exact: true }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "signed out everywhere" }),
    ).toBeVisible();
    await expect(row).toContainText("Deactivated");

    // The student's open session is gone: the next page load asks them to log in.
    expect((await student.request.get("/api/me")).status()).toBe(401);
    await student.goto("/dashboard/status");
    await expect(student).toHaveURL(/\/auth\/login\?next=/);

    await row.getByRole("button", { name: `Reactivate ${record.StudentName}` }).click();
    await expect(page.getByRole("alert").filter({ hasText: "can sign in again" })).toBeVisible();
    const asked = await student.request.post("/api/request_code", {
      data: { email },
      headers: sameOrigin(),
    });
    expect(asked.status()).toBe(200);
    const code = codeFrom(await waitForMail(email, (m) => m.text.includes("new sign-in code")));
    await loginThroughForm(student, email, code);
    await expect(student).toHaveURL(/\/dashboard\/status$/);
  } finally {
    await studentContext.close();
  }
});

test("the inbox shows what visitors wrote through the contact form", async ({ page }) => {
  const from = uniqueEmail("inbox");
  const text = `Please tell me where my thesis is. ${unique("inbox")}`;
  const sent = await page.request.post("/api/contact", {
    data: { email: from, message: text },
    headers: sameOrigin(),
  });
  expect(sent.status()).toBe(201);

  await signInAsAdmin(page);
  await page.goto("/admin/inbox");
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  const item = page.locator(".inbox-item").filter({ hasText: text });
  await expect(item).toBeVisible();
  await expect(item.getByRole("link", { name: from })).toHaveAttribute(
    "href",
    new RegExp(`^mailto:${from}`),
  );
  await expectAccessible(page);
});

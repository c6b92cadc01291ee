import { expect, test, type Page } from "@playwright/test";
import { ACCOUNT_MESSAGES } from "../common/accounts.js";
import { expectAccessible } from "./support/axe.js";
import { codeFrom, waitForMail } from "./support/mail.js";
import { factValue } from "./support/lines.js";
import {
  createStudentAccount,
  loginThroughForm,
  sameOrigin,
  sampleRecord,
  scrollWidth,
  signInAsNewStudent,
  uniqueEmail,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * The student's side: sign-up to status, messages, profile and logout, and the guards.
 * Sample records used here (an index number has one account, so each test its own): 9, 10, 12, 15
 * (with 18 as "someone else's"), 19.
 */

async function expectStatusLines(page: Page, lines: Record<string, string>): Promise<void> {
  const card = page.getByRole("region", { name: "Submission Status" });
  for (const [label, value] of Object.entries(lines)) {
    await expect(factValue(card, label), label).toHaveText(value);
  }
}

test("a student signs up, receives the code by mail, follows their submission and changes the password", async ({
  page,
}) => {
  // Record 9: Sent to Examiners; internal examiner Awaiting, external Report Submitted.
  const record = sampleRecord(9);
  expect(record.SGSAdmin).toBe("Sent to Examiners");
  const email = uniqueEmail("journey");

  // Sign up.
  await page.goto("/auth/signup");
  await page.getByLabel("Institutional email").fill(email);
  await page.getByLabel("Index Number").fill(record.IndexNumber);
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.signedUp }),
  ).toBeVisible();

  // The code arrives at the SMTP peer; sign in with it.
  const code = codeFrom(await waitForMail(email));
  await loginThroughForm(page, email, code);
  await expect(page).toHaveURL(/\/dashboard\/status$/);

  // Top bar for a signed-in student.
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Student Dashboard" })).toHaveAttribute(
    "href",
    "/dashboard",
  );
  await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);

  // Status: the record's real values.
  await expect(
    page.getByRole("heading", { level: 1, name: "Progress of Submission" }),
  ).toBeVisible();
  const details = page.getByRole("region", { name: "Submission Details" });
  await expect(factValue(details, "Name")).toHaveText(record.StudentName);
  await expect(factValue(details, "Index Number")).toHaveText(record.IndexNumber);
  await expect(factValue(details, "Programme")).toHaveText(record.Programme);
  await expect(factValue(details, "Contact")).toHaveText(record.Contact ?? "");
  await expectStatusLines(page, {
    "Awaiting Review": "Completed",
    "Sent to Department": "Completed",
    "Nominations Ready": "Completed",
    "Sent to Internal": "Completed",
    "Sent to External": "Completed",
    "Internal Report": "Awaiting",
    "External Report": "Report Submitted",
    "Thesis Status": "Not set",
  });
  // The progress tracker: the examiners' step is current, the internal examiner still has it.
  const tracker = page.getByRole("region", { name: "Your progress" });
  const current = tracker.locator('li[aria-current="step"]').first();
  await expect(current).toContainText("With the examiners");
  const trackState = (name: string) =>
    tracker.getByRole("region", { name }).getByRole("heading", { level: 4 });
  await expect(trackState("External examiner")).toHaveText("External examiner Done");
  await expect(trackState("Internal examiner")).toHaveText("Internal examiner In progress");
  await expect(
    page.getByText(
      /The external examiner's report is in; your thesis is still with the internal examiner/,
    ),
  ).toBeVisible();
  await expectAccessible(page);

  // Messages tab.
  const tabs = page.getByRole("navigation", { name: "Student dashboard" });
  await tabs.getByRole("link", { name: /messages/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages$/);
  await expect(page.getByRole("heading", { level: 1, name: "MESSAGES" })).toBeVisible();
  await expectAccessible(page);

  // Profile: email and index number, then a password of the student's own.
  await tabs.getByRole("link", { name: "profile" }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  const account = page
    .locator(".card")
    .filter({ has: page.getByRole("heading", { name: "Your account" }) });
  await expect(factValue(account, "Email")).toHaveText(email);
  await expect(factValue(account, "Index Number")).toHaveText(record.IndexNumber);
  await expectAccessible(page);
  const newPassword = `journey-${Date.now()}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.passwordChanged }),
  ).toBeVisible();

  // Logout: home, Login link back, the dashboard closed.
  await nav.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: "Login", exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Student Dashboard" })).toHaveCount(0);
  expect(
    await page.evaluate(() => [localStorage.getItem("role"), localStorage.getItem("token")]),
  ).toEqual([null, null]);
  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(401);

  // The old code no longer works; the new password does.
  await loginThroughForm(page, email, code);
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.invalidCredentials }),
  ).toBeVisible();
  await loginThroughForm(page, email, newPassword);
  await expect(page).toHaveURL(/\/dashboard\/status$/);
  await expect(
    factValue(page.getByRole("region", { name: "Submission Details" }), "Index Number"),
  ).toHaveText(record.IndexNumber);
});

test("signed out, /dashboard/status leads to the login page and back after sign-in", async ({
  page,
}) => {
  const record = sampleRecord(10);
  const email = uniqueEmail("guard");
  // Create the account and code without signing this browser in.
  const code = await createStudentAccount(email, record.IndexNumber);

  await page.goto("/dashboard/status");
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fdashboard%2Fstatus$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.getByLabel("Student email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/status$/);
  await expect(
    factValue(page.getByRole("region", { name: "Submission Details" }), "Name"),
  ).toHaveText(record.StudentName);

  // The other protected areas send a signed-out visitor to login as well.
  await page.context().clearCookies();
  await page.goto("/admin/all_submissions");
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fadmin%2Fall_submissions$/);
});

test("a student who opens /admin lands on their own dashboard and sees no admin data", async ({
  page,
}) => {
  const record = sampleRecord(12);
  await signInAsNewStudent(page, record.IndexNumber, "nosy");
  const adminCalls: string[] = [];
  page.on("response", (r) => {
    if (/\/api\/(admin\/|submissions\?|submissions$)/.test(r.url()))
      adminCalls.push(`${r.status()} ${r.url()}`);
  });

  for (const path of ["/admin", "/admin/all_submissions", "/admin/new_user_entry"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard\/status$/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Progress of Submission" }),
    ).toBeVisible();
    await expect(
      factValue(page.getByRole("region", { name: "Submission Details" }), "Index Number"),
    ).toHaveText(record.IndexNumber);
  }
  await expect(page.getByRole("navigation", { name: "Administration" })).toHaveCount(0);
  await expect(page.getByText("All Submissions")).toHaveCount(0);
  // The browser never fetched (let alone received) admin data.
  expect(adminCalls.filter((c) => c.startsWith("200"))).toEqual([]);
  // And the server refuses it when asked directly.
  expect((await page.request.get("/api/submissions")).status()).toBe(403);
  expect((await page.request.get("/api/admin/stats")).status()).toBe(403);
});

test("a student cannot read another student's submission through the API", async ({ page }) => {
  const own = sampleRecord(15);
  const other = sampleRecord(18);
  await signInAsNewStudent(page, own.IndexNumber, "reader");

  const mine = await page.request.get(`/api/submissions/${encodeURIComponent(own.IndexNumber)}`);
  expect(mine.status()).toBe(200);
  const body = (await mine.json()) as { data: { studentName: string; indexNumber: string } };
  expect(body.data.indexNumber).toBe(own.IndexNumber);
  expect(body.data.studentName).toBe(own.StudentName);

  const theirs = await page.request.get(
    `/api/submissions/${encodeURIComponent(other.IndexNumber)}`,
  );
  expect(theirs.status()).toBe(403);
  expect(await theirs.text()).not.toContain(other.StudentName);
  const theirTimeline = await page.request.get(
    `/api/submissions/${encodeURIComponent(other.IndexNumber)}/timeline`,
  );
  expect(theirTimeline.status()).toBe(403);
  // Nor change anything as an administrator would.
  const write = await page.request.post("/api/admin/messages", {
    data: { broadcast: true, body: "Not from a student" },
    headers: sameOrigin(),
  });
  expect(write.status()).toBe(403);
});

test("on a 360 px phone a student sees the status without scrolling sideways", async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  try {
    // The way in, signed out, fits the phone too.
    for (const path of ["/", "/help", "/help/contact", "/auth/signup", "/auth/login"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await scrollWidth(page), path).toBeLessThanOrEqual(360);
    }
    const record = sampleRecord(19);
    await signInAsNewStudent(page, record.IndexNumber, "phone");
    await page.goto("/dashboard/status");
    await expect(
      page.getByRole("heading", { level: 1, name: "Progress of Submission" }),
    ).toBeVisible();
    await expect(
      factValue(page.getByRole("region", { name: "Submission Details" }), "Name"),
    ).toHaveText(record.StudentName);
    await expect(page.getByRole("region", { name: "Your progress" })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    for (const tab of ["messages", "profile"]) {
      await page
        .getByRole("navigation", { name: "Student dashboard" })
        .getByRole("link", { name: tab })
        .click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/${tab}$`));
      expect(await scrollWidth(page), `/dashboard/${tab}`).toBeLessThanOrEqual(360);
    }
    await expectAccessible(page);
  } finally {
    await context.close();
  }
});

test("the status page says 'Loading submission details...' and then, with nothing on file, what to do", async ({
  page,
}) => {
  // An index number the school has no submission for (yet).
  const indexNumber = uniqueIndexNumber();
  await signInAsNewStudent(page, indexNumber, "nofile");
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/submissions/${indexNumber}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/dashboard/status");
  await expect(
    page.getByRole("status").filter({ hasText: "Loading submission details..." }),
  ).toBeVisible();
  release();
  const none = page.getByRole("status").filter({ hasText: "No submission on file yet" });
  await expect(none).toContainText(
    `no thesis submission recorded under index number ${indexNumber}`,
  );
  await expect(none.getByRole("link", { name: /contact/i })).toHaveAttribute(
    "href",
    "/help/contact",
  );
  await expect(page.getByRole("region", { name: "Submission Details" })).toHaveCount(0);
});

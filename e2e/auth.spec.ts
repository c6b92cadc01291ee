import { expect, test } from "@playwright/test";
import { ACCOUNT_MESSAGES } from "../common/accounts.js";
import { expectAccessible } from "./support/axe.js";
import { codeFrom, waitForMail } from "./support/mail.js";
import {
  createStudentAccount,
  loginThroughForm,
  sameOrigin,
  sampleRecord,
  uniqueEmail,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Sign-up and sign-in, with the messages of spec section 8.
 * Sample records used here (each test its own, so the tests stay independent): 3, 5.
 */

test("signup with empty fields says 'Please fill in all fields' and sends nothing", async ({
  page,
}) => {
  const calls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/create_user")) calls.push(r.url());
  });
  await page.goto("/auth/signup");
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Please fill in all fields" }),
  ).toBeVisible();

  // Only one field filled is still "all fields".
  await page.getByLabel("Institutional email").fill(uniqueEmail("half"));
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Please fill in all fields" }),
  ).toBeVisible();
  expect(calls).toEqual([]);
  await expect(page).toHaveURL(/\/auth\/signup$/);
});

test("signup mails a code, confirms and goes to the login page", async ({ page }) => {
  const record = sampleRecord(3);
  const email = uniqueEmail("signup");
  await page.goto("/auth/signup");
  await page.getByLabel("Institutional email").fill(email);
  await page.getByLabel("Index Number").fill(record.IndexNumber);
  await page.getByRole("button", { name: "Send Code" }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.signedUp }),
  ).toBeVisible();
  expect(ACCOUNT_MESSAGES.signedUp).toBe("A verification code has been sent to your email!");
  await expectAccessible(page);

  const mail = await waitForMail(email);
  expect(mail.subject).toMatch(/verification code/i);
  const code = codeFrom(mail);
  expect(Number(code)).toBeGreaterThanOrEqual(100000);
  expect(Number(code)).toBeLessThanOrEqual(999999);
});

test("a second signup for the same email says the user already exists", async ({ page }) => {
  const record = sampleRecord(5);
  const email = uniqueEmail("twice");
  await createStudentAccount(email, record.IndexNumber);
  await page.goto("/auth/signup");
  await page.getByLabel("Institutional email").fill(email.toUpperCase());
  await page.getByLabel("Index Number").fill(record.IndexNumber);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/create_user"));
  await page.getByRole("button", { name: "Send Code" }).click();
  // The server refuses it (so no second code is made or mailed).
  expect((await answered).status()).toBe(409);

  const alert = page.getByRole("alert").filter({ hasText: "User already exists" });
  await expect(alert).toHaveText(ACCOUNT_MESSAGES.userExists);
  await expect(alert.getByRole("link", { name: "Try logging in" })).toHaveAttribute(
    "href",
    "/auth/login",
  );
  await expect(page).toHaveURL(/\/auth\/signup$/);
});

test("a failed login shows the server's message in an alert and stays on the page", async ({
  page,
}) => {
  await loginThroughForm(page, uniqueEmail("nobody"), "not-the-password");
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.invalidCredentials }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }),
  ).toBeVisible();
});

test("the Login button reads 'Logging in...' while the sign-in is under way", async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/user_sign_in", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/auth/login");
  await page.getByLabel("Student email").fill(uniqueEmail("slow"));
  await page.getByLabel("Password", { exact: true }).fill("whatever-it-is");
  await page.getByRole("button", { name: "Login", exact: true }).click();

  const busy = page.getByRole("button", { name: "Logging in..." });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole("button", { name: "Login", exact: true })).toBeEnabled();
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.invalidCredentials }),
  ).toBeVisible();
});

test("a network failure at login says 'An error occurred. Please try again.'", async ({ page }) => {
  await page.route("**/api/user_sign_in", (route) => route.abort("failed"));
  await loginThroughForm(page, uniqueEmail("offline"), "whatever-it-is");
  await expect(
    page.getByRole("alert").filter({ hasText: "An error occurred. Please try again." }),
  ).toBeVisible();
});

test("the Send Code button reads 'Sending' while the sign-up is under way", async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/create_user", async (route) => {
    await held;
    await route.continue();
  });
  const email = uniqueEmail("sending");
  await page.goto("/auth/signup");
  await page.getByLabel("Institutional email").fill(email);
  // An index number with no submission on file yet may still sign up.
  await page.getByLabel("Index Number").fill(uniqueIndexNumber());
  await page.getByRole("button", { name: "Send Code" }).click();
  const busy = page.getByRole("button", { name: "Sending" });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/auth\/login$/);
  // The login form keeps the email just used.
  await expect(page.getByLabel("Student email")).toHaveValue(email);
});

test("the session cookie is HttpOnly, and lasts beyond the browser session only with Remember me", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("remember");
  const code = await createStudentAccount(email, uniqueIndexNumber());
  await loginThroughForm(page, email, code);
  await expect(page).toHaveURL(/\/dashboard\/status$/);
  const [session] = (await page.context().cookies()).filter((c) => c.name === "ets_session");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", expires: -1 });
  expect(await page.evaluate(() => document.cookie)).not.toContain("ets_session");
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();

  // A second browser, with Remember me: the cookie outlives the browser session.
  const context = await browser.newContext();
  const other = await context.newPage();
  try {
    const asked = await other.request.post("/api/request_code", {
      data: { email },
      headers: sameOrigin(),
    });
    expect(asked.status()).toBe(200);
    const fresh = codeFrom(await waitForMail(email, (m) => m.text.includes("new sign-in code")));
    await other.goto("/auth/login");
    await other.getByLabel("Student email").fill(email);
    await other.getByLabel("Password", { exact: true }).fill(fresh);
    await other.getByLabel("Remember me").check();
    await other.getByRole("button", { name: "Login", exact: true }).click();
    await expect(other).toHaveURL(/\/dashboard\/status$/);
    const [kept] = (await context.cookies()).filter((c) => c.name === "ets_session");
    expect(kept?.httpOnly).toBe(true);
    expect(kept?.expires ?? -1).toBeGreaterThan(Date.now() / 1000 + 24 * 3600);
  } finally {
    await context.close();
  }
});

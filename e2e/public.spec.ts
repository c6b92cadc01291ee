import { expect, test, type Page } from "@playwright/test";
import { ACCOUNT_MESSAGES } from "../common/accounts.js";
import { expectAccessible } from "./support/axe.js";
import { allMail, waitForMail } from "./support/mail.js";
import { readState } from "./support/state.js";
import { unique, uniqueEmail } from "./support/app.js";

/** The public pages of spec section 2, signed out. */

async function expectSignedOutChrome(page: Page): Promise<void> {
  const banner = page.getByRole("banner");
  await expect(banner.getByText("ETS Tracking", { exact: true })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("href", "/");
  await expect(nav.getByRole("link", { name: "About", exact: true })).toHaveAttribute(
    "href",
    "/about",
  );
  await expect(nav.getByRole("link", { name: "Help", exact: true })).toHaveAttribute(
    "href",
    "/help",
  );
  await expect(nav.getByRole("link", { name: "Login", exact: true })).toBeVisible();
  await expect(nav.getByRole("button", { name: "Logout" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: /Dashboard/ })).toHaveCount(0);
  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  await expect(footer).toContainText("School of Graduate Studies");
}

test("home greets the visitor with the system title, the top bar and the footer", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/welcome/i);
  await expect(page.getByText(/Thesis Submission Tracking/i).first()).toBeVisible();
  await expectSignedOutChrome(page);
  await expectAccessible(page);
});

test("top bar links lead to About, Help and Login, and the title leads home", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "About", exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await nav.getByRole("link", { name: "Help", exact: true }).click();
  await expect(page).toHaveURL(/\/help$/);
  await nav.getByRole("link", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page
    .getByRole("banner")
    .getByRole("link", { name: /ETS Tracking/ })
    .click();
  await expect(page).toHaveURL(/\/$/);
});

test("about page has a heading and text", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("main").locator("p").first()).not.toBeEmpty();
  await expectSignedOutChrome(page);
  await expectAccessible(page);
});

test("help page points to the FAQ and to the contact form", async ({ page }) => {
  await page.goto("/help");
  const main = page.getByRole("main");
  await expect(
    main.getByText(
      "Read through the frequently asked questions section for more info or Contact us for support",
      { exact: true },
    ),
  ).toBeVisible();
  const faq = main.getByRole("link", { name: /frequently asked questions|faq/i }).first();
  await expect(faq).toHaveAttribute("href", "/help/faq");
  const contact = main.getByRole("link", { name: /contact us/i }).first();
  await expect(contact).toHaveAttribute("href", "/help/contact");
  await expectSignedOutChrome(page);
  await expectAccessible(page);

  await faq.click();
  await expect(page).toHaveURL(/\/help\/faq$/);
  await page.goto("/help");
  await page
    .getByRole("main")
    .getByRole("link", { name: /contact us/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/help\/contact$/);
});

test("FAQ page shows questions and answers", async ({ page }) => {
  await page.goto("/help/faq");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("main").locator("p").first()).not.toBeEmpty();
  await expectAccessible(page);
});

test("contact form sends the message to the school's contact address", async ({ page }) => {
  const { contactEmail } = readState();
  const from = uniqueEmail("contact");
  const message = `Where is my thesis? ${unique("msg")}`;

  await page.goto("/help/contact");
  await expect(page.getByRole("heading", { name: /send us a message/i })).toBeVisible();
  await expectAccessible(page);
  const box = page.getByLabel("Message", { exact: true });
  await expect(box).toHaveAttribute("rows", "6");
  await page.getByLabel("Email", { exact: true }).fill(from);
  await box.fill(message);
  await page.getByRole("button", { name: "Submit" }).click();

  await expect(page.getByRole("heading", { name: "Message sent" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(ACCOUNT_MESSAGES.contactReceived);
  const mail = await waitForMail(contactEmail, (m) => m.text.includes(message));
  expect(mail.to).toEqual([contactEmail]);
  expect(mail.text).toContain(from);
});

test("contact form with empty fields sends nothing and says what is missing", async ({ page }) => {
  const before = allMail().length;
  let posted = false;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/contact")) posted = true;
  });
  await page.goto("/help/contact");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(/enter your email address/i).first()).toBeVisible();
  await expect(page.getByText(/enter your message/i).first()).toBeVisible();
  expect(posted).toBe(false);
  expect(allMail().length).toBe(before);
});

test("/auth offers Login and Create account", async ({ page }) => {
  await page.goto("/auth");
  const nav = page.getByRole("navigation", { name: "Account" });
  await expect(nav.getByRole("link", { name: "Login", exact: true })).toHaveAttribute(
    "href",
    "/auth/login",
  );
  await expect(nav.getByRole("link", { name: "Create account" })).toHaveAttribute(
    "href",
    "/auth/signup",
  );
  await nav.getByRole("link", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/auth\/signup$/);
  await expect(page.getByRole("heading", { name: "Create account" })).toBeVisible();
  await nav.getByRole("link", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("login page has its fields and is accessible", async ({ page }) => {
  await page.goto("/auth/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(page.getByLabel("Student email")).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
  await expect(page.getByLabel("Remember me")).toBeVisible();
  await expect(page.getByRole("button", { name: "Login", exact: true })).toBeEnabled();
  await expectSignedOutChrome(page);
  await expectAccessible(page);
});

test("signup page has its fields and is accessible", async ({ page }) => {
  await page.goto("/auth/signup");
  await expect(page.getByRole("heading", { name: "Create account" })).toBeVisible();
  await expect(page.getByLabel("Institutional email")).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Index Number")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send Code" })).toBeEnabled();
  await expectAccessible(page);
});

test("an unknown address shows Page not Found! with a link home", async ({ page }) => {
  await page.goto(`/no-such-page-${unique("x")}`);
  await expect(page.getByRole("heading", { name: "Page not Found!" })).toBeVisible();
  await expectSignedOutChrome(page);
  await expectAccessible(page);
  await page.getByRole("main").getByRole("link", { name: /home/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/welcome/i);
});

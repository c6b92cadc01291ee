import { expect, test, type Page } from "@playwright/test";
import { SSO_FAILURE_MESSAGES } from "../common/sso.js";
import { expectAccessible } from "./support/axe.js";
import {
  adminApi,
  createSubmission,
  uniqueEmail,
  uniqueIndexNumber,
  unique,
} from "./support/app.js";

/**
 * SAML 2.0 sign-in in Chromium (issue 10): the login page's button, the identity provider's own
 * sign-in page (testing/saml-idp.ts, started by global setup with the server pointed at its
 * metadata), its form posted back to our ACS URL across origins, and the landing page. Global
 * setup configures SAML_LABEL "Test University (SAML)" and SSO_ADMIN_GROUPS including sgs-staff.
 */

const SAML_BUTTON = "Sign in with Test University (SAML)";

/** From our login page to the IdP's sign-in page, as a person clicks through it. */
async function openIdpSignIn(page: Page): Promise<void> {
  await page.goto("/auth/login");
  await page.getByRole("link", { name: SAML_BUTTON }).click();
  await expect(page.getByRole("heading", { name: "Test university sign-in" })).toBeVisible();
}

async function signInAtIdp(
  page: Page,
  person: { email: string; nameId: string; indexNumber?: string; groups?: string },
): Promise<void> {
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Persistent id (NameID)").fill(person.nameId);
  if (person.indexNumber) await page.getByLabel("Index number").fill(person.indexNumber);
  if (person.groups) await page.getByLabel("Groups (comma-separated)").fill(person.groups);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a student signs in through the university's SAML sign-in and sees their submission", async ({
  page,
}) => {
  const api = await adminApi();
  const indexNumber = uniqueIndexNumber();
  const studentName = `SAML ${unique("student")}`;
  await createSubmission(api, { studentName, indexNumber, programme: "MPhil Economics" });
  await api.dispose();

  await openIdpSignIn(page);
  await signInAtIdp(page, { email: uniqueEmail("saml"), nameId: unique("pid"), indexNumber });

  await expect(page).toHaveURL(/\/dashboard\/status$/);
  await expect(page.getByText(indexNumber).first()).toBeVisible();
  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: { role: string } }).user.role).toBe("student");
  await expectAccessible(page);
});

test("a member of the administrators' group signs in as an administrator", async ({ page }) => {
  await openIdpSignIn(page);
  await signInAtIdp(page, {
    email: uniqueEmail("saml-staff").replace("@students.", "@"),
    nameId: unique("pid"),
    groups: "all-staff, sgs-staff",
  });
  await expect(page).toHaveURL(/\/admin$/);
  const me = await page.request.get("/api/me");
  expect(((await me.json()) as { user: { role: string } }).user.role).toBe("admin");
});

test("cancelling at the university's sign-in page says so on the login page", async ({ page }) => {
  await openIdpSignIn(page);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/auth\/login\?sso_error=cancelled$/);
  await expect(
    page.getByRole("alert").filter({ hasText: SSO_FAILURE_MESSAGES.cancelled }),
  ).toBeVisible();
  await expectAccessible(page);
});

test("staff outside the administrators' groups are told why they cannot get in", async ({
  page,
}) => {
  await openIdpSignIn(page);
  await signInAtIdp(page, {
    email: uniqueEmail("saml-library").replace("@students.", "@"),
    nameId: unique("pid"),
    groups: "all-staff, library",
  });
  await expect(page).toHaveURL(/\/auth\/login\?sso_error=not_allowed$/);
  await expect(
    page.getByRole("alert").filter({ hasText: SSO_FAILURE_MESSAGES.not_allowed }),
  ).toBeVisible();
  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(401);
});

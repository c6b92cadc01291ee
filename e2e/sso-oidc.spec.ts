import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SSO_FAILURE_MESSAGES } from "../common/sso.js";
import { resolveFromRoot } from "../server/paths.js";
import { startOidcProvider, type TestOidcProvider } from "../testing/oidc-provider.js";
import { expectAccessible } from "./support/axe.js";
import { sampleRecord } from "./support/app.js";
import { freePort, waitForHealth } from "./support/own-server.js";

/**
 * Signing in through a real OpenID Connect provider (oidc-provider on loopback) in Chromium:
 * the login page's button, the provider's own sign-in page, and back (issue 10). The suite's
 * shared server has no single sign-on, so this file starts its own server (the same build) with
 * OIDC_ISSUER pointing at the provider, on a fresh database with the sample data.
 * Sample record used: 1 (its index number is the student's claim).
 */

test.describe.configure({ mode: "serial" });

let work = "";
let provider: TestOidcProvider;
let server: ChildProcess | null = null;
let baseUrl = "";

test.beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-e2e-oidc-"));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const student = sampleRecord(1);
  provider = await startOidcProvider({
    publicUrl: baseUrl,
    users: [
      {
        sub: "rashid",
        email: "rashid.abdulai@students.sgs.test",
        emailVerified: true,
        name: student.StudentName,
        indexNumber: student.IndexNumber,
      },
      {
        sub: "registrar",
        email: "registrar@staff.sgs.test",
        emailVerified: true,
        name: "Registrar",
        groups: ["sgs-staff"],
      },
      { sub: "lecturer", email: "lecturer@staff.sgs.test", emailVerified: true, groups: [] },
    ],
  });
  server = spawn(process.execPath, [resolveFromRoot("dist", "server", "server.js")], {
    cwd: resolveFromRoot(),
    env: {
      NODE_ENV: "test",
      // One process, as in global-setup.ts: stopped by its PID.
      ETS_WORKERS: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATABASE_URL: `sqlite:${path.join(work, "ets.sqlite")}`,
      STORAGE_URL: `file:${path.join(work, "files")}`,
      ETS_SAMPLE_DATA: "on",
      LOG_LEVEL: "warn",
      ...provider.env(),
      OIDC_LABEL: "UG Account",
      SSO_ADMIN_GROUPS: "sgs-staff",
      RATE_LIMIT_SSO: "10000",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(`${baseUrl}/api/health`, server);
});

test.afterAll(async () => {
  if (server?.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    process.kill(server.pid, "SIGTERM");
    await exited;
  }
  await provider?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** From our login page, through the provider's sign-in page, as the given login. */
async function signInThroughProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByRole("link", { name: "Sign in with UG Account" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

test("a student signs in through the university's provider; the account is made and linked to the submission", async ({
  page,
}) => {
  const student = sampleRecord(1);
  await page.goto(`${baseUrl}/auth/login`);
  await expect(page.getByRole("link", { name: "Sign in with UG Account" })).toBeVisible();
  await expectAccessible(page);

  await signInThroughProvider(page, "rashid");
  await expect(page).toHaveURL(`${baseUrl}/dashboard/status`);
  await expect(page.getByText(student.IndexNumber).first()).toBeVisible();
  const me = await page.request.get(`${baseUrl}/api/me`);
  expect(me.status()).toBe(200);
  expect((await me.json()) as unknown).toMatchObject({
    user: {
      email: "rashid.abdulai@students.sgs.test",
      role: "student",
      indexNumber: student.IndexNumber,
    },
  });
});

test("a member of the administrators' group signs in and lands on the admin pages", async ({
  page,
}) => {
  await signInThroughProvider(page, "registrar");
  await expect(page).toHaveURL(`${baseUrl}/admin`);
  const me = await page.request.get(`${baseUrl}/api/me`);
  expect((await me.json()) as unknown).toMatchObject({
    user: { email: "registrar@staff.sgs.test", role: "admin" },
  });
});

test("staff outside the administrators' groups are sent back with a clear message", async ({
  page,
}) => {
  await signInThroughProvider(page, "lecturer");
  await expect(page).toHaveURL(`${baseUrl}/auth/login?sso_error=not_allowed`);
  await expect(page.getByRole("alert")).toHaveText(SSO_FAILURE_MESSAGES.not_allowed);
  expect((await page.request.get(`${baseUrl}/api/me`)).status()).toBe(401);
  await expectAccessible(page);
});

test("cancelling at the provider comes back to the login page saying so", async ({ page }) => {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByRole("link", { name: "Sign in with UG Account" }).click();
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await expect(page).toHaveURL(`${baseUrl}/auth/login?sso_error=cancelled`);
  await expect(page.getByRole("alert")).toHaveText(SSO_FAILURE_MESSAGES.cancelled);
});

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SSO_FAILURE_MESSAGES } from "../common/sso.js";
import { resolveFromRoot } from "../server/paths.js";
import { startOidcProvider, type TestOidcProvider } from "../testing/oidc-provider.js";
import { expectAccessible } from "./support/axe.js";
import { freePort, stopServer, waitForHealth } from "./support/own-server.js";

/**
 * The single sign-on routes' request limit as the browser meets it (issue 24): the start and the
 * provider's answer are page navigations, so a 429 brings the person back to the login page with
 * a plain message, never the API's JSON shown raw. This file starts its own server (the same
 * build) allowing one single sign-on request a minute per address; the suite's shared server
 * raises that limit for its many sign-ins.
 */

test.describe.configure({ mode: "serial" });

let work = "";
let provider: TestOidcProvider;
let server: ChildProcess | null = null;
let baseUrl = "";

test.beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-e2e-sso-limit-"));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({ publicUrl: baseUrl });
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
      ETS_SAMPLE_DATA: "off",
      LOG_LEVEL: "warn",
      ...provider.env(),
      OIDC_LABEL: "UG Account",
      RATE_LIMIT_SSO: "1",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(`${baseUrl}/api/health`, server);
});

test.afterAll(async () => {
  await stopServer(server);
  await provider?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("past the single sign-on request limit, the login page says to wait, in words", async ({
  page,
}) => {
  await page.goto(`${baseUrl}/auth/login`);
  const signIn = page.getByRole("link", { name: "Sign in with UG Account" });
  // The first start is within the limit: on to the provider's sign-in page.
  await signIn.click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));

  // The second, within the same minute, is over it.
  await page.goto(`${baseUrl}/auth/login`);
  await signIn.click();
  await expect(page).toHaveURL(`${baseUrl}/auth/login?sso_error=rate_limited`);
  await expect(page.getByRole("alert")).toHaveText(SSO_FAILURE_MESSAGES.rate_limited);
  await expect(page.getByText('"rate_limited"')).toHaveCount(0);
  // Still the login page, ready for when the minute has passed.
  await expect(signIn).toBeVisible();
  await expectAccessible(page);
});

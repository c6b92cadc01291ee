import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./e2e/support/browser.js";
import { E2E_PORT } from "./e2e/support/global-setup.js";

// One worker: the tests share one server and one database, and the machines have two cores.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The port guard first: a second run waits for the first to finish instead of talking to its
  // server; the server check last: the server answering is the one this run started.
  globalSetup: [
    "./e2e/support/port-guard.ts",
    "./e2e/support/global-setup.ts",
    "./e2e/support/server-check.ts",
  ],
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: "chromium",
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});

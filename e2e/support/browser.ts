import fs from "node:fs";
import { chromium } from "@playwright/test";
import { readTestEnv } from "../../server/config.js";

export const INSTALL_HINT = "apt-get update && apt-get install -y chromium";

/**
 * Playwright cannot download its browser on these machines, so tests drive Debian's Chromium.
 * Order: ETS_CHROMIUM_PATH (or CHROMIUM_PATH), then /usr/bin/chromium, then Playwright's own.
 */
export function findChromium(): string {
  const candidates = [readTestEnv().browserPath, "/usr/bin/chromium", safePlaywrightPath()].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      `No Chromium found for the browser tests (looked at: ${candidates.join(", ")}). Install it with: ${INSTALL_HINT} (as root), or set ETS_CHROMIUM_PATH.`,
    );
  }
  return found;
}

function safePlaywrightPath(): string | null {
  try {
    return chromium.executablePath();
  } catch {
    return null;
  }
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

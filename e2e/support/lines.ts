import type { Locator } from "@playwright/test";

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
}

/** The value (dd) of a "label: value" line of a description list (dt/dd) inside the scope. */
export function factValue(scope: Locator, label: string): Locator {
  return scope.locator("dt", { hasText: exactly(label) }).locator("xpath=following-sibling::dd[1]");
}

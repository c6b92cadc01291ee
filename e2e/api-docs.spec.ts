import { expect, test } from "@playwright/test";

/**
 * The API's reference page for people (/api/docs, Swagger UI over /api/openapi.json) works under
 * its Content Security Policy: the product's page policy with one style hash (server/app.ts,
 * API_DOCS_POLICY). Any policy violation, script error or console error fails it.
 */
test("the API reference page lists every operation under its own policy, with no violation", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const response = await page.goto("/api/docs");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self';");
  expect(response?.headers()["content-security-policy"]).not.toContain("unsafe-inline");

  await expect(page.getByRole("heading", { name: /ETS Tracking API/ })).toBeVisible();
  const contract = (await (await page.request.get("/api/openapi.json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.values(contract.paths).flatMap((methods) => Object.keys(methods));
  await expect(page.locator(".opblock")).toHaveCount(operations.length);
  // An operation opens to its answers, the shared error responses among them.
  await page.locator(".opblock-summary", { hasText: "listSubmissions" }).click();
  await expect(page.locator(".opblock-body").getByText("401").first()).toBeVisible();
  expect(problems).toEqual([]);
});

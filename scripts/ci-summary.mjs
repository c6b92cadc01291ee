// Adds up the test counts of the CI run's reports and prints "N passed, N failed".
// A report that is missing (its runner crashed) counts as one failure, so it cannot pass silently.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "ci-results";
const reports = [
  ["vitest-sqlite.json", "vitest"],
  ["vitest-postgres.json", "vitest"],
  ["playwright.json", "playwright"],
];
let passed = 0;
let failed = 0;
for (const [file, kind] of reports) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    console.log(`${file}: missing (counted as 1 failure)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(full, "utf8"));
  let p = 0;
  let f = 0;
  if (kind === "vitest") {
    p = report.numPassedTests ?? 0;
    f = (report.numFailedTests ?? 0) + (report.numTotalTestSuites > 0 && report.success === false && report.numFailedTests === 0 ? 1 : 0);
  } else {
    p = (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
    f = (report.stats?.unexpected ?? 0) + (report.errors?.length ?? 0);
  }
  console.log(`${file}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

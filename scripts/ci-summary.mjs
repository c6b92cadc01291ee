// Adds up the test counts of the CI run's reports and prints "N passed, N failed".
// A report that is missing (its runner crashed) counts as one failure, so it cannot pass silently,
// and so does every skipped test: no test is skipped for a missing part or left skipped.
// The failed tests are named first, with the first line of their error (at most 20 of them), so
// the end of CI's output says which test failed even when only that end is kept.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "ci-results";
const reports = [
  ["vitest-sqlite.json", "vitest"],
  ["vitest-sqlite-oldest-node.json", "vitest"],
  ["vitest-postgres.json", "vitest"],
  ["playwright.json", "playwright"],
];
const shownFailures = 20;

/** Terminal colour codes (ESC [ … m), which the runners put in their messages. */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The first line of a failure message, without terminal colours, at most 200 characters. */
function firstLine(message) {
  const line = String(message ?? "")
    .replace(COLOURS, "")
    .split("\n")
    .find((part) => part.trim() !== "");
  return (line ?? "").trim().slice(0, 200);
}

function vitestFailures(report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? "");
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      failures.push(
        `${where} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
    if (failedTests.length === 0 && file.status === "failed") {
      failures.push(`${where}: ${firstLine(file.message) || "the file failed outside its tests"}`);
    }
  }
  return failures;
}

function playwrightFailures(report) {
  const failures = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`${spec.file} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  for (const error of report.errors ?? []) failures.push(`playwright: ${firstLine(error.message)}`);
  return failures;
}

let passed = 0;
let failed = 0;
const lines = [];
const failures = [];
for (const [file, kind] of reports) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    lines.push(`${file}: missing (counted as 1 failure)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(full, "utf8"));
  let p = 0;
  let f = 0;
  let skipped = 0;
  if (kind === "vitest") {
    p = report.numPassedTests ?? 0;
    f =
      (report.numFailedTests ?? 0) +
      (report.numTotalTestSuites > 0 && report.success === false && report.numFailedTests === 0
        ? 1
        : 0);
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (f > 0) failures.push(...vitestFailures(report).map((line) => `${file}: ${line}`));
  } else {
    p = (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
    f = (report.stats?.unexpected ?? 0) + (report.errors?.length ?? 0);
    skipped = report.stats?.skipped ?? 0;
    if (f > 0) failures.push(...playwrightFailures(report).map((line) => `${file}: ${line}`));
  }
  if (skipped > 0) {
    failures.push(`${file}: ${skipped} skipped (a skipped test counts as failed)`);
    f += skipped;
  }
  lines.push(`${file}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
if (failures.length > 0) {
  console.log("Failed:");
  for (const line of failures.slice(0, shownFailures)) console.log(`  ${line}`);
  if (failures.length > shownFailures)
    console.log(`  ... and ${failures.length - shownFailures} more`);
}
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

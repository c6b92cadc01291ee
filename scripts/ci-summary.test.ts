import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = path.join(import.meta.dirname, "ci-summary.mjs");

async function summary(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [script, dir]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

function vitestReport(failed: { file: string; title: string; message: string }[], passed: number) {
  return {
    numPassedTests: passed,
    numFailedTests: failed.length,
    numTotalTestSuites: 1,
    success: failed.length === 0,
    testResults: failed.map((test) => ({
      name: path.join(process.cwd(), test.file),
      status: "failed",
      assertionResults: [
        { fullName: test.title, status: "failed", failureMessages: [test.message] },
      ],
    })),
  };
}

describe("ci-summary", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "ci-summary-"));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function write(file: string, report: unknown) {
    await fs.writeFile(path.join(dir, file), JSON.stringify(report));
  }

  it("adds up every report and ends with one plain line", async () => {
    await write("vitest-sqlite.json", vitestReport([], 10));
    await write("vitest-sqlite-oldest-node.json", vitestReport([], 5));
    await write("vitest-postgres.json", vitestReport([], 7));
    await write("playwright.json", { stats: { expected: 3, flaky: 1, unexpected: 0 }, errors: [] });
    const { code, out } = await summary(dir);
    expect(code).toBe(0);
    expect(out.trim().split("\n").at(-1)).toBe("26 passed, 0 failed");
    expect(out).not.toContain("Failed:");
  });

  it("names each failed test with the first line of its error, before the counts", async () => {
    await write(
      "vitest-sqlite.json",
      vitestReport(
        [
          {
            file: "server/a.test.ts",
            title: "a > refuses",
            message: "\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x",
          },
        ],
        4,
      ),
    );
    await write("vitest-sqlite-oldest-node.json", vitestReport([], 0));
    await write("vitest-postgres.json", vitestReport([], 2));
    await write("playwright.json", {
      stats: { expected: 1, unexpected: 1 },
      errors: [],
      suites: [
        {
          title: "f.spec.ts",
          specs: [],
          suites: [
            {
              title: "student",
              specs: [
                {
                  title: "signs in",
                  file: "f.spec.ts",
                  tests: [
                    {
                      status: "unexpected",
                      results: [{ error: { message: "Timeout 5000ms exceeded." } }],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const { code, out } = await summary(dir);
    expect(code).toBe(1);
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe("Failed:");
    expect(lines[1]).toBe(
      "  vitest-sqlite.json: server/a.test.ts > a > refuses: AssertionError: expected 1 to be 2",
    );
    expect(lines[2]).toBe(
      "  playwright.json: f.spec.ts > student > signs in: Timeout 5000ms exceeded.",
    );
    expect(lines.at(-1)).toBe("7 passed, 2 failed");
  });

  it("counts a missing report as a failure and caps the failures it names", async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      file: `server/t${i}.test.ts`,
      title: `t${i}`,
      message: "boom",
    }));
    await write("vitest-sqlite.json", vitestReport(many, 0));
    await write("vitest-sqlite-oldest-node.json", vitestReport([], 0));
    await write("playwright.json", { stats: { expected: 0 }, errors: [] });
    const { code, out } = await summary(dir);
    expect(code).toBe(1);
    expect(out).toContain("  ... and 5 more");
    expect(out.match(/^ {2}vitest-sqlite\.json: /gm)).toHaveLength(20);
    expect(out).toContain("vitest-postgres.json: missing (counted as 1 failure)");
    expect(out.trim().split("\n").at(-1)).toBe("0 passed, 26 failed");
  });

  it("counts every skipped test as a failure and says so", async () => {
    await write("vitest-sqlite.json", { ...vitestReport([], 4), numPendingTests: 2 });
    await write("vitest-sqlite-oldest-node.json", vitestReport([], 4));
    await write("vitest-postgres.json", vitestReport([], 4));
    await write("playwright.json", { stats: { expected: 2, skipped: 1 }, errors: [] });
    const { code, out } = await summary(dir);
    expect(code).toBe(1);
    expect(out).toContain("  vitest-sqlite.json: 2 skipped (a skipped test counts as failed)");
    expect(out).toContain("  playwright.json: 1 skipped (a skipped test counts as failed)");
    expect(out.trim().split("\n").at(-1)).toBe("14 passed, 3 failed");
  });
});

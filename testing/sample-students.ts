import fs from "node:fs";
import { SAMPLE_STATE_LABELS, SAMPLE_STATES, type SampleState } from "../server/sample-journeys.js";
import { resolveFromRoot } from "../server/paths.js";

/**
 * The README's "Sample students to try" table (issue 23): which sample index numbers show which
 * state. The tests read the README itself, so what it tells a newcomer is what they check.
 */
export function readmeSampleStudents(): Map<SampleState, string[]> {
  const readme = fs.readFileSync(resolveFromRoot("README.md"), "utf8");
  const section = readme.split("### Sample students to try")[1]?.split("\n\n|")[1];
  if (!section) throw new Error("README.md has no table under 'Sample students to try'");
  const rows = `|${section}`.split("\n").filter((line) => line.startsWith("|"));
  const table = new Map<SampleState, string[]>();
  for (const row of rows.slice(2)) {
    const [, finds = "", numbers = ""] = row.split("|").map((cell) => cell.trim());
    const state = SAMPLE_STATES.find((s) => finds.startsWith(SAMPLE_STATE_LABELS[s]));
    if (!state) throw new Error(`README row names no sample state: ${row}`);
    table.set(
      state,
      [...numbers.matchAll(/`(\d{8})`/g)].map((m) => m[1] ?? ""),
    );
  }
  return table;
}

/** The first index number the README gives for a state. */
export function readmeSampleStudent(state: SampleState): string {
  const [indexNumber] = readmeSampleStudents().get(state) ?? [];
  if (!indexNumber) throw new Error(`README.md names no sample student "${state}"`);
  return indexNumber;
}

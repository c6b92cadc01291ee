import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import {
  DOCUMENT_ITEMS,
  EXAMINER_VALUES,
  generateSampleJourneys,
  generateSampleSubmissions,
  SGS_ADMIN_VALUES,
  THESIS_STATUS_VALUES,
  type SampleRecord,
} from "../../../scripts/sample-data-generator.js";
import { SAMPLE_STATES, type SampleJourneys } from "../../sample-journeys.js";

// Read as data, not imported, so the test sees exactly the bytes that are committed.
const fixture = JSON.parse(
  readFileSync(new URL("./submissions.json", import.meta.url), "utf8"),
) as SampleRecord[];
const journeys = JSON.parse(
  readFileSync(new URL("./journeys.json", import.meta.url), "utf8"),
) as SampleJourneys;
const journeyIndexNumbers = new Set(journeys.journeys.map((j) => j.indexNumber));

const ALLOWED_KEYS = new Set<string>([
  "idNo",
  "StudentName",
  "IndexNumber",
  "Programme",
  "Contact",
  ...DOCUMENT_ITEMS,
  "SGSAdmin",
  "InternalExaminer",
  "ExternalExaminer",
  "Thesis Status",
  "Effective Date",
]);

describe("sample submissions fixture", () => {
  it("holds between 440 and 460 records", () => {
    expect(fixture.length).toBeGreaterThanOrEqual(440);
    expect(fixture.length).toBeLessThanOrEqual(460);
  });

  it("runs ids from 1 to 479, strictly increasing", () => {
    const ids = fixture.map((record) => record.idNo);
    expect(ids[0]).toBe(1);
    expect(ids.at(-1)).toBe(479);
    for (let i = 1; i < ids.length; i += 1) {
      expect(ids[i]).toBeGreaterThan(ids[i - 1] ?? Number.POSITIVE_INFINITY);
    }
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
  });

  it("gives every record a unique 8-digit index number not starting with 0", () => {
    const indexNumbers = fixture.map((record) => record.IndexNumber);
    for (const indexNumber of indexNumbers) expect(indexNumber).toMatch(/^[1-9]\d{7}$/);
    expect(new Set(indexNumbers).size).toBe(indexNumbers.length);
  });

  it("uses only the prototype's keys, omitting missing fields instead of writing blanks", () => {
    for (const record of fixture) {
      for (const [key, value] of Object.entries(record)) {
        expect(ALLOWED_KEYS).toContain(key);
        if (key === "idNo") continue;
        expect(typeof value).toBe("string");
        expect(value).not.toBe("");
      }
    }
  });

  it("uses only the observed values for documents, SGSAdmin and examiners", () => {
    for (const record of fixture) {
      for (const item of DOCUMENT_ITEMS) {
        if (item in record) expect(record[item]).toBe("Submitted");
      }
      if ("SGSAdmin" in record) expect(SGS_ADMIN_VALUES).toContain(record.SGSAdmin);
      if ("InternalExaminer" in record) expect(EXAMINER_VALUES).toContain(record.InternalExaminer);
      if ("ExternalExaminer" in record) expect(EXAMINER_VALUES).toContain(record.ExternalExaminer);
    }
  });

  it("shows examiner states only on records sent to examiners", () => {
    const withExaminerState = fixture.filter(
      (record) => "InternalExaminer" in record || "ExternalExaminer" in record,
    );
    expect(withExaminerState.length).toBeGreaterThan(0);
    for (const record of withExaminerState) expect(record.SGSAdmin).toBe("Sent to Examiners");
  });

  // The sample students' journeys (sample-journeys.ts) end with an outcome in Thesis Status; of the
  // prototype's own records, only the first carries one.
  it("carries Effective Date on the first record only, and Thesis Status there and where a journey ends with an outcome", () => {
    const [first, ...rest] = fixture;
    expect(first?.["Thesis Status"]).toBe("Initial Submission");
    expect(first?.["Effective Date"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const record of rest) {
      expect(record).not.toHaveProperty("Effective Date");
      if (!journeyIndexNumbers.has(record.IndexNumber)) {
        expect(record).not.toHaveProperty("Thesis Status");
      } else if (record["Thesis Status"] !== undefined) {
        expect(THESIS_STATUS_VALUES).toContain(record["Thesis Status"]);
      }
    }
  });

  it("gives each state a newcomer can try at least one journey, each on a record of the list", () => {
    const indexNumbers = new Set(fixture.map((record) => record.IndexNumber));
    for (const journey of journeys.journeys) expect(indexNumbers).toContain(journey.indexNumber);
    expect(journeyIndexNumbers.size).toBe(journeys.journeys.length);
    expect(new Set(journeys.journeys.map((j) => j.shows))).toEqual(new Set(SAMPLE_STATES));
  });

  it("puts the sample examiners under the reserved .example domain, so no mail reaches anyone", () => {
    expect(journeys.examiners.length).toBeGreaterThan(0);
    for (const examiner of journeys.examiners) expect(examiner.email).toMatch(/\.example$/);
  });

  it("matches a fresh run of the generator", () => {
    expect(generateSampleSubmissions()).toEqual(fixture);
    expect(generateSampleJourneys()).toEqual(journeys);
  });
});

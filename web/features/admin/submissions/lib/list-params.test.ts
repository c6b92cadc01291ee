import { describe, expect, it } from "vitest";
import {
  submissionListQuerySchema,
  type SubmissionListQuery,
} from "../../../../../common/submissions-api.js";
import { readListQuery, readOpenId, withParams } from "./list-params.js";

describe("list parameters in the address", () => {
  it("reads search, filters, sort and page with the API's defaults", () => {
    const query = readListQuery(new URLSearchParams("q=ama&sgsStage=sent_to_examiners&page=3"));
    expect(query).toMatchObject({
      q: "ama",
      sgsStage: "sent_to_examiners",
      page: 3,
      sort: "name",
      order: "asc",
      pageSize: 25,
    });
  });

  it("drops a value the API would refuse instead of breaking the page", () => {
    const query = readListQuery(new URLSearchParams("q=ama&sgsStage=lost&pageSize=5000"));
    expect(query.q).toBe("ama");
    expect(query.sgsStage).toBeUndefined();
    expect(query.pageSize).toBe(25);
  });

  it("goes back to page 1 when the search or a filter changes, not when a record opens", () => {
    const params = new URLSearchParams("q=ama&page=4");
    expect(withParams(params, { q: "kofi" }).toString()).toBe("q=kofi");
    expect(withParams(params, { open: 7 }).toString()).toBe("q=ama&page=4&open=7");
    expect(withParams(params, { q: "" }).toString()).toBe("");
  });

  it("reads the open submission's id only when it is a positive whole number", () => {
    expect(readOpenId(new URLSearchParams("open=12"))).toBe(12);
    expect(readOpenId(new URLSearchParams("open=abc"))).toBeNull();
    expect(readOpenId(new URLSearchParams(""))).toBeNull();
  });

  it("reads the documents filter and drops a value the API does not know", () => {
    expect(readListQuery(new URLSearchParams("documents=waiting")).documents).toBe("waiting");
    expect(readListQuery(new URLSearchParams("documents=lost")).documents).toBeUndefined();
    expect(
      withParams(new URLSearchParams("documents=waiting&page=3"), {
        documents: "returned",
      }).toString(),
    ).toBe("documents=returned");
  });
});

// The list page reads its address by hand so zod stays off its first load. This is how it read it
// with the API's schema before: drop each refused parameter, parse again. The hand reading must
// give the same answer, key for key (a blank filter keeps its key with no value).
const QUERY_KEYS = [
  "q",
  "programme",
  "sgsStage",
  "internalExaminer",
  "externalExaminer",
  "thesisStatus",
  "missingDocument",
  "documents",
  "sort",
  "order",
  "page",
  "pageSize",
] as const;

function readWithSchema(params: URLSearchParams): SubmissionListQuery {
  const raw: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  let parsed = submissionListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string") delete raw[key];
    }
    parsed = submissionListQuerySchema.safeParse(raw);
  }
  return parsed.success ? parsed.data : submissionListQuerySchema.parse({});
}

const BLANKS = ["", " ", "\t", "  \n "];
const TEXTS = ["ama", "  Ama Mensah  ", "x".repeat(100), ` ${"x".repeat(100)} `, "x".repeat(101)];
const LONG_TEXTS = ["x".repeat(200), ` ${"y".repeat(200)}\t`, "x".repeat(201)];
const NUMBERS = [
  "1",
  "3",
  " 7 ",
  "0",
  "-1",
  "2.5",
  "5.0",
  "1e2",
  "0x10",
  "0b11",
  "+4",
  "25",
  "100",
  "101",
  "100000",
  "100001",
  "1e5",
  "Infinity",
  "NaN",
  "abc",
  "12abc",
  "9007199254740993",
];
const CANDIDATES: Record<(typeof QUERY_KEYS)[number], string[]> = {
  q: [...BLANKS, ...TEXTS],
  programme: [...BLANKS, ...TEXTS, ...LONG_TEXTS],
  sgsStage: [...BLANKS, "awaiting_review", "sent_to_examiners", "none", " none", "NONE", "lost"],
  internalExaminer: [...BLANKS, "awaiting", "received", "report_submitted", "none", "Awaiting"],
  externalExaminer: [...BLANKS, "received", "none", "report_submitted ", "lost"],
  thesisStatus: [...BLANKS, ...TEXTS],
  missingDocument: [...BLANKS, "thesis", "turnitinReport", "financialClearance", "Thesis", "x"],
  documents: [...BLANKS, "missing", "waiting", "returned", "lost", " waiting"],
  sort: [...BLANKS, "name", "indexNumber", "programme", "createdAt", "updatedAt", "Name", "id"],
  order: [...BLANKS, "asc", "desc", "ASC", "up"],
  page: [...BLANKS, ...NUMBERS],
  pageSize: [...BLANKS, ...NUMBERS],
};

/** A small seeded generator, so a failure names an address that can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function addresses(): URLSearchParams[] {
  const all: URLSearchParams[] = [new URLSearchParams("")];
  for (const key of QUERY_KEYS) {
    for (const value of CANDIDATES[key]) all.push(new URLSearchParams([[key, value]]));
  }
  const random = seeded(11);
  for (let n = 0; n < 3000; n += 1) {
    const params = new URLSearchParams();
    for (const key of QUERY_KEYS) {
      if (random() < 0.5) continue;
      const values = CANDIDATES[key];
      params.set(key, values[Math.floor(random() * values.length)] ?? "");
    }
    all.push(params);
  }
  // A repeated parameter: both readings take the first.
  all.push(new URLSearchParams("page=2&page=x&sgsStage=lost&sgsStage=none"));
  return all;
}

describe("readListQuery agrees with submissionListQuerySchema", () => {
  it("gives the schema's answer, key for key, on every address tried", () => {
    const tried = addresses();
    for (const params of tried) {
      expect({ address: params.toString(), query: readListQuery(params) }).toStrictEqual({
        address: params.toString(),
        query: readWithSchema(params),
      });
    }
    expect(tried.length).toBeGreaterThan(3000);
  });

  it("keeps a blank filter's key without a value and fills blank sort and page with defaults", () => {
    const query = readListQuery(new URLSearchParams("q=%20&sort=&page=&order=up"));
    expect(Object.keys(query)).toContain("q");
    expect(query.q).toBeUndefined();
    expect(query).toMatchObject({ sort: "name", order: "asc", page: 1, pageSize: 25 });
  });
});

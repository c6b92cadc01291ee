import { describe, expect, it } from "vitest";
import { documentVersionResponseSchema } from "../../../../common/documents.js";
import { readDocumentVersion } from "./upload-document.js";

// The upload's answer is checked by hand so zod stays off the status page's first load; the check
// must accept and refuse what the shared schema accepts and refuses, and keep the same fields.
const valid = {
  id: 7,
  item: "thesis",
  version: 2,
  fileName: "thesis.pdf",
  sizeBytes: 1024,
  pageCount: 120,
  hasJavaScript: false,
  hasEmbeddedFiles: true,
  uploadedAt: "2026-11-23T10:00:00.000Z",
  reviewState: "pending",
  reviewedAt: null,
  returnReason: null,
  href: "/api/documents/7",
};

/** Every field set to each of these in turn, then removed: the schema decides which pass. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  "",
  "thesis",
  "pending",
  "returned",
  "lost",
  0,
  -3,
  2.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  2 ** 53 - 1,
  true,
  false,
  [],
  {},
  "2026-01-01",
];

function answers(): unknown[] {
  const all: unknown[] = [
    { data: valid },
    { data: { ...valid, extra: "dropped" }, other: 1 },
    { data: { ...valid, reviewState: "returned", reviewedAt: "x", returnReason: "Blurred" } },
    { data: null },
    { data: [] },
    { data: "text" },
    {},
    null,
    undefined,
    "text",
    [valid],
    valid,
  ];
  for (const key of Object.keys(valid)) {
    for (const value of ODD_VALUES) all.push({ data: { ...valid, [key]: value } });
    const without: Record<string, unknown> = { ...valid };
    delete without[key];
    all.push({ data: without });
  }
  return all;
}

describe("readDocumentVersion", () => {
  it("agrees with documentVersionResponseSchema on every answer tried", () => {
    const tried = answers();
    for (const answer of tried) {
      const parsed = documentVersionResponseSchema.safeParse(answer);
      expect({ answer, read: readDocumentVersion(answer) }).toStrictEqual({
        answer,
        read: parsed.success ? parsed.data.data : undefined,
      });
    }
    expect(tried.length).toBeGreaterThan(250);
  });

  it("drops fields the schema does not name", () => {
    expect(readDocumentVersion({ data: { ...valid, extra: 1 } })).toStrictEqual(valid);
  });
});

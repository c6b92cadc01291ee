import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { thesisDetailsInputSchema } from "../../../../common/documents.js";
import { MAX_ABSTRACT_LENGTH, MAX_TITLE_LENGTH } from "../../../../common/documents-constants.js";
import { checkThesisDetails } from "./thesis-details-checks.js";

// The form checks by hand so zod stays off the status page's first load; the schema is what the
// server applies, so the hand check must accept, trim and refuse exactly as it does.
function bySchema(values: { title: string; abstract: string }) {
  const parsed = thesisDetailsInputSchema.safeParse(values);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

const SPACES = [" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\ufeff"];

/** Text near the limits, blank or padded with the whitespace String.prototype.trim removes. */
function text(max: number) {
  return fc
    .tuple(
      fc.array(fc.constantFrom(...SPACES), { maxLength: 3 }),
      fc.oneof(
        fc.constant(""),
        fc.string({ maxLength: 20 }),
        fc.string({ unit: "grapheme", maxLength: 5 }),
        fc.integer({ min: max - 2, max: max + 2 }).map((length) => "x".repeat(length)),
        fc.integer({ min: max - 2, max: max + 2 }).map((length) => "é".repeat(length)),
      ),
      fc.array(fc.constantFrom(...SPACES), { maxLength: 3 }),
    )
    .map(([before, middle, after]) => before.join("") + middle + after.join(""));
}

describe("checkThesisDetails", () => {
  it("agrees with thesisDetailsInputSchema on generated titles and abstracts", () => {
    fc.assert(
      fc.property(text(MAX_TITLE_LENGTH), text(MAX_ABSTRACT_LENGTH), (title, abstract) => {
        expect(checkThesisDetails({ title, abstract })).toStrictEqual(
          bySchema({ title, abstract }),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("names both fields when both are blank, in the schema's words", () => {
    expect(checkThesisDetails({ title: "  ", abstract: "" })).toStrictEqual({
      ok: false,
      errors: { title: "is required", abstract: "is required" },
    });
  });

  it("refuses a title one character over the limit and trims what it accepts", () => {
    expect(
      checkThesisDetails({ title: "x".repeat(MAX_TITLE_LENGTH + 1), abstract: "a" }),
    ).toStrictEqual({
      ok: false,
      errors: { title: `must be at most ${MAX_TITLE_LENGTH} characters` },
    });
    expect(checkThesisDetails({ title: " T ", abstract: "\nA\n" })).toStrictEqual({
      ok: true,
      values: { title: "T", abstract: "A" },
    });
  });
});

import { describe, expect, it } from "vitest";
import { describePage, describeRange, describeTotal, hasNextPage } from "./list-count.js";

const capped = { page: 1, pageSize: 25, shown: 25, total: 10_000, totalCapped: true };
const exact = { page: 1, pageSize: 25, shown: 25, total: 60, totalCapped: false };

describe("the list's count and pages", () => {
  it("says 'more than' in words for a capped total, and the exact figure otherwise", () => {
    expect(describeTotal(capped)).toBe("more than 10,000 submissions");
    expect(describeTotal({ total: 1, totalCapped: false })).toBe("1 submission");
    expect(describeTotal({ total: 1234, totalCapped: false })).toBe("1,234 submissions");
  });

  it("describes the range shown from the rows on the page", () => {
    expect(describeRange(capped)).toBe("Showing 1–25 of more than 10,000 submissions");
    expect(describeRange({ ...exact, page: 3, shown: 10 })).toBe("Showing 51–60 of 60 submissions");
    expect(describeRange({ ...capped, page: 401, shown: 10 })).toBe(
      "Showing 10,001–10,010 of more than 10,000 submissions",
    );
    expect(describeRange({ ...exact, shown: 0, total: 0 })).toBe("No submissions found");
    expect(describeRange({ ...capped, page: 999, shown: 0 })).toBe(
      "Page 999 is past the end of the list",
    );
  });

  it("gives the page count as a lower bound when the total is capped", () => {
    expect(describePage(exact)).toBe("Page 1 of 3");
    expect(describePage({ ...exact, total: 0 })).toBe("Page 1 of 1");
    expect(describePage(capped)).toBe("Page 1 of more than 400");
    // 10,001 or more rows at 30 a page fill at least 334 pages: "more than 333" holds.
    expect(describePage({ ...capped, pageSize: 30 })).toBe("Page 1 of more than 333");
    expect(describePage({ ...capped, pageSize: 100 })).toBe("Page 1 of more than 100");
  });

  it("offers Next on a capped list while pages come back full, on an exact one until the last", () => {
    expect(hasNextPage(capped)).toBe(true);
    expect(hasNextPage({ ...capped, page: 500 })).toBe(true);
    expect(hasNextPage({ ...capped, page: 401, shown: 10 })).toBe(false);
    expect(hasNextPage(exact)).toBe(true);
    expect(hasNextPage({ ...exact, page: 3, shown: 10 })).toBe(false);
  });
});

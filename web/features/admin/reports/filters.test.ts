import { describe, expect, it } from "vitest";
import { deanPdfHref, exportHref, filtersFromSearch, searchFromFilters } from "./filters.js";

describe("report filters in the address", () => {
  it("round-trips, leaving blanks and defaults out", () => {
    const search = new URLSearchParams(
      "programme=PhD%20Chemistry&cohort=2023&from=2024-01&to=2024-12&compare=true&examinerPage=3",
    );
    const filters = filtersFromSearch(search);
    expect(filters).toEqual({
      programme: "PhD Chemistry",
      cohort: "2023",
      from: "2024-01",
      to: "2024-12",
      compare: true,
      examinerPage: 3,
    });
    expect(searchFromFilters(filters).toString()).toBe(search.toString());
    expect(searchFromFilters(filtersFromSearch(new URLSearchParams("compare=no"))).toString()).toBe(
      "",
    );
  });

  it("gives files the filters but not the examiner page", () => {
    const filters = filtersFromSearch(new URLSearchParams("programme=MA%20History&examinerPage=2"));
    expect(deanPdfHref(filters)).toBe("/api/admin/reports/dean.pdf?programme=MA+History");
    expect(exportHref(filters, "csv", "outcomes")).toBe(
      "/api/admin/reports/export?programme=MA+History&format=csv&table=outcomes",
    );
  });
});

import { describe, expect, it } from "vitest";
import { chartSummary, layoutBars, niceScale } from "./report-charts.js";

describe("report chart geometry", () => {
  it("ends the scale on a round number at or above the largest value", () => {
    expect(niceScale(143)).toEqual({ max: 150, step: 50 });
    expect(niceScale(7)).toEqual({ max: 8, step: 2 });
    expect(niceScale(0)).toEqual({ max: 1, step: 1 });
    expect(niceScale(1000)).toEqual({ max: 1000, step: 250 });
  });

  it("draws bars in proportion to their values, skipping missing ones", () => {
    const layout = layoutBars(
      {
        categories: ["A", "B"],
        series: [
          { name: "median", values: [50, null] },
          { name: "p90", values: [100, 25] },
        ],
      },
      { width: 300, labelWidth: 100, barHeight: 10, gap: 10 },
    );
    expect(layout.bars.map((b) => b.value)).toEqual([50, 100, 25]);
    const [half, full, quarter] = layout.bars;
    expect(full!.width).toBeCloseTo(layout.plot.width);
    expect(half!.width).toBeCloseTo(layout.plot.width / 2);
    expect(quarter!.width).toBeCloseTo(layout.plot.width / 4);
    // Category B's group starts below A's.
    expect(quarter!.y).toBeGreaterThan(full!.y);
    expect(layout.ticks.at(-1)!.value).toBe(100);
    expect(layout.labels.map((l) => l.text)).toEqual(["A", "B"]);
  });

  it("summarises a chart by its largest value, or says there is none", () => {
    const data = { categories: ["X", "Y"], series: [{ name: "days", values: [3, 9] }] };
    expect(chartSummary(data, "days")).toContain("Largest: Y, 9 days");
    expect(chartSummary({ categories: [], series: [] }, "days")).toBe(
      "No figures for this selection.",
    );
  });
});

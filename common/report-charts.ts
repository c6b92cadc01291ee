/**
 * The geometry of the Reports page's charts, shared by the page (SVG drawn by React) and the dean's
 * PDF (paths drawn by pdfkit), so both draw the same bars from the same numbers (ADR 024). Pure:
 * numbers in, rectangles out, in a coordinate space whose origin is the top left corner.
 */

/** Rows of the chart (stages, kinds, outcomes, months), each with one value per series. */
export interface ChartData {
  categories: readonly string[];
  series: readonly { name: string; values: readonly (number | null)[] }[];
}

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  category: number;
  series: number;
  value: number;
}

export interface ChartTick {
  x: number;
  value: number;
}

export interface ChartLayout {
  width: number;
  height: number;
  /** The plotting area, right of the category labels. */
  plot: { x: number; y: number; width: number; height: number };
  bars: ChartBar[];
  ticks: ChartTick[];
  /** Where each category's label sits (its vertical middle). */
  labels: { text: string; y: number }[];
}

export interface ChartOptions {
  width: number;
  /** Room for the category labels on the left. */
  labelWidth?: number;
  /** The height of one series' bar. */
  barHeight?: number;
  /** Space between categories. */
  gap?: number;
  /** Room under the plot for the axis' tick labels. */
  axisHeight?: number;
}

/**
 * A scale that ends on a round number: the smallest of 1, 2, 2.5 or 5 times a power of ten that
 * splits `max` into at most `count` steps. Zero or less (no data) gives a scale of 0..1.
 */
export function niceScale(max: number, count = 4): { max: number; step: number } {
  if (!(max > 0) || !Number.isFinite(max)) return { max: 1, step: 1 };
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  return { max: Math.ceil(max / step - 1e-9) * step, step };
}

/** Horizontal bars, one group per category, one bar per series in each group. */
export function layoutBars(data: ChartData, options: ChartOptions): ChartLayout {
  const labelWidth = options.labelWidth ?? 140;
  const barHeight = options.barHeight ?? 10;
  const gap = options.gap ?? 10;
  const axisHeight = options.axisHeight ?? 18;
  const seriesCount = Math.max(1, data.series.length);
  const groupHeight = seriesCount * barHeight;
  const plot = {
    x: labelWidth,
    y: gap / 2,
    width: Math.max(10, options.width - labelWidth - 8),
    height: data.categories.length * (groupHeight + gap),
  };
  const values = data.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const scale = niceScale(Math.max(0, ...values));
  const toX = (value: number) => plot.x + (Math.max(0, value) / scale.max) * plot.width;
  const bars: ChartBar[] = [];
  data.categories.forEach((_, category) => {
    data.series.forEach((s, series) => {
      const value = s.values[category];
      if (value === null || value === undefined) return;
      bars.push({
        x: plot.x,
        y: plot.y + category * (groupHeight + gap) + series * barHeight,
        width: toX(value) - plot.x,
        height: barHeight - 1,
        category,
        series,
        value,
      });
    });
  });
  const ticks: ChartTick[] = [];
  for (let value = 0; value <= scale.max + 1e-9; value += scale.step) {
    ticks.push({ x: toX(value), value: Number(value.toPrecision(12)) });
  }
  return {
    width: options.width,
    height: plot.y + plot.height + axisHeight,
    plot,
    bars,
    ticks,
    labels: data.categories.map((text, category) => ({
      text,
      y: plot.y + category * (groupHeight + gap) + groupHeight / 2,
    })),
  };
}

/** A one-sentence summary for a chart's text alternative: its largest value and where. */
export function chartSummary(data: ChartData, unit: string): string {
  let best: { category: string; series: string; value: number } | null = null;
  data.series.forEach((s) =>
    s.values.forEach((value, index) => {
      if (value === null) return;
      if (best === null || value > best.value) {
        best = { category: data.categories[index] ?? "", series: s.name, value };
      }
    }),
  );
  const found = best as { category: string; series: string; value: number } | null;
  if (found === null) return "No figures for this selection.";
  const which = data.series.length > 1 ? ` (${found.series})` : "";
  return `Largest: ${found.category}${which}, ${found.value} ${unit}. The table beside the chart gives every figure.`;
}

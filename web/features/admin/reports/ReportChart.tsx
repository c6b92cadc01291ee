import { useId } from "react";
import { chartSummary, layoutBars } from "../../../../common/report-charts.js";
import { tableChartData, type ReportTable } from "../../../../common/report-tables.js";

/** Series colours: 3:1 or more against white, and each also told apart by its place in the group. */
const SERIES_CLASSES = ["report-chart__bar--0", "report-chart__bar--1", "report-chart__bar--2"];

/**
 * A table's chart as SVG (ADR 024): horizontal bars drawn from the table's own cells by the
 * geometry the dean's PDF uses. It is one image to assistive technology, named by the table's
 * title and described by a one-sentence summary; the table beside it holds every number.
 */
export function ReportChart({ table }: { table: ReportTable }) {
  const titleId = useId();
  const descId = useId();
  const data = tableChartData(table);
  if (!data || !table.chart || table.rows.length === 0) return null;
  const unit = table.chart.unit;
  const layout = layoutBars(data, {
    width: 640,
    labelWidth: 250,
    barHeight: data.series.length > 1 ? 9 : 14,
    gap: 10,
    axisHeight: 22,
  });
  const legend = data.series.length > 1 ? 26 : 0;
  const height = layout.height + legend;
  return (
    <svg
      className="report-chart"
      viewBox={`0 0 ${layout.width} ${height}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descId}
      focusable="false"
    >
      <title id={titleId}>{`${table.title} (chart, ${unit})`}</title>
      <desc id={descId}>{chartSummary(data, unit)}</desc>
      {layout.ticks.map((tick) => (
        <g key={tick.value}>
          <line
            x1={tick.x}
            x2={tick.x}
            y1={layout.plot.y}
            y2={layout.plot.y + layout.plot.height}
            className="report-chart__grid"
          />
          <text
            x={tick.x}
            y={layout.plot.y + layout.plot.height + 16}
            textAnchor="middle"
            className="report-chart__tick"
          >
            {tick.value}
          </text>
        </g>
      ))}
      {layout.bars.map((bar) => (
        <rect
          key={`${bar.category}-${bar.series}`}
          x={bar.x}
          y={bar.y}
          width={Math.max(bar.width, 1)}
          height={bar.height}
          data-value={bar.value}
          className={`report-chart__bar ${SERIES_CLASSES[bar.series % SERIES_CLASSES.length] ?? ""}`}
        />
      ))}
      <line
        x1={layout.plot.x}
        x2={layout.plot.x}
        y1={layout.plot.y}
        y2={layout.plot.y + layout.plot.height}
        className="report-chart__axis"
      />
      {layout.labels.map((label, index) => (
        <text
          key={index}
          x={layout.plot.x - 8}
          y={label.y + 4}
          textAnchor="end"
          className="report-chart__label"
        >
          {label.text.length > 38 ? `${label.text.slice(0, 37)}…` : label.text}
        </text>
      ))}
      {legend > 0
        ? data.series.map((series, index) => (
            <g
              key={series.name}
              transform={`translate(${8 + index * 210}, ${layout.height + 8})`}
            >
              <rect
                width={12}
                height={12}
                className={`report-chart__bar ${SERIES_CLASSES[index % SERIES_CLASSES.length] ?? ""}`}
              />
              <text x={18} y={11} className="report-chart__label">
                {series.name}
              </text>
            </g>
          ))
        : null}
    </svg>
  );
}

import { useId } from "react";

const monthFormat = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const shortMonth = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });

function monthDate(month: string): Date | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

export function monthLabel(month: string): string {
  const date = monthDate(month);
  return date ? monthFormat.format(date) : month;
}

/**
 * New submissions per month as bars. The picture is for the eye; the same figures are in a table
 * that screen readers read (the SVG itself is hidden from them).
 */
export function MonthlyChart({ perMonth }: { perMonth: { month: string; count: number }[] }) {
  const captionId = useId();
  const max = Math.max(1, ...perMonth.map((m) => m.count));
  const barWidth = 28;
  const gap = 12;
  const chartHeight = 140;
  const width = perMonth.length * (barWidth + gap) + gap;
  const height = chartHeight + 44;
  return (
    <figure className="monthly-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="monthly-chart__caption">
        New submissions per month, last {perMonth.length} months
      </figcaption>
      <div className="monthly-chart__scroll">
        <svg
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          aria-hidden="true"
          focusable="false"
          className="monthly-chart__svg"
        >
          <line
            x1={0}
            x2={width}
            y1={chartHeight + 20}
            y2={chartHeight + 20}
            className="monthly-chart__axis"
          />
          {perMonth.map((m, index) => {
            const h = Math.round((m.count / max) * chartHeight);
            const x = gap + index * (barWidth + gap);
            const y = chartHeight + 20 - h;
            const date = monthDate(m.month);
            return (
              <g key={m.month}>
                <rect
                  x={x}
                  y={y}
                  width={barWidth}
                  height={Math.max(h, m.count > 0 ? 2 : 0)}
                  rx={3}
                  className="monthly-chart__bar"
                />
                <text
                  x={x + barWidth / 2}
                  y={y - 6}
                  textAnchor="middle"
                  className="monthly-chart__value"
                >
                  {m.count}
                </text>
                <text
                  x={x + barWidth / 2}
                  y={chartHeight + 38}
                  textAnchor="middle"
                  className="monthly-chart__label"
                >
                  {date ? shortMonth.format(date) : m.month}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <table className="visually-hidden">
        <caption>New submissions per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">New submissions</th>
          </tr>
        </thead>
        <tbody>
          {perMonth.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthLabel(m.month)}</th>
              <td>{m.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

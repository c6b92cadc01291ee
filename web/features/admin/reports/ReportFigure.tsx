import type { ReactNode } from "react";
import type { ReportTable } from "../../../../common/report-tables.js";
import { ReportChart } from "./ReportChart.js";
import { ReportTableView } from "./ReportTableView.js";

/** One figure: its heading, note, chart and the same numbers as a table, and its downloads. */
export function ReportFigure({
  table,
  downloads,
  children,
}: {
  table: ReportTable;
  downloads: ReactNode;
  children?: ReactNode;
}) {
  const headingId = `report-${table.id}-title`;
  return (
    <section className="report-figure card" aria-labelledby={headingId}>
      <h2 id={headingId}>{table.title}</h2>
      {table.note ? <p className="report-figure__note">{table.note}</p> : null}
      <div className={table.chart ? "report-figure__pair" : undefined}>
        {table.chart ? <ReportChart table={table} /> : null}
        <ReportTableView table={table} />
      </div>
      {children}
      <p className="report-figure__downloads">{downloads}</p>
    </section>
  );
}

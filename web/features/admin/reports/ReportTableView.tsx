import type { ReportCell, ReportTable } from "../../../../common/report-tables.js";

function cellText(value: ReportCell): string {
  if (value === null) return "–";
  return typeof value === "number" ? value.toLocaleString("en-GB") : value;
}

/**
 * A figure's numbers as a table: a caption naming it, column headers with their unit, the first
 * cell of each row a row header. Wide tables scroll inside a region that takes the keyboard focus
 * (so they can be scrolled without a mouse) instead of widening the page.
 */
export function ReportTableView({ table }: { table: ReportTable }) {
  return (
    <div
      className="report-table__scroll"
      role="region"
      aria-label={`${table.title}, table`}
      tabIndex={0}
    >
      <table className="table report-table">
        <caption>{table.title}</caption>
        <thead>
          <tr>
            {table.columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.numeric ? "report-table__number" : undefined}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.length === 0 ? (
            <tr>
              <td colSpan={table.columns.length}>No records for this selection.</td>
            </tr>
          ) : (
            table.rows.map((row, index) => (
              <tr key={index}>
                {row.map((value, column) =>
                  column === 0 ? (
                    <th key={column} scope="row">
                      {cellText(value)}
                    </th>
                  ) : (
                    <td
                      key={column}
                      className={
                        table.columns[column]?.numeric ? "report-table__number" : undefined
                      }
                    >
                      {value === null ? (
                        <>
                          <span aria-hidden="true">–</span>
                          <span className="visually-hidden">no data</span>
                        </>
                      ) : (
                        cellText(value)
                      )}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

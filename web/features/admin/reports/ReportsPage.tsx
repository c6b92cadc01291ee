import { useId, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { headlineFigures, lateTable, reportTables } from "../../../../common/report-tables.js";
import type { ReportFigures } from "../../../../common/reports.js";
import { Loading } from "../../../components/ui/Loading.js";
import { LoadError } from "../components/LoadError.js";
import { useReportFigures } from "./api.js";
import { ReportFigure } from "./ReportFigure.js";
import {
  deanPdfHref,
  exportHref,
  filtersFromSearch,
  searchFromFilters,
  NO_FILTERS,
  type ReportFilters,
} from "./filters.js";
import "./reports.css";

const monthFormat = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export function monthWords(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  return match
    ? monthFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1)))
    : month;
}

/** True when nothing in the period and filters was counted at all. */
function isEmpty(figures: ReportFigures): boolean {
  const c = figures.current;
  return (
    c.stages.every((s) => s.days.count === 0 && s.unknownHistory === 0) &&
    c.total.days.count === 0 &&
    c.outcomes.total === 0 &&
    c.examiners.total === 0 &&
    c.throughput.every((r) => r.entered === 0 && r.left === 0) &&
    figures.late.total === 0
  );
}

/**
 * The Reports page (issue 22): where theses wait and for how long. The filters live in the
 * address, so a view can be shared; every figure is a chart with the same numbers in a table
 * beside it, and every table downloads as CSV or XLSX; the dean's report downloads as a PDF.
 */
export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromSearch(params);
  const figures = useReportFigures(filters);
  const apply = (next: ReportFilters) => setParams(searchFromFilters(next));

  return (
    <section aria-labelledby="reports-title" className="reports stack">
      <header className="page__header">
        <h1 id="reports-title">Reports</h1>
      </header>
      <FilterForm key={params.toString()} filters={filters} onApply={apply} />
      <p className="reports__documents">
        <a className="button" href={deanPdfHref(filters)} download>
          Download the dean&apos;s report (PDF)
        </a>{" "}
        <a className="button button--secondary" href={exportHref(filters, "xlsx")} download>
          Download every table (XLSX)
        </a>
      </p>
      {figures.isPending ? (
        <Loading label="Loading the figures…" />
      ) : figures.isError ? (
        <LoadError
          error={figures.error}
          what="the figures"
          onRetry={() => void figures.refetch()}
        />
      ) : (
        <Figures
          figures={figures.data}
          filters={filters}
          busy={figures.isFetching}
          onPage={(page) => apply({ ...filters, examinerPage: page })}
        />
      )}
    </section>
  );
}

function Figures({
  figures,
  filters,
  busy,
  onPage,
}: {
  figures: ReportFigures;
  filters: ReportFilters;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const period = `${monthWords(figures.current.from)} to ${monthWords(figures.current.to)}`;
  const scope = figures.filters.programme ?? "All programmes";
  const cohort = figures.filters.cohort === null ? "" : `, cohort ${figures.filters.cohort}`;
  const earlier = figures.previous
    ? ` Compared with ${monthWords(figures.previous.from)} to ${monthWords(figures.previous.to)}.`
    : "";
  const summary = (
    <p className="reports__scope" role="status">
      {`${scope}${cohort}, ${period}.${earlier}`}
    </p>
  );
  if (isEmpty(figures)) {
    return (
      <div aria-busy={busy}>
        {summary}
        <p className="reports__empty">
          No records match these filters in this period. Try another programme, cohort or months.
        </p>
      </div>
    );
  }
  const tables = reportTables(figures);
  const late = lateTable(figures.late);
  const examinerPages = Math.max(
    1,
    Math.ceil(figures.current.examiners.total / Math.max(1, figures.current.examiners.pageSize)),
  );
  const page = figures.current.examiners.page;
  const downloads = (id: string, title: string) => (
    <>
      <a href={exportHref(filters, "csv", id)} download>
        {`Download ${title} as CSV`}
      </a>{" "}
      <a href={exportHref(filters, "xlsx", id)} download>
        {`Download ${title} as XLSX`}
      </a>
    </>
  );
  return (
    <div className="stack" aria-busy={busy}>
      {summary}
      <dl className="reports__headline">
        {headlineFigures(figures).map((figure) => (
          <div key={figure.label} className="reports__headline-item">
            <dt>{figure.label}</dt>
            <dd>{figure.value}</dd>
          </div>
        ))}
      </dl>
      {[...tables, late].map((table) => (
        <ReportFigure key={table.id} table={table} downloads={downloads(table.id, table.title)}>
          {table.id === "examiners" && examinerPages > 1 ? (
            <nav className="reports__pager" aria-label="Pages of examiners">
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={page <= 1}
                onClick={() => onPage(page - 1)}
              >
                Previous examiners
              </button>
              <span>{`Page ${page} of ${examinerPages}`}</span>
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={page >= examinerPages}
                onClick={() => onPage(page + 1)}
              >
                Next examiners
              </button>
            </nav>
          ) : null}
        </ReportFigure>
      ))}
    </div>
  );
}

/** The filters as a form: applied together (one request), written to the address. */
function FilterForm({
  filters,
  onApply,
}: {
  filters: ReportFilters;
  onApply: (filters: ReportFilters) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(filters);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, examinerPage: 1 });
  };
  return (
    <form className="reports__filters card" onSubmit={submit} aria-label="Report filters">
      <div className="field">
        <label htmlFor={`${id}-programme`}>Programme</label>
        <input
          id={`${id}-programme`}
          value={draft.programme}
          onChange={(e) => setDraft({ ...draft, programme: e.target.value })}
          aria-describedby={`${id}-programme-hint`}
        />
        <span id={`${id}-programme-hint`} className="field__hint">
          The programme&apos;s exact name; leave empty for all.
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-cohort`}>Cohort (year created)</label>
        <input
          id={`${id}-cohort`}
          inputMode="numeric"
          value={draft.cohort}
          onChange={(e) => setDraft({ ...draft, cohort: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From month</label>
        <input
          id={`${id}-from`}
          type="month"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          aria-describedby={`${id}-period-hint`}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To month</label>
        <input
          id={`${id}-to`}
          type="month"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          aria-describedby={`${id}-period-hint`}
        />
      </div>
      <p id={`${id}-period-hint`} className="field__hint reports__period-hint">
        Months as YYYY-MM, both included; without them, the last twelve months.
      </p>
      <div className="field field--checkbox">
        <input
          id={`${id}-compare`}
          type="checkbox"
          checked={draft.compare}
          onChange={(e) => setDraft({ ...draft, compare: e.target.checked })}
        />
        <label htmlFor={`${id}-compare`}>Compare with a year earlier</label>
      </div>
      <div className="reports__filter-actions">
        <button type="submit" className="button">
          Show figures
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onApply(NO_FILTERS)}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}

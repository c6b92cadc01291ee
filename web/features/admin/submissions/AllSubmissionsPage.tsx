import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
} from "react";
import { Link, useSearchParams } from "react-router";
import type { SubmissionSort } from "../../../../common/submissions-api.js";
import { PAGE_SIZE_CHOICES } from "../../../../common/submissions-constants.js";
import { Alert } from "../../../components/ui/Alert.js";
import { Loading } from "../../../components/ui/Loading.js";
import { DebouncedInput } from "../components/DebouncedInput.js";
import { LoadError } from "../components/LoadError.js";
import { adminPaths } from "../paths.js";
import { exportHref } from "./api/export-href.js";
import { useSubmissions } from "./api/get-submissions.js";
import { BulkActionsPlaceholder } from "./components/BulkActionsPlaceholder.js";
import { SubmissionDetailsPanel } from "./components/SubmissionDetailsPanel.js";
import { SubmissionFilters } from "./components/SubmissionFilters.js";
import { SubmissionRow } from "./components/SubmissionRow.js";
import { describePage, describeRange, hasNextPage, type ListPage } from "./lib/list-count.js";
import { activeFilters, readListQuery, readOpenId, withParams } from "./lib/list-params.js";
import "./submissions.css";

// Shown only once rows are selected, so it loads then, with its schema, not with the list
// (issue 11: JavaScript on the first load).
const BulkActions = lazy(() =>
  import("./components/BulkActions.js").then((module) => ({ default: module.BulkActions })),
);

export const SEARCH_PLACEHOLDER = "search according to name or index number";

/**
 * The administrator's list (spec: admin all_submissions; DESIGN: "the administrator's list").
 * Search, filters, sort and page live in the address and are answered by the server; the rows of
 * the last answer stay on screen while the next one loads. Rows are reached with the arrow keys,
 * Enter opens the details panel beside the list, Escape closes it and returns to the row.
 *
 * Up to 100 rows are on screen, so the rows are memoised (components/SubmissionRow.tsx) and the
 * table's clicks, keys and focus are handled once on its body: moving the focus or ticking a row
 * re-renders that row, not the page's hundred. When more than 10,000 submissions match, the
 * server stops counting (LIST_TOTAL_CAP): the page says "more than 10,000" and Next stays on while
 * pages come back full (lib/list-count.ts).
 */
export function AllSubmissionsPage() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readListQuery(params), [params]);
  const openId = readOpenId(params);
  const list = useSubmissions(query);
  const items = useMemo(() => list.data?.items ?? [], [list.data]);

  const searchRef = useRef<HTMLInputElement>(null);
  const tbodyRef = useRef<HTMLTableSectionElement>(null);
  const [activeRowId, setActiveRowId] = useState<number | null>(null);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<number>>(new Set());
  const [bulkMessage, setBulkMessage] = useState<string | null>(null);
  // Open at first when the address already filters the list (a dashboard figure's link).
  const [filtersOpen, setFiltersOpen] = useState(() =>
    Object.keys(activeFilters(query)).some((key) => key !== "q"),
  );

  // A new search, filter or page is a new set of rows: the old selection no longer applies.
  const resultKey = JSON.stringify(query);
  const [selectionFor, setSelectionFor] = useState(resultKey);
  if (selectionFor !== resultKey) {
    setSelectionFor(resultKey);
    setSelectedIds(new Set());
  }

  useEffect(() => {
    searchRef.current?.focus();
  }, []);

  const change = (changes: Record<string, string | number | null>, replace = false) =>
    setParams((current) => withParams(current, changes), { replace });

  const open = (id: number) => {
    setActiveRowId(id);
    change({ open: id }, true);
  };
  const close = () => {
    const closing = openId;
    change({ open: null }, true);
    const row = closing !== null ? rowElement(closing) : null;
    if (row) row.focus();
    else searchRef.current?.focus();
  };

  // Stable (a state setter's updater only), so it never makes the memoised rows render again.
  const toggle = useCallback(
    (id: number) =>
      setSelectedIds((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const rowElement = (id: number) =>
    tbodyRef.current?.querySelector<HTMLTableRowElement>(`tr[data-id="${id}"]`) ?? null;
  /** The row an event in the table's body happened in, and its place on the page. */
  const rowOf = (target: EventTarget) => {
    const row = target instanceof Element ? target.closest<HTMLElement>("tr[data-id]") : null;
    const id = Number(row?.dataset.id);
    const index = items.findIndex((item) => item.id === id);
    return row && index >= 0 ? { row, id, index } : null;
  };

  const focusRow = (index: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!item) return;
    setActiveRowId(item.id);
    rowElement(item.id)?.focus();
  };

  const onRowsClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const hit = rowOf(event.target);
    if (hit) open(hit.id);
  };
  const onRowsFocus = (event: FocusEvent<HTMLTableSectionElement>) => {
    const hit = rowOf(event.target);
    if (hit) setActiveRowId(hit.id);
  };
  const onRowsKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const hit = rowOf(event.target);
    // Keys typed in the row's tick box are the tick box's.
    if (!hit || event.target !== hit.row) return;
    const { id, index } = hit;
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        focusRow(index + 1);
        break;
      case "ArrowUp":
        event.preventDefault();
        focusRow(index - 1);
        break;
      case "Home":
        event.preventDefault();
        focusRow(0);
        break;
      case "End":
        event.preventDefault();
        focusRow(items.length - 1);
        break;
      case "Enter":
        event.preventDefault();
        open(id);
        break;
      case " ":
        event.preventDefault();
        toggle(id);
        break;
      case "Escape":
        if (openId !== null) {
          event.preventDefault();
          close();
        }
        break;
    }
  };

  const sortBy = (sort: SubmissionSort) => {
    const order = query.sort === sort && query.order === "asc" ? "desc" : "asc";
    change({ sort, order, page: null });
  };

  const filters = activeFilters(query);
  const { q: _q, ...filtersOnly } = filters;
  const hasFilters = Object.keys(filtersOnly).length > 0;
  // Counted from the answer on screen, which is the previous one while the next loads.
  const shownPage: ListPage = {
    page: list.data?.page ?? query.page,
    pageSize: list.data?.pageSize ?? query.pageSize,
    shown: items.length,
    total: list.data?.total ?? 0,
    totalCapped: list.data?.totalCapped ?? false,
  };
  const pageLabel = describePage(shownPage);
  const selected = items.filter((item) => selectedIds.has(item.id));
  const allOnPageSelected = items.length > 0 && selected.length === items.length;
  const rovingId =
    activeRowId !== null && items.some((i) => i.id === activeRowId) ? activeRowId : items[0]?.id;
  const openFromList = openId !== null ? items.find((item) => item.id === openId) : undefined;

  return (
    <section className="submissions-page" aria-labelledby="all-submissions-title">
      <header className="page__header">
        <h1 id="all-submissions-title">All Submissions</h1>
        <div className="actions">
          <Link className="button button--small" to={adminPaths.newSubmission}>
            Add New Submission
          </Link>
          <a
            className="button button--secondary button--small"
            href={exportHref("csv", filters)}
            download
          >
            Export CSV
          </a>
          <a
            className="button button--secondary button--small"
            href={exportHref("xlsx", filters)}
            download
          >
            Export XLSX
          </a>
        </div>
      </header>

      <div className="submissions-search">
        <label htmlFor="submission-search" className="submissions-search__label">
          Search submissions
        </label>
        <DebouncedInput
          ref={searchRef}
          id="submission-search"
          className="input submissions-search__input"
          type="search"
          placeholder={SEARCH_PLACEHOLDER}
          autoComplete="off"
          spellCheck={false}
          value={query.q ?? ""}
          onCommit={(q) => change({ q: q.trim() === "" ? null : q }, true)}
        />
      </div>

      <details
        className="filters-toggle"
        open={filtersOpen}
        onToggle={(event) => setFiltersOpen(event.currentTarget.open)}
      >
        <summary>Filters{hasFilters ? ` (${Object.keys(filtersOnly).length} on)` : ""}</summary>
        <SubmissionFilters query={query} onChange={(changes) => change(changes)} />
        {hasFilters ? (
          <button
            type="button"
            className="button button--link"
            onClick={() =>
              change(Object.fromEntries(Object.keys(filtersOnly).map((key) => [key, null])))
            }
          >
            Clear filters
          </button>
        ) : null}
      </details>

      <p className="submissions-count" role="status" aria-live="polite">
        {list.isPending ? "" : list.isError ? "" : describeRange(shownPage)}
        {list.isFetching && list.isPlaceholderData ? (
          <span className="muted"> · Updating…</span>
        ) : null}
      </p>

      {bulkMessage ? (
        <Alert tone="success">
          <p>{bulkMessage}</p>
        </Alert>
      ) : null}

      {selected.length > 0 ? (
        <Suspense fallback={<BulkActionsPlaceholder count={selected.length} />}>
          <BulkActions
            selected={selected}
            onDone={(message) => {
              setBulkMessage(message);
              setSelectedIds(new Set());
            }}
            onClearSelection={() => setSelectedIds(new Set())}
          />
        </Suspense>
      ) : null}

      <div className="submissions-layout" data-panel-open={openId !== null}>
        <div className="submissions-layout__list">
          {list.isPending ? (
            <Loading label="Loading submissions…" />
          ) : list.isError ? (
            <LoadError
              error={list.error}
              what="the submissions"
              onRetry={() => void list.refetch()}
            />
          ) : items.length === 0 && query.page > 1 ? (
            <div className="empty">
              <p>The list ends before page {query.page}.</p>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => change({ page: null })}
              >
                Go to the first page
              </button>
            </div>
          ) : items.length === 0 ? (
            <div className="empty">
              {query.q || hasFilters ? (
                <>
                  <p>
                    No submission matches {query.q ? <>“{query.q}”</> : "these filters"}
                    {query.q && hasFilters ? " with these filters" : ""}.
                  </p>
                  <p>
                    Check the spelling of the name or index number, or clear the search and filters.
                  </p>
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => {
                      setParams(new URLSearchParams());
                      searchRef.current?.focus();
                    }}
                  >
                    Clear search and filters
                  </button>
                </>
              ) : (
                <>
                  <p>There are no submissions yet.</p>
                  <p className="actions actions--center">
                    <Link to={adminPaths.newSubmission}>Add New Submission</Link>
                    <Link to={adminPaths.import}>Import a spreadsheet</Link>
                  </p>
                </>
              )}
            </div>
          ) : (
            <>
              <p id="submissions-keys" className="field__hint">
                Arrow keys move between rows, Enter opens the details, Space selects a row.
              </p>
              <div className="table-wrap submissions-table-wrap" aria-busy={list.isFetching}>
                <table className="table submissions-table" aria-describedby="submissions-keys">
                  <caption className="visually-hidden">
                    Submissions, {pageLabel.toLowerCase()}
                  </caption>
                  {/* Column widths for the one-line rows of a desk screen (submissions.css). */}
                  <colgroup>
                    <col className="submissions-table__col-select" />
                    <col className="submissions-table__col-name" />
                    <col className="submissions-table__col-index" />
                    <col className="submissions-table__col-programme" />
                    <col />
                  </colgroup>
                  <thead>
                    <tr>
                      <th scope="col" className="submissions-table__select">
                        <input
                          type="checkbox"
                          aria-label="Select every submission on this page"
                          checked={allOnPageSelected}
                          onChange={() =>
                            setSelectedIds(
                              allOnPageSelected ? new Set() : new Set(items.map((item) => item.id)),
                            )
                          }
                        />
                      </th>
                      <SortHeader label="Name" sort="name" query={query} onSort={sortBy} />
                      <SortHeader
                        label="IndexNumber"
                        sort="indexNumber"
                        query={query}
                        onSort={sortBy}
                      />
                      <SortHeader
                        label="Programme"
                        sort="programme"
                        query={query}
                        onSort={sortBy}
                      />
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody
                    ref={tbodyRef}
                    onClick={onRowsClick}
                    onFocus={onRowsFocus}
                    onKeyDown={onRowsKeyDown}
                  >
                    {items.map((item) => (
                      <SubmissionRow
                        key={item.id}
                        submission={item}
                        tabbable={item.id === rovingId}
                        open={item.id === openId}
                        checked={selectedIds.has(item.id)}
                        onToggle={toggle}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <nav className="pagination" aria-label="Pages">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={query.page <= 1}
                  onClick={() => change({ page: query.page - 1 === 1 ? null : query.page - 1 })}
                >
                  Previous
                </button>
                <span>{pageLabel}</span>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={!hasNextPage(shownPage)}
                  onClick={() => change({ page: query.page + 1 })}
                >
                  Next
                </button>
                <label className="pagination__size">
                  Rows per page{" "}
                  <select
                    value={query.pageSize}
                    onChange={(event) => change({ pageSize: event.target.value, page: null })}
                  >
                    {PAGE_SIZE_CHOICES.map((size) => (
                      <option key={size} value={size}>
                        {size}
                      </option>
                    ))}
                  </select>
                </label>
              </nav>
            </>
          )}
        </div>
        {openId !== null ? (
          <SubmissionDetailsPanel
            key={openId}
            submissionId={openId}
            fromList={openFromList}
            onClose={close}
          />
        ) : null}
      </div>
    </section>
  );
}

function SortHeader({
  label,
  sort,
  query,
  onSort,
}: {
  label: string;
  sort: SubmissionSort;
  query: { sort: SubmissionSort; order: "asc" | "desc" };
  onSort: (sort: SubmissionSort) => void;
}) {
  const active = query.sort === sort;
  return (
    <th
      scope="col"
      aria-sort={active ? (query.order === "asc" ? "ascending" : "descending") : undefined}
    >
      <button type="button" className="sort-button" onClick={() => onSort(sort)}>
        {label}
        <span aria-hidden="true" className="sort-button__arrow">
          {active ? (query.order === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}

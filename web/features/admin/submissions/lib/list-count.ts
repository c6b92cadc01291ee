/**
 * The words around the list's rows: how many match, which page this is, whether there is a next
 * one. The server counts matches only up to LIST_TOTAL_CAP (common/submissions-api.ts); past it,
 * the total is "more than 10,000", the last page is unknown, and the next page exists as long as
 * this one is full. Words, not symbols ("more than 10,000", never "10,000+"), so a screen reader
 * announces the count the way it is meant.
 */

// One formatter for the whole page, made once: building an Intl formatter is the costly part.
const numberFormat = new Intl.NumberFormat("en-GB");

export const formatCount = (n: number): string => numberFormat.format(n);

export interface ListPage {
  /** The page and size the shown rows were asked with (the answer's own, not the address's). */
  page: number;
  pageSize: number;
  /** Rows on this page. */
  shown: number;
  total: number;
  totalCapped: boolean;
}

/** "3 submissions", "more than 10,000 submissions". */
export function describeTotal({ total, totalCapped }: Pick<ListPage, "total" | "totalCapped">) {
  if (totalCapped) return `more than ${formatCount(total)} submissions`;
  return `${formatCount(total)} ${total === 1 ? "submission" : "submissions"}`;
}

/** The status line above the table: "Showing 1–25 of more than 10,000 submissions". */
export function describeRange(list: ListPage): string {
  if (list.total === 0 && !list.totalCapped) return "No submissions found";
  if (list.shown === 0) return `Page ${formatCount(list.page)} is past the end of the list`;
  const first = (list.page - 1) * list.pageSize + 1;
  const last = first + list.shown - 1;
  return `Showing ${formatCount(first)}–${formatCount(last)} of ${describeTotal(list)}`;
}

/**
 * How many pages there are: exact when the total is, otherwise the number the capped total fills,
 * which the real count exceeds ("more than 400" at 25 rows per page).
 */
export function pageCountOf({ pageSize, total, totalCapped }: Omit<ListPage, "page" | "shown">): {
  count: number;
  exact: boolean;
} {
  if (totalCapped) return { count: Math.floor(total / pageSize), exact: false };
  return { count: Math.max(1, Math.ceil(total / pageSize)), exact: true };
}

/** "Page 3 of 12", "Page 3 of more than 400". */
export function describePage(list: Omit<ListPage, "shown">): string {
  const pages = pageCountOf(list);
  return `Page ${formatCount(list.page)} of ${pages.exact ? "" : "more than "}${formatCount(pages.count)}`;
}

/** Whether Next leads somewhere: past the cap, a full page means more may follow. */
export function hasNextPage(list: ListPage): boolean {
  if (list.totalCapped) return list.shown >= list.pageSize;
  return list.page < pageCountOf(list).count;
}

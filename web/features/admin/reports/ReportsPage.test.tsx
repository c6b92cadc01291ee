import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { ReportFigures } from "../../../../common/reports.js";
import { mockApi, renderPage } from "../test/harness.js";
import { makeFigures, makePeriod } from "./fixtures.js";
import { ReportsPage } from "./ReportsPage.js";

// fetch is stubbed with GET /api/admin/reports answers shaped by common/reports.ts; the router,
// query client and the page's own code are the real thing.
function setup(url: string, answer: (call: URL) => { status?: number; body: unknown }) {
  const api = mockApi([{ path: "/api/admin/reports", answer: (call) => answer(call.url) }]);
  return { ...renderPage(<ReportsPage />, { path: "/admin/reports", url }), api };
}

function withProgramme(url: URL): ReportFigures {
  const programme = url.searchParams.get("programme");
  const figures = makeFigures({ filters: { programme, cohort: null } });
  if (programme === "MPhil Economics") {
    figures.current.stages[1]!.days = { count: 3, median: 77, p75: 80, p90: 99 };
  }
  return figures;
}

describe("Reports page", () => {
  it("pairs each chart with a table holding the same numbers", async () => {
    setup("/admin/reports", () => ({ body: makeFigures() }));
    const table = await screen.findByRole("table", { name: "Time in each stage" });
    const rows = within(table).getAllByRole("row");
    // Header, five stages, the whole span.
    expect(rows).toHaveLength(7);
    const sentToDepartment = within(table).getByRole("rowheader", { name: "Sent to Department" });
    const cells = within(sentToDepartment.closest("tr")!).getAllByRole("cell");
    expect(cells.map((c) => c.textContent)).toEqual(["20", "25", "31", "21", "0"]);

    const chart = screen.getByRole("img", { name: "Time in each stage (chart, days)" });
    // Median, 75th and 90th percentile for six rows: one bar each.
    const bars = [...chart.querySelectorAll("rect[data-value]")];
    expect(bars).toHaveLength(18);
    // The bars are the table's own medians and percentiles, row by row.
    expect(bars.slice(3, 6).map((r) => Number(r.getAttribute("data-value")))).toEqual([20, 25, 31]);
    // The text alternative names the largest value, read from the same rows (the whole span's 90th).
    expect(chart.querySelector("desc")?.textContent).toContain(
      "Whole span: first upload to released outcome (90th percentile (days)), 154 days",
    );
    // The longest bar is the largest value.
    const widths = bars.map((r) => Number(r.getAttribute("width")));
    expect(Math.max(...widths)).toBe(widths[17]);
  });

  it("reads its filters from the address and asks the server for them", async () => {
    const { api } = setup(
      "/admin/reports?programme=MPhil%20Economics&cohort=2024&from=2025-01&to=2025-12&compare=true",
      (url) => ({
        body: {
          ...withProgramme(url),
          previous: makePeriod("2024-01", "2024-12", -5),
        },
      }),
    );
    await screen.findByRole("table", { name: "Time in each stage" });
    const call = api.callsTo("GET", "/api/admin/reports")[0]!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      programme: "MPhil Economics",
      cohort: "2024",
      from: "2025-01",
      to: "2025-12",
      compare: "true",
    });
    expect(screen.getByLabelText("Programme")).toHaveValue("MPhil Economics");
    expect(screen.getByLabelText("From month")).toHaveValue("2025-01");
    expect(screen.getByLabelText("Compare with a year earlier")).toBeChecked();
    // The year-earlier columns are there.
    expect(
      screen.getAllByRole("columnheader", { name: "Median a year earlier (days)" }).length,
    ).toBeGreaterThan(0);
    // The files carry the same filters.
    const pdf = screen.getByRole("link", { name: "Download the dean's report (PDF)" });
    const pdfUrl = new URL(pdf.getAttribute("href")!, "http://localhost");
    expect(pdfUrl.pathname).toBe("/api/admin/reports/dean.pdf");
    expect(pdfUrl.searchParams.get("programme")).toBe("MPhil Economics");
    expect(pdfUrl.searchParams.get("compare")).toBe("true");
    const csv = screen.getByRole("link", { name: "Download Time in each stage as CSV" });
    const csvUrl = new URL(csv.getAttribute("href")!, "http://localhost");
    expect(csvUrl.searchParams.get("table")).toBe("stage-times");
    expect(csvUrl.searchParams.get("format")).toBe("csv");
    expect(csvUrl.searchParams.get("cohort")).toBe("2024");
  });

  it("writes applied filters to the address, so the view can be shared", async () => {
    const user = userEvent.setup();
    const { router, api } = setup("/admin/reports", (url) => ({ body: withProgramme(url) }));
    await screen.findByRole("table", { name: "Time in each stage" });
    await user.type(screen.getByLabelText("Programme"), "MPhil Economics");
    await user.click(screen.getByLabelText("Compare with a year earlier"));
    await user.click(screen.getByRole("button", { name: "Show figures" }));
    await waitFor(() =>
      expect(router.state.location.search).toBe("?programme=MPhil+Economics&compare=true"),
    );
    const table = await screen.findByRole("table", { name: "Time in each stage" });
    await waitFor(() =>
      expect(
        within(
          within(table).getByRole("rowheader", { name: "Sent to Department" }).closest("tr")!,
        ).getAllByRole("cell")[0],
      ).toHaveTextContent("77"),
    );
    expect(api.callsTo("GET", "/api/admin/reports").at(-1)!.url.searchParams.get("programme")).toBe(
      "MPhil Economics",
    );
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("pages the examiners through the address", async () => {
    const user = userEvent.setup();
    const { router } = setup("/admin/reports", (url) => {
      const figures = makeFigures();
      figures.current.examiners.page = Number(url.searchParams.get("examinerPage") ?? 1);
      return { body: figures };
    });
    await screen.findByText("Page 1 of 3");
    await user.click(screen.getByRole("button", { name: "Next examiners" }));
    await waitFor(() => expect(router.state.location.search).toBe("?examinerPage=2"));
    await screen.findByText("Page 2 of 3");
  });

  it("says when nothing matches, and says why a load failed", async () => {
    const empty = makeFigures();
    empty.current = {
      ...empty.current,
      stages: empty.current.stages.map((s) => ({
        ...s,
        days: { count: 0, median: null, p75: null, p90: null },
        unknownHistory: 0,
      })),
      total: { days: { count: 0, median: null, p75: null, p90: null }, unknownHistory: 0 },
      examiners: { items: [], total: 0, page: 1, pageSize: 25 },
      outcomes: { ...empty.current.outcomes, total: 0 },
      throughput: [],
    };
    empty.late = { items: [], total: 0, overdueDays: 60 };
    setup("/admin/reports", () => ({ body: empty }));
    expect(await screen.findByText(/No records match these filters/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows the server's message when a filter is refused", async () => {
    setup("/admin/reports?from=2025-13", () => ({
      status: 400,
      body: {
        success: false,
        code: "validation_error",
        message: "from: must be a month (YYYY-MM)",
        fields: [{ field: "from", message: "must be a month (YYYY-MM)" }],
      },
    }));
    expect(await screen.findByRole("alert")).toHaveTextContent("from: must be a month (YYYY-MM)");
  });
});

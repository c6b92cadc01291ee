import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { SubmissionDto } from "../../../../common/submissions-api.js";
import {
  makeSlots,
  makeSubmission,
  mockApi,
  renderPage,
  type Answer,
  type Call,
} from "../test/harness.js";
import { AllSubmissionsPage, SEARCH_PLACEHOLDER } from "./AllSubmissionsPage.js";

// The server is outside the component's control: fetch is stubbed with a small stand-in for
// GET /api/submissions (docs/api.md) that filters by `q` (and `documents=waiting`) the way the
// contract describes.
const records: SubmissionDto[] = [
  makeSubmission({
    id: 1,
    studentName: "Ama Mensah",
    indexNumber: "PG1000001",
    sgsStage: "sent_to_examiners",
  }),
  makeSubmission({
    id: 2,
    studentName: "Kofi Boateng",
    indexNumber: "PG1000002",
    sgsStage: "awaiting_review",
    documentsToReview: 2,
  }),
  makeSubmission({ id: 3, studentName: "Yaa Asantewaa", indexNumber: "PG1000003", sgsStage: null }),
];

function listAnswer(call: Call): Answer {
  const q = (call.url.searchParams.get("q") ?? "").toLowerCase();
  const waiting = call.url.searchParams.get("documents") === "waiting";
  const items = records.filter(
    (r) =>
      (r.studentName.toLowerCase().includes(q) || r.indexNumber.toLowerCase().includes(q)) &&
      (!waiting || r.documentsToReview > 0),
  );
  return { body: { items, total: items.length, totalCapped: false, page: 1, pageSize: 25 } };
}

/**
 * A long list for the paging tests: `available` submissions exist, the server says `total` of
 * them (with totalCapped when it stopped counting at 10,000), and answers the page asked for.
 */
function pagedList(available: number, total: number, totalCapped: boolean) {
  return {
    path: "/api/submissions",
    answer: (call: Call): Answer => {
      const page = Number(call.url.searchParams.get("page") ?? 1);
      const pageSize = Number(call.url.searchParams.get("pageSize") ?? 25);
      const start = (page - 1) * pageSize;
      const items = Array.from(
        { length: Math.max(0, Math.min(pageSize, available - start)) },
        (_, i) =>
          makeSubmission({
            id: start + i + 1,
            studentName: `Student ${start + i + 1}`,
            indexNumber: `PG${2_000_000 + start + i + 1}`,
          }),
      );
      return { body: { items, total, totalCapped, page, pageSize } };
    },
  };
}

const countLine = () => screen.getByRole("status");
const pagesNav = () => screen.getByRole("navigation", { name: "Pages" });

function setup(url = "/admin/all_submissions", extra: Parameters<typeof mockApi>[0] = []) {
  const api = mockApi([
    ...extra,
    { path: "/api/submissions", answer: listAnswer },
    {
      path: /^\/api\/admin\/submissions\/\d+$/,
      answer: (call) => ({
        body: { data: records.find((r) => `/api/admin/submissions/${r.id}` === call.url.pathname) },
      }),
    },
    { path: /^\/api\/admin\/submissions\/\d+\/events$/, answer: () => ({ body: { items: [] } }) },
    {
      path: /^\/api\/submissions\/[^/]+\/documents$/,
      answer: (call) => {
        const record = records.find((r) => call.url.pathname.includes(`/${r.indexNumber}/`))!;
        const thesis = { title: null, abstract: null };
        const data = { submissionId: record.id, indexNumber: record.indexNumber, thesis };
        return { body: { data: { ...data, items: makeSlots() } } };
      },
    },
  ]);
  const view = renderPage(<AllSubmissionsPage />, { path: "/admin/all_submissions", url });
  const listCalls = () => api.callsTo("GET", "/api/submissions");
  return { ...view, api, listCalls };
}

const rowOf = (name: string) => screen.getByRole("cell", { name }).closest("tr")!;

describe("All Submissions", () => {
  it("focuses the search box on arrival, with the prototype's placeholder", async () => {
    setup();
    const search = screen.getByPlaceholderText(SEARCH_PLACEHOLDER);
    expect(SEARCH_PLACEHOLDER).toBe("search according to name or index number");
    expect(search).toHaveFocus();
    expect(await screen.findByRole("cell", { name: "AMA MENSAH" })).toBeInTheDocument();
  });

  it("shows names upper-case with IndexNumber and Programme columns, and the total", async () => {
    setup();
    expect(await screen.findByRole("cell", { name: "KOFI BOATENG" })).toBeInTheDocument();
    for (const column of ["Name", "IndexNumber", "Programme"]) {
      expect(screen.getByRole("columnheader", { name: column })).toBeInTheDocument();
    }
    expect(screen.getByText("Showing 1–3 of 3 submissions")).toBeInTheDocument();
    expect(within(rowOf("AMA MENSAH")).getByText("SGS: Sent to Examiners")).toBeInTheDocument();
  });

  it("puts the search term in the address and asks the server as you type", async () => {
    const user = userEvent.setup();
    const { router, listCalls } = setup();
    await screen.findByRole("cell", { name: "AMA MENSAH" });

    await user.type(screen.getByPlaceholderText(SEARCH_PLACEHOLDER), "kofi");

    await waitFor(() => expect(router.state.location.search).toBe("?q=kofi"));
    await waitFor(() =>
      expect(screen.queryByRole("cell", { name: "AMA MENSAH" })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole("cell", { name: "KOFI BOATENG" })).toBeInTheDocument();
    // Debounced: one request for the word, not one per key.
    expect(listCalls().map((c) => c.url.searchParams.get("q"))).toEqual([null, "kofi"]);
  });

  it("reads the search term from the address", async () => {
    const { listCalls } = setup("/admin/all_submissions?q=asante");
    expect(screen.getByPlaceholderText(SEARCH_PLACEHOLDER)).toHaveValue("asante");
    expect(await screen.findByRole("cell", { name: "YAA ASANTEWAA" })).toBeInTheDocument();
    expect(screen.queryByRole("cell", { name: "AMA MENSAH" })).not.toBeInTheDocument();
    expect(listCalls()[0]!.url.searchParams.get("q")).toBe("asante");
  });

  it("keeps the previous rows on screen while the next answer loads", async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    setup("/admin/all_submissions", [
      {
        path: "/api/submissions",
        answer: async (call) => {
          if (call.url.searchParams.get("q")) await gate;
          return listAnswer(call);
        },
      },
    ]);
    await screen.findByRole("cell", { name: "AMA MENSAH" });
    await user.type(screen.getByPlaceholderText(SEARCH_PLACEHOLDER), "yaa");
    expect(await screen.findByText(/Updating/)).toBeInTheDocument();
    expect(screen.getByRole("cell", { name: "AMA MENSAH" })).toBeInTheDocument();
    release();
    await waitFor(() =>
      expect(screen.queryByRole("cell", { name: "AMA MENSAH" })).not.toBeInTheDocument(),
    );
  });

  it("moves between rows with the arrow keys, opens with Enter, closes with Escape back on the row", async () => {
    const user = userEvent.setup();
    const { router } = setup();
    const first = (await screen.findByRole("cell", { name: "AMA MENSAH" })).closest("tr")!;
    first.focus();
    await user.keyboard("{ArrowDown}");
    const second = rowOf("KOFI BOATENG");
    expect(second).toHaveFocus();

    await user.keyboard("{Enter}");
    const panel = await screen.findByRole("dialog", { name: "Submission Details" });
    expect(await within(panel).findByText("PG1000002")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?open=2");
    expect(second).toHaveAttribute("aria-selected", "true");
    // The list stays in view beside the panel.
    expect(screen.getByRole("cell", { name: "AMA MENSAH" })).toBeInTheDocument();

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Submission Details" })).not.toBeInTheDocument();
    expect(second).toHaveFocus();
    expect(router.state.location.search).toBe("");
  });

  it("opens the details panel when a row is clicked", async () => {
    const user = userEvent.setup();
    setup();
    await user.click(await screen.findByRole("cell", { name: "YAA ASANTEWAA" }));
    const panel = await screen.findByRole("dialog", { name: "Submission Details" });
    expect(within(panel).getByTestId("marker-SGS Admin")).toHaveTextContent("Not set");
    await user.click(within(panel).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("links the exports to the current filters", async () => {
    setup("/admin/all_submissions?q=ama&sgsStage=sent_to_examiners");
    await screen.findByRole("cell", { name: "AMA MENSAH" });
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/export?format=csv&q=ama&sgsStage=sent_to_examiners",
    );
    expect(screen.getByRole("link", { name: "Export XLSX" })).toHaveAttribute(
      "href",
      "/api/admin/export?format=xlsx&q=ama&sgsStage=sent_to_examiners",
    );
  });

  it("says when nothing matches and offers to clear the search", async () => {
    const user = userEvent.setup();
    const { router } = setup("/admin/all_submissions?q=zzz");
    expect(await screen.findByText(/No submission matches “zzz”/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Clear search and filters" }));
    expect(await screen.findByRole("cell", { name: "AMA MENSAH" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });

  it("sets a stage for several selected rows, confirming the out-of-order moves first", async () => {
    const user = userEvent.setup();
    let turn = 0;
    const { api } = setup("/admin/all_submissions", [
      {
        method: "POST",
        path: "/api/admin/submissions/bulk",
        answer: () =>
          turn++ === 0
            ? {
                status: 409,
                body: {
                  success: false,
                  code: "confirmation_required",
                  message: "Some of these moves skip or reverse the workflow.",
                  moves: [
                    {
                      submissionId: 3,
                      field: "sgsStage",
                      from: null,
                      to: "nominations_ready",
                      kind: "skip",
                    },
                  ],
                },
              }
            : { body: { updated: 2, items: [] } },
      },
    ]);
    await screen.findByRole("cell", { name: "AMA MENSAH" });
    await user.click(screen.getByRole("checkbox", { name: "Select Kofi Boateng" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Yaa Asantewaa" }));
    // The bulk actions load when first shown, and they bring zod (their schema), which the list
    // no longer loads up front: the first import can take a moment on a busy machine.
    const bulk = await screen.findByRole("region", { name: "2 selected" }, { timeout: 5000 });

    await user.selectOptions(within(bulk).getByLabelText("To"), "Nominations Ready");
    await user.click(within(bulk).getByRole("button", { name: "Apply to 2" }));

    const dialog = await screen.findByRole("alertdialog", { name: "Confirm out-of-order moves" });
    expect(
      within(dialog).getByText(
        "Yaa Asantewaa (PG1000003): SGS Admin stage: Not set → Nominations Ready (skips ahead)",
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Yes, update all 2" }));

    expect(
      await screen.findByText("Updated 2 submissions: SGS Admin stage set to Nominations Ready."),
    ).toBeInTheDocument();
    const posts = api.callsTo("POST", "/api/admin/submissions/bulk");
    expect(posts.map((p) => p.body)).toEqual([
      { ids: [2, 3], set: { sgsStage: "nominations_ready" } },
      { ids: [2, 3], set: { sgsStage: "nominations_ready" }, confirmOutOfOrder: true },
    ]);
    expect(screen.getByRole("checkbox", { name: "Select Kofi Boateng" })).not.toBeChecked();
  });

  it("filters by documents waiting for review, in the address and in the request", async () => {
    const user = userEvent.setup();
    const { router, listCalls } = setup();
    await screen.findByRole("cell", { name: "AMA MENSAH" });

    await user.click(screen.getByText("Filters", { selector: "summary" }));
    const documents = screen.getByLabelText("Documents");
    expect(
      within(documents)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Any", "Documents missing", "Waiting for review", "Returned to the student"]);
    await user.selectOptions(documents, "Waiting for review");

    await waitFor(() => expect(router.state.location.search).toBe("?documents=waiting"));
    await waitFor(() =>
      expect(screen.queryByRole("cell", { name: "AMA MENSAH" })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole("cell", { name: "KOFI BOATENG" })).toBeInTheDocument();
    expect(listCalls().at(-1)!.url.searchParams.get("documents")).toBe("waiting");
    expect(screen.getByText("Filters (1 on)")).toBeInTheDocument();
    // The export follows the list.
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/export?format=csv&documents=waiting",
    );
  });

  it("reads the documents filter from the address (a dashboard figure's link)", async () => {
    const { listCalls } = setup("/admin/all_submissions?documents=returned");
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(listCalls()[0]!.url.searchParams.get("documents")).toBe("returned");
    expect(screen.getByLabelText("Documents")).toHaveValue("returned");
  });

  it("marks rows with documents waiting for review with a count chip in words", async () => {
    setup();
    await screen.findByRole("cell", { name: "KOFI BOATENG" });
    expect(
      within(rowOf("KOFI BOATENG")).getByText("2 to review", { exact: true }),
    ).toBeInTheDocument();
    expect(within(rowOf("AMA MENSAH")).queryByText(/to review/)).not.toBeInTheDocument();
  });

  it("says more than 10,000 when the server stops counting, and still leads to the next page", async () => {
    const user = userEvent.setup();
    const { router, listCalls } = setup("/admin/all_submissions", [
      pagedList(12_345, 10_000, true),
    ]);
    expect(await screen.findByRole("cell", { name: "STUDENT 1" })).toBeInTheDocument();
    expect(countLine()).toHaveTextContent(/^Showing 1–25 of more than 10,000 submissions$/);
    // The last page is unknown: no page number computed from the capped total, no jump to it.
    expect(within(pagesNav()).getByText("Page 1 of more than 400")).toBeInTheDocument();
    expect(within(pagesNav()).queryByRole("button", { name: /last/i })).not.toBeInTheDocument();
    expect(screen.getByRole("table")).toHaveAccessibleName("Submissions, page 1 of more than 400");

    await user.click(within(pagesNav()).getByRole("button", { name: "Next" }));

    await waitFor(() => expect(router.state.location.search).toBe("?page=2"));
    expect(await screen.findByRole("cell", { name: "STUDENT 26" })).toBeInTheDocument();
    expect(listCalls().at(-1)!.url.searchParams.get("page")).toBe("2");
    expect(countLine()).toHaveTextContent(/^Showing 26–50 of more than 10,000 submissions$/);
    expect(within(pagesNav()).getByText("Page 2 of more than 400")).toBeInTheDocument();
    expect(within(pagesNav()).getByRole("button", { name: "Previous" })).toBeEnabled();
  });

  it("goes past page 400 of a capped list and stops at the first page that is not full", async () => {
    setup("/admin/all_submissions?page=401", [pagedList(10_010, 10_000, true)]);
    expect(await screen.findByRole("cell", { name: "STUDENT 10001" })).toBeInTheDocument();
    expect(countLine()).toHaveTextContent(
      /^Showing 10,001–10,010 of more than 10,000 submissions$/,
    );
    expect(within(pagesNav()).getByText("Page 401 of more than 400")).toBeInTheDocument();
    expect(within(pagesNav()).getByRole("button", { name: "Next" })).toBeDisabled();
  });

  it("counts an uncapped list exactly and ends Next on its last page", async () => {
    const user = userEvent.setup();
    setup("/admin/all_submissions", [pagedList(60, 60, false)]);
    expect(await screen.findByRole("cell", { name: "STUDENT 1" })).toBeInTheDocument();
    expect(countLine()).toHaveTextContent(/^Showing 1–25 of 60 submissions$/);
    expect(within(pagesNav()).getByText("Page 1 of 3")).toBeInTheDocument();

    await user.click(within(pagesNav()).getByRole("button", { name: "Next" }));
    await user.click(await within(pagesNav()).findByRole("button", { name: "Next" }));

    expect(await screen.findByRole("cell", { name: "STUDENT 60" })).toBeInTheDocument();
    expect(countLine()).toHaveTextContent(/^Showing 51–60 of 60 submissions$/);
    expect(within(pagesNav()).getByText("Page 3 of 3")).toBeInTheDocument();
    expect(within(pagesNav()).getByRole("button", { name: "Next" })).toBeDisabled();
  });

  it("shows 100 rows when 100 rows per page is chosen, counted from the answer", async () => {
    const user = userEvent.setup();
    const { router } = setup("/admin/all_submissions", [pagedList(12_345, 10_000, true)]);
    await screen.findByRole("cell", { name: "STUDENT 1" });

    await user.selectOptions(within(pagesNav()).getByLabelText("Rows per page"), "100");

    expect(await screen.findByRole("cell", { name: "STUDENT 100" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?pageSize=100");
    expect(screen.getAllByRole("row")).toHaveLength(101);
    expect(countLine()).toHaveTextContent(/^Showing 1–100 of more than 10,000 submissions$/);
    expect(within(pagesNav()).getByText("Page 1 of more than 100")).toBeInTheDocument();
  });

  it("ticks one row without touching the others, and keeps one row in the tab order", async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByRole("cell", { name: "AMA MENSAH" });
    await user.click(screen.getByRole("checkbox", { name: "Select Kofi Boateng" }));
    expect(rowOf("KOFI BOATENG")).toHaveAttribute("data-checked", "true");
    expect(rowOf("AMA MENSAH")).not.toHaveAttribute("data-checked");
    expect(screen.getByRole("checkbox", { name: "Select Yaa Asantewaa" })).not.toBeChecked();
    // Ticking is not opening.
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    rowOf("YAA ASANTEWAA").focus();
    await waitFor(() => expect(rowOf("YAA ASANTEWAA")).toHaveAttribute("tabindex", "0"));
    expect(rowOf("AMA MENSAH")).toHaveAttribute("tabindex", "-1");
    expect(rowOf("KOFI BOATENG")).toHaveAttribute("tabindex", "-1");
  });

  it("says so when the address asks for a page past the end, and leads back to the first", async () => {
    const user = userEvent.setup();
    const { router } = setup("/admin/all_submissions?page=999", [pagedList(12_345, 10_000, true)]);
    expect(await screen.findByText("The list ends before page 999.")).toBeInTheDocument();
    expect(countLine()).toHaveTextContent(/^Page 999 is past the end of the list$/);
    await user.click(screen.getByRole("button", { name: "Go to the first page" }));
    expect(await screen.findByRole("cell", { name: "STUDENT 1" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });
});

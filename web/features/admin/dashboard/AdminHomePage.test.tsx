import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { StatsResponse } from "../../../../common/submissions-api.js";
import { mockApi, renderPage } from "../test/harness.js";
import { AdminHomePage } from "./AdminHomePage.js";

// The server is outside the component's control: fetch is stubbed with a GET /api/admin/stats
// answer shaped by the API's schema.
const stats: StatsResponse = {
  totalSubmissions: 479,
  totalUsers: 37,
  addedThisMonth: 12,
  perStage: {
    awaiting_review: 40,
    sent_to_department: 30,
    nominations_ready: 20,
    sent_to_examiners: 310,
    none: 79,
  },
  perExaminerState: {
    internal: { awaiting: 100, received: 150, report_submitted: 60, none: 169 },
    external: { awaiting: 120, received: 90, report_submitted: 40, none: 229 },
  },
  overdueReports: [
    {
      id: 17,
      studentName: "Kwesi Appiah",
      indexNumber: "PG5550001",
      examiner: "external",
      state: "awaiting",
      since: "2025-01-10T00:00:00.000Z",
      days: 96,
    },
  ],
  overdueReportsTotal: 1,
  reportOverdueDays: 60,
  documentsWaiting: 6,
  documentsReturned: 3,
  perMonth: [
    { month: "2025-03", count: 9 },
    { month: "2025-04", count: 12 },
  ],
};

function setup(answer: { status?: number; body: unknown } = { body: stats }) {
  mockApi([{ path: "/api/admin/stats", answer: () => answer }]);
  return renderPage(<AdminHomePage />, { path: "/admin" });
}

describe("admin dashboard", () => {
  it("shows today's date, not fixed text", () => {
    setup();
    const today = new Intl.DateTimeFormat("en-GB", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
    }).format(new Date());
    expect(screen.getByText(today)).toBeInTheDocument();
  });

  it("shows the three cards with the server's figures, each linking to its page", async () => {
    setup();
    await screen.findByText("479");
    const all = await screen.findByRole("link", {
      name: /All Submissions\s*479\s*Total Submissions/,
    });
    expect(all).toHaveAttribute("href", "/admin/all_submissions");
    expect(screen.getByRole("link", { name: /Add New User\s*37\s*Total Users/ })).toHaveAttribute(
      "href",
      "/admin/new_user_entry",
    );
    expect(
      screen.getByRole("link", { name: /Add New Submission\s*12\s*Added this month/ }),
    ).toHaveAttribute("href", "/admin/new_submission");
    expect(screen.queryByText("254")).not.toBeInTheDocument();
  });

  it("links every stage and examiner count to the filtered list", async () => {
    setup();
    const stages = await screen.findByRole("region", { name: "By SGS Admin stage" });
    expect(within(stages).getByRole("link", { name: /Sent to Examiners\s*310/ })).toHaveAttribute(
      "href",
      "/admin/all_submissions?sgsStage=sent_to_examiners",
    );
    expect(within(stages).getByRole("link", { name: /Not started\s*79/ })).toHaveAttribute(
      "href",
      "/admin/all_submissions?sgsStage=none",
    );
    const internal = screen.getByRole("region", { name: "Internal examiner" });
    expect(within(internal).getByRole("link", { name: /Received\s*150/ })).toHaveAttribute(
      "href",
      "/admin/all_submissions?internalExaminer=received",
    );
    const external = screen.getByRole("region", { name: "External examiner" });
    expect(within(external).getByRole("link", { name: /Report Submitted\s*40/ })).toHaveAttribute(
      "href",
      "/admin/all_submissions?externalExaminer=report_submitted",
    );
  });

  it("links the document figures to the list filtered by them", async () => {
    setup();
    const documents = await screen.findByRole("region", { name: "Uploaded documents" });
    expect(
      within(documents).getByRole("link", { name: /Documents waiting for review\s*6/ }),
    ).toHaveAttribute("href", "/admin/all_submissions?documents=waiting");
    expect(within(documents).getByRole("link", { name: /Documents returned\s*3/ })).toHaveAttribute(
      "href",
      "/admin/all_submissions?documents=returned",
    );
  });

  it("lists overdue examiner reports with a link to each submission", async () => {
    setup();
    const overdue = await screen.findByRole("region", { name: "Overdue examiner reports" });
    expect(within(overdue).getByRole("link", { name: "Kwesi Appiah" })).toHaveAttribute(
      "href",
      "/admin/all_submissions?q=PG5550001&open=17",
    );
    expect(within(overdue).getByRole("cell", { name: "96" })).toBeInTheDocument();
    expect(within(overdue).getByText(/more than 60 days/)).toBeInTheDocument();
  });

  it("gives the monthly chart's figures as a table for screen readers", async () => {
    setup();
    const table = await screen.findByRole("table", { name: "New submissions per month" });
    expect(within(table).getByRole("rowheader", { name: "Apr 2025" })).toBeInTheDocument();
    expect(within(table).getByRole("cell", { name: "12" })).toBeInTheDocument();
  });

  it("says what went wrong when the figures cannot be loaded", async () => {
    setup({ status: 500, body: { success: false, code: "internal", message: "Internal error" } });
    expect(
      await screen.findByText(/The server had a problem loading the dashboard figures/),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

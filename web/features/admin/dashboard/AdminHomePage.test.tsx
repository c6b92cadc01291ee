import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { StatsResponse } from "../../../../common/submissions-api.js";
import { mockApi, renderPage, type MockRoute } from "../test/harness.js";
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
  overdueExaminations: [
    {
      examinationId: 77,
      submissionId: 31,
      indexNumber: "PG5550002",
      studentName: "Efua Sarpong",
      role: "external",
      examinerName: "Grace Owusu",
      dueOn: "2025-03-01",
      daysOverdue: 19,
      remindersSent: 2,
      lastReminderAt: "2025-03-15T08:00:00.000Z",
      lastOpenedAt: null,
      state: "sent",
    },
  ],
  overdueExaminationsTotal: 1,
  // The one list: both of the above under one definition of late, the most days late first.
  lateReports: [
    {
      submissionId: 17,
      studentName: "Kwesi Appiah",
      indexNumber: "PG5550001",
      role: "external",
      state: "awaiting",
      knownBy: "typed_state",
      dueOn: "2025-03-11",
      daysLate: 36,
      since: "2025-01-10T00:00:00.000Z",
      examination: null,
    },
    {
      submissionId: 31,
      studentName: "Efua Sarpong",
      indexNumber: "PG5550002",
      role: "external",
      state: "awaiting",
      knownBy: "link_due_date",
      dueOn: "2025-03-01",
      daysLate: 19,
      since: "2025-01-30T00:00:00.000Z",
      examination: {
        examinationId: 77,
        submissionId: 31,
        indexNumber: "PG5550002",
        studentName: "Efua Sarpong",
        role: "external",
        examinerName: "Grace Owusu",
        dueOn: "2025-03-01",
        daysOverdue: 19,
        remindersSent: 2,
        lastReminderAt: "2025-03-15T08:00:00.000Z",
        lastOpenedAt: null,
        state: "sent",
      },
    },
  ],
  lateReportsTotal: 2,
  documentsWaiting: 6,
  documentsReturned: 3,
  perMonth: [
    { month: "2025-03", count: 9 },
    { month: "2025-04", count: 12 },
  ],
};

function setup(
  answer: { status?: number; body: unknown } = { body: stats },
  extra: MockRoute[] = [],
) {
  const api = mockApi([...extra, { path: "/api/admin/stats", answer: () => answer }]);
  return { ...renderPage(<AdminHomePage />, { path: "/admin" }), api };
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

  it("lists late examiner reports in one list, saying how each is known, with a link to each submission", async () => {
    setup();
    const late = await screen.findByRole("region", { name: "Late examiner reports" });
    expect(within(late).getByRole("link", { name: "Kwesi Appiah" })).toHaveAttribute(
      "href",
      "/admin/all_submissions?q=PG5550001&open=17",
    );
    const typed = within(late).getByRole("link", { name: "Kwesi Appiah" }).closest("tr")!;
    expect(
      within(typed)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual([
      "Kwesi AppiahPG5550001",
      "External examinerAwaiting",
      "State typed by hand",
      "11 March 2025",
      "36",
      "No link",
      "None",
      "No link",
      "",
    ]);
    expect(within(late).getByText(/due 60 days after it was typed/)).toBeInTheDocument();
    // The most days late first.
    const names = within(late)
      .getAllByRole("link")
      .map((link) => link.textContent);
    expect(names).toEqual(["Kwesi Appiah", "Efua Sarpong"]);
    // The two lists of before are gone: one list, one heading.
    expect(screen.queryByRole("region", { name: "Overdue examiner reports" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Reports past their due date" })).toBeNull();
  });

  it("lists a report late by its link's due date with the reminders sent and the last time the link was opened", async () => {
    setup();
    const late = await screen.findByRole("region", { name: "Late examiner reports" });
    const row = within(late).getByRole("link", { name: "Efua Sarpong" }).closest("tr")!;
    expect(within(late).getByRole("link", { name: "Efua Sarpong" })).toHaveAttribute(
      "href",
      "/admin/all_submissions?q=PG5550002&open=31",
    );
    const cells = within(row)
      .getAllByRole("cell")
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      "Efua SarpongPG5550002",
      "Grace OwusuExternal · Link sent",
      "Link's due date",
      "1 March 2025",
      "19",
      "2",
      expect.stringMatching(/^15 Mar 2025/),
      "Never",
      "Send reminder",
    ]);
  });

  it("sends a reminder by hand after confirming, and says when it went", async () => {
    const user = userEvent.setup();
    const { api } = setup({ body: stats }, [
      {
        method: "POST",
        path: "/api/admin/examinations/77/remind",
        answer: () => ({
          status: 201,
          body: { data: { sentAt: "2025-03-20T09:30:00.000Z", offsetDays: null, manual: true } },
        }),
      },
    ]);
    const overdue = await screen.findByRole("region", { name: "Late examiner reports" });
    await user.click(
      within(overdue).getByRole("button", {
        name: "Send reminder to Grace Owusu (external examiner of Efua Sarpong)",
      }),
    );
    const dialog = screen.getByRole("alertdialog", { name: "Send a reminder to Grace Owusu?" });
    expect(dialog).toHaveTextContent("due on 1 March 2025 (19 days ago)");
    expect(dialog).toHaveTextContent("2 reminders were sent already.");
    expect(api.callsTo("POST", "/api/admin/examinations/77/remind")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Send reminder" }));

    expect(
      await within(overdue).findByText(
        /^Reminder sent to Grace Owusu \(external examiner of Efua Sarpong\) on 20 Mar 2025/,
      ),
    ).toHaveAttribute("role", "status");
    expect(api.callsTo("POST", "/api/admin/examinations/77/remind")).toHaveLength(1);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    // The figures are read again, so the count of reminders shows the new one.
    await waitFor(() => expect(api.callsTo("GET", "/api/admin/stats")).toHaveLength(2));
  });

  it("shows the server's refusal of a reminder in an alert", async () => {
    const user = userEvent.setup();
    setup({ body: stats }, [
      {
        method: "POST",
        path: "/api/admin/examinations/77/remind",
        answer: () => ({
          status: 409,
          body: {
            success: false,
            code: "conflict",
            message: "A reminder went to this examiner within the hour.",
          },
        }),
      },
    ]);
    const overdue = await screen.findByRole("region", { name: "Late examiner reports" });
    await user.click(
      within(overdue).getByRole("button", { name: /^Send reminder to Grace Owusu/ }),
    );
    await user.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Send reminder" }),
    );
    expect(await within(overdue).findByRole("alert")).toHaveTextContent(
      "No reminder was sent to Grace Owusu. A reminder went to this examiner within the hour.",
    );
  });

  it("says when no report is past its due date", async () => {
    setup({ body: { ...stats, lateReports: [], lateReportsTotal: 0 } });
    const late = await screen.findByRole("region", { name: "Late examiner reports" });
    expect(
      within(late).getByText("No examiner report is past its due date. Nothing to chase today."),
    ).toBeInTheDocument();
    expect(within(late).queryByRole("table")).not.toBeInTheDocument();
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

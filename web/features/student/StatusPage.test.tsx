import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, mockServer, renderRoutes, student, type FetchCall } from "../../test/render.js";
import { StatusPage } from "./StatusPage.js";
import { documentsResponse, documentVersion } from "./test/documents-fixtures.js";

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

const submission = {
  studentName: "Ama Mensah",
  indexNumber: "PG1234567",
  programme: "MPhil Economics",
  contact: "0240000000",
  status: {
    awaitingReview: "Completed",
    sentToDepartment: "Completed",
    nominationsReady: "Completed",
    sentToInternal: "Completed",
    sentToExternal: "Completed",
    internalReport: "Report Submitted",
    externalReport: "Received",
    thesisStatus: "Initial Submission",
  },
  documents: [
    { item: "thesis", label: "Thesis", submitted: true, receivedOn: "2025-03-12" },
    { item: "turnitinReport", label: "Turnitin report", submitted: true, receivedOn: null },
    { item: "supervisorForm", label: "Supervisor form", submitted: true, receivedOn: null },
    { item: "statementOfResult", label: "Statement of Result", submitted: true, receivedOn: null },
    {
      item: "financialClearance",
      label: "Financial Clearance",
      submitted: false,
      receivedOn: null,
    },
  ],
};

function renderStatus() {
  return renderRoutes([{ path: "/dashboard/status", element: <StatusPage /> }], {
    path: "/dashboard/status",
    me: student,
  });
}

const isTimeline = (call: FetchCall) => call.url.endsWith("/timeline");
const isDocuments = (call: FetchCall) => call.url.endsWith("/documents");
const isExamination = (call: FetchCall) => call.url.endsWith("/examination");
// The Publication section (issue 20) asks for its own record; these tests are about the rest.
const isPublication = (call: FetchCall) =>
  call.url.endsWith("/publication") || call.url === "/licence";
const noExamination = {
  data: {
    internal: { sentOn: null, reportReceivedOn: null },
    external: { sentOn: null, reportReceivedOn: null },
    outcome: null,
  },
};

describe("StatusPage", () => {
  it("says 'Loading submission details...' while the status is on its way", async () => {
    const server = mockServer(() => new Promise<Response>(() => {}));
    renderStatus();
    expect(screen.getByRole("heading", { name: "Progress of Submission" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Loading submission details...");
    // The documents are asked for alongside the status, not after it.
    await vi.waitFor(() =>
      expect(server.calls.map((c) => c.url)).toEqual(
        expect.arrayContaining(["/submissions/PG1234567", "/submissions/PG1234567/documents"]),
      ),
    );
  });

  it("shows the plain sentence, the stepper with both examiners, and the eight status lines", async () => {
    mockServer((call) => {
      if (isExamination(call)) return json(200, noExamination);
      if (isDocuments(call)) return json(200, documentsResponse());
      return isTimeline(call)
        ? json(200, {
            items: [{ at: "2025-03-14T09:00:00.000Z", label: "External examiner: Awaiting" }],
          })
        : json(200, { data: submission });
    });
    renderStatus();
    expect(
      await screen.findByText(
        "The internal examiner's report is in; your thesis is still with the external examiner since 14 March 2025.",
      ),
    ).toBeInTheDocument();

    const current = screen
      .getAllByRole("listitem")
      .find((li) => li.getAttribute("aria-current") === "step");
    expect(current).toHaveTextContent("With the examiners");
    expect(screen.getByRole("region", { name: "Internal examiner" })).toHaveTextContent("Done");
    expect(screen.getByRole("region", { name: "External examiner" })).toHaveTextContent(
      "In progress",
    );

    const details = screen.getByRole("region", { name: "Submission Details" });
    expect(within(details).getByText("MPhil Economics")).toBeInTheDocument();
    const lines = screen.getByRole("region", { name: "Submission Status" });
    for (const label of [
      "Awaiting Review",
      "Sent to Department",
      "Nominations Ready",
      "Sent to Internal",
      "Sent to External",
      "Internal Report",
      "External Report",
      "Thesis Status",
    ]) {
      expect(within(lines).getByText(label)).toBeInTheDocument();
    }
    expect(within(lines).getByText("Initial Submission")).toBeInTheDocument();
  });

  it("shows 'Your documents' from the documents endpoint, one row per item with its state", async () => {
    const server = mockServer((call) => {
      if (isExamination(call)) return json(200, noExamination);
      if (isDocuments(call)) {
        return json(
          200,
          documentsResponse({
            thesis: {
              state: "accepted",
              receivedOn: "2025-03-12",
              canUpload: false,
              current: documentVersion("thesis", { reviewState: "accepted" }),
            },
            financialClearance: {
              state: "returned",
              current: documentVersion("financialClearance", {
                reviewState: "returned",
                returnReason: "The clearance is not stamped.",
              }),
            },
          }),
        );
      }
      return isTimeline(call) ? json(200, { items: [] }) : json(200, { data: submission });
    });
    renderStatus();
    const documents = await screen.findByRole("region", { name: "Your documents" });
    const thesis = await within(documents).findByRole("listitem", { name: "Thesis" });
    expect(thesis).toHaveTextContent("Accepted on 12 March 2025");
    const clearance = within(documents).getByRole("listitem", { name: "Financial Clearance" });
    expect(clearance).toHaveTextContent("Returned");
    expect(clearance).toHaveTextContent("The clearance is not stamped.");
    expect(
      within(documents)
        .getAllByRole("heading", { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual([
      "Thesis",
      "Turnitin report",
      "Supervisor form",
      "Statement of Result",
      "Financial Clearance",
    ]);
    expect(server.calls.map((c) => c.url)).toContain("/submissions/PG1234567/documents");
  });

  it("still shows the progress, without dates, when the timeline cannot be loaded", async () => {
    mockServer((call) => {
      if (isExamination(call)) return json(200, noExamination);
      if (isDocuments(call)) return json(200, documentsResponse());
      return isTimeline(call)
        ? json(500, { success: false, code: "internal", message: "x" })
        : json(200, { data: submission });
    });
    renderStatus();
    expect(
      await screen.findByText(
        "The internal examiner's report is in; your thesis is still with the external examiner.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says no submission is on file yet, and whom to contact, on a 404", async () => {
    mockServer(() =>
      json(404, {
        success: false,
        code: "not_found",
        message: "No submission is on file for your index number yet.",
      }),
    );
    renderStatus();
    expect(
      await screen.findByRole("heading", { name: "No submission on file yet" }),
    ).toBeInTheDocument();
    expect(screen.getByText(/under index number PG1234567/)).toBeInTheDocument();
    expect(
      screen.getByRole("link", { name: "contact the School of Graduate Studies" }),
    ).toHaveAttribute("href", "/help/contact");
    expect(screen.queryByRole("button", { name: "Try again" })).not.toBeInTheDocument();
  });

  it("explains a failure and loads again when asked", async () => {
    let fail = true;
    const server = mockServer((call) => {
      if (isTimeline(call)) return json(200, { items: [] });
      if (isExamination(call)) return json(200, noExamination);
      if (isDocuments(call)) return json(200, documentsResponse());
      if (isPublication(call))
        return json(404, { success: false, code: "not_found", message: "Not found." });
      return fail
        ? json(500, { success: false, code: "internal", message: "Internal Server Error" })
        : json(200, { data: submission });
    });
    renderStatus();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We could not load your submission details.");
    expect(screen.queryByText("Submission Details")).not.toBeInTheDocument();

    fail = false;
    await userEvent.setup().click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Submission Details" })).toBeInTheDocument();
    expect(server.calls.filter((c) => c.url === "/submissions/PG1234567")).toHaveLength(2);
  });
});

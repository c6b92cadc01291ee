import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { documentsRoute, makeSubmission, mockApi, renderPage } from "../../test/harness.js";
import { SubmissionDetailsPanel } from "./SubmissionDetailsPanel.js";

// The server is outside the component's control: fetch is stubbed with contract-shaped answers.
function showPanel(submission: SubmissionDto, onClose = vi.fn()) {
  mockApi([
    {
      path: `/api/admin/submissions/${submission.id}`,
      answer: () => ({ body: { data: submission } }),
    },
    {
      path: `/api/admin/submissions/${submission.id}/events`,
      answer: () => ({ body: { items: [] } }),
    },
    documentsRoute(submission),
  ]);
  renderPage(<SubmissionDetailsPanel submissionId={submission.id} onClose={onClose} />, {
    path: "/admin/all_submissions",
  });
  return onClose;
}

async function marker(label: "SGS Admin" | "Internal" | "External") {
  return screen.findByTestId(`marker-${label}`);
}

describe("Submission Details panel markers", () => {
  it("marks SGS Admin green, with a tick and the words, when the thesis is Sent to Examiners", async () => {
    showPanel(makeSubmission({ sgsStage: "sent_to_examiners" }));
    const sgs = await marker("SGS Admin");
    expect(sgs).toHaveAttribute("data-colour", "green");
    expect(sgs).toHaveTextContent("✓Sent to Examiners");
  });

  it("keeps SGS Admin in the default colour at any earlier stage or none", async () => {
    showPanel(makeSubmission({ sgsStage: "nominations_ready" }));
    const sgs = await marker("SGS Admin");
    expect(sgs).toHaveAttribute("data-colour", "default");
    expect(sgs).toHaveTextContent("Nominations Ready");
    expect(sgs).not.toHaveTextContent("✓");
  });

  it("marks Internal and External green only when Received", async () => {
    showPanel(makeSubmission({ internalExaminer: "received", externalExaminer: "awaiting" }));
    expect(await marker("Internal")).toHaveAttribute("data-colour", "green");
    expect(await marker("Internal")).toHaveTextContent("Received");
    expect(await marker("External")).toHaveAttribute("data-colour", "default");
    expect(await marker("External")).toHaveTextContent("Awaiting");
  });

  it("keeps Report Submitted and unset examiners in the default colour (the prototype's rule)", async () => {
    showPanel(makeSubmission({ internalExaminer: "report_submitted", externalExaminer: null }));
    expect(await marker("Internal")).toHaveAttribute("data-colour", "default");
    expect(await marker("Internal")).toHaveTextContent("Report Submitted");
    expect(await marker("External")).toHaveAttribute("data-colour", "default");
    expect(await marker("External")).toHaveTextContent("Not set");
  });

  it("marks External green when Received", async () => {
    showPanel(makeSubmission({ externalExaminer: "received" }));
    expect(await marker("External")).toHaveAttribute("data-colour", "green");
  });

  it("shows name, index number and programme under the 'Submission Details' heading, and closes with Close or Escape", async () => {
    const user = userEvent.setup();
    const onClose = showPanel(makeSubmission());
    const panel = await screen.findByRole("dialog", { name: "Submission Details" });
    expect(await within(panel).findByText("Ama Mensah")).toBeInTheDocument();
    expect(within(panel).getByText("PG1234567")).toBeInTheDocument();
    expect(within(panel).getByText("MPhil Economics")).toBeInTheDocument();
    expect(within(panel).getByRole("heading", { name: "Submission Details" })).toHaveFocus();

    await user.click(within(panel).getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.keyboard("{Escape}");
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

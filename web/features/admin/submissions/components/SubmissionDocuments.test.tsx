import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { DocumentSlot, DocumentVersion } from "../../../../../common/documents.js";
import type { DocumentItem } from "../../../../../common/workflow.js";
import {
  documentsRoute,
  makeSlots,
  makeSubmission,
  makeVersion,
  mockApi,
  renderPage,
  type Answer,
  type MockRoute,
} from "../../test/harness.js";
import { examinationRoute, makeExaminationView } from "../../examiners/test/fixtures.js";
import { SubmissionDetailsPanel } from "./SubmissionDetailsPanel.js";

// The server is outside the component's control: fetch is stubbed with a small stand-in for the
// documents routes (docs/api.md, "Documents") that keeps the slots in memory, so a decision is
// seen again when the panel fetches the documents anew.
const submission = makeSubmission({
  id: 9,
  indexNumber: "PG7654321",
  thesisTitle: "Rainfall and maize yields in the Volta basin",
  thesisAbstract: "We study twenty years of rainfall.\nYields follow the rains.",
});

const thesis = makeVersion({
  id: 101,
  item: "thesis",
  version: 2,
  fileName: "thesis-final.pdf",
  hasJavaScript: true,
  hasEmbeddedFiles: true,
});
const earlierThesis = makeVersion({
  id: 100,
  item: "thesis",
  version: 1,
  fileName: "thesis-draft.pdf",
  sizeBytes: 2_516_582,
  pageCount: 1,
  uploadedAt: "2025-02-20T08:00:00.000Z",
  reviewState: "returned",
  reviewedAt: "2025-02-25T10:00:00.000Z",
  returnReason: "The signature page is missing.",
});
const turnitin = makeVersion({
  id: 201,
  item: "turnitinReport",
  fileName: "similarity.pdf",
  pageCount: 3,
  sizeBytes: 40_960,
});
const supervisorForm = makeVersion({
  id: 301,
  item: "supervisorForm",
  fileName: "supervisor.pdf",
  reviewState: "accepted",
  reviewedAt: "2025-03-04T11:00:00.000Z",
});

function initialSlots(): DocumentSlot[] {
  return makeSlots({
    thesis: { state: "with_school", current: thesis, earlier: [earlierThesis] },
    turnitinReport: { state: "with_school", current: turnitin },
    supervisorForm: {
      state: "accepted",
      receivedOn: "2025-03-04",
      canUpload: false,
      current: supervisorForm,
    },
    statementOfResult: { state: "accepted", receivedOn: "2025-03-01", paperCopy: true },
  });
}

function setup(extra: MockRoute[] = []) {
  let slots = initialSlots();
  const decide = (
    item: DocumentItem,
    change: Partial<DocumentVersion>,
    slot: Partial<DocumentSlot>,
  ): Answer => {
    slots = slots.map((s) =>
      s.item === item && s.current ? { ...s, ...slot, current: { ...s.current, ...change } } : s,
    );
    return { body: { data: slots.find((s) => s.item === item)!.current } };
  };
  const api = mockApi([
    ...extra,
    {
      path: `/api/admin/submissions/${submission.id}`,
      answer: () => ({ body: { data: submission } }),
    },
    {
      path: `/api/admin/submissions/${submission.id}/events`,
      answer: () => ({ body: { items: [] } }),
    },
    documentsRoute(submission, () => slots),
    // The examination panel below the documents loads too; nothing is nominated yet.
    examinationRoute(submission.indexNumber, () => makeExaminationView()),
    {
      method: "POST",
      path: /^\/api\/admin\/documents\/\d+\/accept$/,
      answer: (call) => {
        const id = Number(call.url.pathname.split("/")[4]);
        const slot = slots.find((s) => s.current?.id === id)!;
        return decide(
          slot.item,
          { reviewState: "accepted", reviewedAt: "2025-03-05T09:00:00.000Z" },
          { state: "accepted", receivedOn: "2025-03-05" },
        );
      },
    },
    {
      method: "POST",
      path: /^\/api\/admin\/documents\/\d+\/return$/,
      answer: (call) => {
        const id = Number(call.url.pathname.split("/")[4]);
        const slot = slots.find((s) => s.current?.id === id)!;
        const { reason } = call.body as { reason: string };
        return decide(
          slot.item,
          { reviewState: "returned", reviewedAt: "2025-03-05T09:00:00.000Z", returnReason: reason },
          { state: "returned" },
        );
      },
    },
  ]);
  const view = renderPage(
    <SubmissionDetailsPanel submissionId={submission.id} onClose={() => {}} />,
    { path: "/admin/all_submissions" },
  );
  return { ...view, api };
}

/** The list item of one document, found by its heading. */
async function documentEntry(label: string) {
  const heading = await screen.findByRole("heading", { level: 4, name: label });
  return heading.closest("li")!;
}

describe("reviewing documents in the details panel", () => {
  it("lists each document with its state in words, its facts, its warnings and a link to read it", async () => {
    setup();
    const documents = await screen.findByRole("region", { name: "Documents" });

    const thesisEntry = await documentEntry("Thesis");
    expect(within(thesisEntry).getByText("Waiting for review")).toBeInTheDocument();
    expect(within(thesisEntry).getByText("thesis-final.pdf")).toBeInTheDocument();
    expect(
      within(thesisEntry).getByText(/^12 pages · 840 KB · uploaded 3 Mar 2025/),
    ).toBeInTheDocument();
    const warnings = within(thesisEntry).getByRole("list", { name: "Warnings" });
    expect(within(warnings).getByText("Contains scripts")).toBeInTheDocument();
    expect(within(warnings).getByText("Contains attachments")).toBeInTheDocument();
    const open = within(thesisEntry).getByRole("link", {
      name: "Open Thesis (PDF, opens in a new tab)",
    });
    expect(open).toHaveAttribute("href", "/api/documents/101");
    expect(open).toHaveAttribute("target", "_blank");
    expect(within(thesisEntry).getByRole("link", { name: "Download Thesis" })).toHaveAttribute(
      "href",
      "/api/documents/101?download=1",
    );
    expect(within(thesisEntry).getByRole("button", { name: "Accept Thesis" })).toBeEnabled();
    expect(within(thesisEntry).getByRole("button", { name: "Return Thesis" })).toBeEnabled();

    // Earlier versions fold away, with their own review state and reason.
    const earlier = within(thesisEntry).getByText("Earlier versions (1)").closest("details")!;
    expect(earlier).not.toHaveAttribute("open");
    expect(within(earlier).getByText(/Returned 25 February 2025/)).toBeInTheDocument();
    expect(within(earlier).getByText("The signature page is missing.")).toBeInTheDocument();
    expect(within(earlier).getByText(/^1 page · 2\.4 MB/)).toBeInTheDocument();
    expect(
      within(earlier).getByRole("link", {
        name: "Open version 1 of the Thesis (PDF, opens in a new tab)",
      }),
    ).toHaveAttribute("href", "/api/documents/100");

    // A clean PDF carries no warning.
    const turnitinEntry = await documentEntry("Turnitin report");
    expect(within(turnitinEntry).queryByRole("list", { name: "Warnings" })).not.toBeInTheDocument();

    // An accepted upload can be returned (to undo it) but not accepted again.
    const supervisorEntry = await documentEntry("Supervisor form");
    expect(within(supervisorEntry).getByText("Accepted 4 March 2025")).toBeInTheDocument();
    expect(
      within(supervisorEntry).queryByRole("button", { name: /^Accept/ }),
    ).not.toBeInTheDocument();
    expect(
      within(supervisorEntry).getByRole("button", { name: "Return Supervisor form" }),
    ).toBeInTheDocument();

    // A paper copy says so and has nothing to open or decide.
    const paperEntry = await documentEntry("Statement of Result");
    expect(within(paperEntry).getByText("Paper copy received 1 March 2025")).toBeInTheDocument();
    expect(within(paperEntry).queryByRole("link")).not.toBeInTheDocument();
    expect(within(paperEntry).queryByRole("button")).not.toBeInTheDocument();

    const missingEntry = await documentEntry("Financial Clearance");
    expect(within(missingEntry).getByText("Not uploaded")).toBeInTheDocument();
    expect(within(missingEntry).getByText("Nothing uploaded yet.")).toBeInTheDocument();

    expect(within(documents).getByRole("link", { name: "Download all (zip)" })).toHaveAttribute(
      "href",
      "/api/admin/submissions/9/documents.zip",
    );
  });

  it("shows the thesis title, and the abstract folded away", async () => {
    setup();
    const panel = await screen.findByRole("dialog", { name: "Submission Details" });
    expect(
      await within(panel).findByText("Rainfall and maize yields in the Volta basin"),
    ).toBeInTheDocument();
    const abstract = within(panel).getByText("Thesis abstract").closest("details")!;
    expect(abstract).not.toHaveAttribute("open");
    expect(within(abstract).getByText(/We study twenty years of rainfall/)).toBeInTheDocument();
  });

  it("accepts the current version with one click, announces it and shows the fresh state", async () => {
    const user = userEvent.setup();
    const { api } = setup();
    const thesisEntry = await documentEntry("Thesis");

    await user.click(within(thesisEntry).getByRole("button", { name: "Accept Thesis" }));

    expect(
      await screen.findByText("Thesis accepted: the checklist shows it received on 5 March 2025."),
    ).toHaveAttribute("role", "status");
    expect(api.callsTo("POST", "/api/admin/documents/101/accept")).toHaveLength(1);
    expect(await within(thesisEntry).findByText("Accepted 5 March 2025")).toBeInTheDocument();
    expect(
      within(thesisEntry).queryByRole("button", { name: "Accept Thesis" }),
    ).not.toBeInTheDocument();
    expect(within(thesisEntry).getByRole("heading", { name: "Thesis" })).toHaveFocus();
    // The record (its checklist and version) and its history are fetched again as well.
    await waitFor(() =>
      expect(api.callsTo("GET", `/api/admin/submissions/${submission.id}`)).toHaveLength(2),
    );
    expect(api.callsTo("GET", `/api/admin/submissions/${submission.id}/events`)).toHaveLength(2);
    expect(api.callsTo("GET", "/api/submissions/PG7654321/documents")).toHaveLength(2);
  });

  it("shows the server's refusal when the version no longer waits for review", async () => {
    const user = userEvent.setup();
    setup([
      {
        method: "POST",
        path: "/api/admin/documents/201/accept",
        answer: () => ({
          status: 409,
          body: {
            success: false,
            code: "conflict",
            message: "This version was replaced by a newer upload.",
          },
        }),
      },
    ]);
    const turnitinEntry = await documentEntry("Turnitin report");
    await user.click(within(turnitinEntry).getByRole("button", { name: "Accept Turnitin report" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Turnitin report was not accepted. This version was replaced by a newer upload.",
    );
    expect(within(turnitinEntry).getByText("Waiting for review")).toBeInTheDocument();
  });

  it("returns a document only with a reason, asked in a dialog named after the document", async () => {
    const user = userEvent.setup();
    const { api } = setup();
    const turnitinEntry = await documentEntry("Turnitin report");

    await user.click(within(turnitinEntry).getByRole("button", { name: "Return Turnitin report" }));
    const dialog = await screen.findByRole("dialog", { name: "Return Turnitin report" });
    const reason = within(dialog).getByLabelText("Reason for returning it");
    expect(reason).toHaveFocus();

    // Nothing is sent without a reason; the error sits next to the field.
    await user.click(within(dialog).getByRole("button", { name: "Return to the student" }));
    expect(await within(dialog).findByText("Reason is required")).toBeInTheDocument();
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason.getAttribute("aria-describedby")).toContain(`${reason.id}-error`);
    expect(api.callsTo("POST", "/api/admin/documents/201/return")).toHaveLength(0);

    await user.type(reason, "The similarity report is for another thesis. Upload your own.");
    await user.click(within(dialog).getByRole("button", { name: "Return to the student" }));

    await waitFor(() =>
      expect(
        screen.queryByRole("dialog", { name: "Return Turnitin report" }),
      ).not.toBeInTheDocument(),
    );
    expect(api.callsTo("POST", "/api/admin/documents/201/return").map((c) => c.body)).toEqual([
      { reason: "The similarity report is for another thesis. Upload your own." },
    ]);
    expect(
      screen.getByText(
        "Turnitin report returned to the student with your reason. They can upload a new version.",
      ),
    ).toHaveAttribute("role", "status");
    expect(await within(turnitinEntry).findByText("Returned to the student")).toBeInTheDocument();
    expect(
      within(turnitinEntry).getByText(
        "The similarity report is for another thesis. Upload your own.",
      ),
    ).toBeInTheDocument();
    expect(within(turnitinEntry).getByRole("heading", { name: "Turnitin report" })).toHaveFocus();
  });

  it("puts the server's message about the reason next to the field and keeps the dialog open", async () => {
    const user = userEvent.setup();
    setup([
      {
        method: "POST",
        path: "/api/admin/documents/301/return",
        answer: () => ({
          status: 400,
          body: {
            success: false,
            code: "validation",
            message: "Check the reason.",
            fields: [{ field: "reason", message: "Reason must be at most 2000 characters" }],
          },
        }),
      },
    ]);
    const supervisorEntry = await documentEntry("Supervisor form");
    await user.click(
      within(supervisorEntry).getByRole("button", { name: "Return Supervisor form" }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Return Supervisor form" });
    await user.type(within(dialog).getByLabelText("Reason for returning it"), "Wrong form.");
    await user.click(within(dialog).getByRole("button", { name: "Return to the student" }));

    expect(
      await within(dialog).findByText("Reason must be at most 2000 characters"),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Reason for returning it")).toHaveValue("Wrong form.");
  });

  it("closes the Return dialog with Escape, leaving the panel open and focus on the Return button", async () => {
    const user = userEvent.setup();
    const { api } = setup();
    const thesisEntry = await documentEntry("Thesis");
    const returnButton = within(thesisEntry).getByRole("button", { name: "Return Thesis" });

    await user.click(returnButton);
    await screen.findByRole("dialog", { name: "Return Thesis" });
    await user.keyboard("{Escape}");

    expect(screen.queryByRole("dialog", { name: "Return Thesis" })).not.toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Submission Details" })).toBeInTheDocument();
    expect(returnButton).toHaveFocus();
    expect(api.callsTo("POST", "/api/admin/documents/101/return")).toHaveLength(0);
  });

  it("keeps Tab inside the Return dialog", async () => {
    const user = userEvent.setup();
    setup();
    const thesisEntry = await documentEntry("Thesis");
    await user.click(within(thesisEntry).getByRole("button", { name: "Return Thesis" }));
    const dialog = await screen.findByRole("dialog", { name: "Return Thesis" });

    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Return to the student" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByLabelText("Reason for returning it")).toHaveFocus();
  });

  it("says what went wrong when the documents cannot be loaded, and offers to try again", async () => {
    setup([
      {
        path: "/api/submissions/PG7654321/documents",
        answer: () => ({
          status: 500,
          body: { success: false, code: "internal", message: "Internal error" },
        }),
      },
    ]);
    const documents = await screen.findByRole("region", { name: "Documents" });
    expect(
      await within(documents).findByText(/The server had a problem loading the documents/),
    ).toBeInTheDocument();
    expect(within(documents).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(
      within(documents).queryByRole("link", { name: "Download all (zip)" }),
    ).not.toBeInTheDocument();
  });

  it("says when nothing has been uploaded yet and offers no zip", async () => {
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
    renderPage(<SubmissionDetailsPanel submissionId={submission.id} onClose={() => {}} />, {
      path: "/admin/all_submissions",
    });
    const documents = await screen.findByRole("region", { name: "Documents" });
    expect(
      await within(documents).findByText(/The student has not uploaded any document yet/),
    ).toBeInTheDocument();
    expect(within(documents).getAllByText("Not uploaded")).toHaveLength(5);
    expect(
      within(documents).queryByRole("link", { name: "Download all (zip)" }),
    ).not.toBeInTheDocument();
  });
});

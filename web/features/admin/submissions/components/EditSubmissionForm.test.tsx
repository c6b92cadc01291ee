import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import {
  documentsRoute,
  makeSubmission,
  mockApi,
  renderPage,
  type Answer,
  type Call,
} from "../../test/harness.js";
import { CONFLICT_MESSAGE } from "./EditSubmissionForm.js";
import { SubmissionDetailsPanel } from "./SubmissionDetailsPanel.js";

// The server is outside the component's control: fetch is stubbed, and each PATCH gets the next
// answer from a script written after the API contract (docs/api.md, PATCH /api/admin/submissions/:id).
function setup(submission: SubmissionDto, patchAnswers: ((call: Call) => Answer)[]) {
  let turn = 0;
  const api = mockApi([
    {
      path: `/api/admin/submissions/${submission.id}`,
      answer: () => ({ body: { data: submission } }),
    },
    {
      path: `/api/admin/submissions/${submission.id}/events`,
      answer: () => ({ body: { items: [] } }),
    },
    documentsRoute(submission),
    {
      method: "PATCH",
      path: `/api/admin/submissions/${submission.id}`,
      answer: (call) => {
        const next = patchAnswers[turn++];
        if (!next) throw new Error("an unexpected PATCH was sent");
        return next(call);
      },
    },
    {
      path: "/api/submissions",
      answer: () => ({ body: { items: [], total: 0, page: 1, pageSize: 25 } }),
    },
  ]);
  renderPage(<SubmissionDetailsPanel submissionId={submission.id} onClose={() => {}} />, {
    path: "/admin/all_submissions",
  });
  const patches = () => api.callsTo("PATCH", `/api/admin/submissions/${submission.id}`);
  return { patches };
}

const saved = (call: Call, base: SubmissionDto): Answer => {
  const { changes } = call.body as { changes: Partial<SubmissionDto> };
  return { body: { data: { ...base, ...changes, version: base.version + 1 } } };
};

describe("editing a submission in the details panel", () => {
  it("sends only the changed fields with the version the administrator saw", async () => {
    const user = userEvent.setup();
    const base = makeSubmission({ version: 4 });
    const { patches } = setup(base, [(call) => saved(call, base)]);

    const status = await screen.findByLabelText("Thesis Status");
    await user.clear(status);
    await user.type(status, "Under Examination");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Your changes have been saved.")).toBeInTheDocument();
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).toEqual({
      version: 4,
      changes: { thesisStatus: "Under Examination" },
    });
  });

  it("on a stale version shows the conflict message and their version, keeps the typed changes, and saves again on the new version", async () => {
    const user = userEvent.setup();
    const base = makeSubmission({ version: 2, sgsStage: "awaiting_review" });
    const theirs = makeSubmission({
      version: 3,
      sgsStage: "sent_to_department",
      contact: "0200111222",
    });
    const { patches } = setup(base, [
      () => ({
        status: 409,
        body: {
          success: false,
          code: "conflict",
          message: "This submission was changed by someone else.",
          current: theirs,
        },
      }),
      (call) => saved(call, theirs),
    ]);

    const status = await screen.findByLabelText("Thesis Status");
    await user.clear(status);
    await user.type(status, "Under Examination");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText(CONFLICT_MESSAGE)).toBeInTheDocument();
    // Focus goes to the message, so it is seen even from the Save button at the panel's foot.
    expect(screen.getByText(CONFLICT_MESSAGE).closest(".edit-submission__notice")).toHaveFocus();
    expect(screen.getByText(/They changed: Contact, SGS Admin stage\./)).toBeInTheDocument();
    // Their version is shown…
    expect(screen.getByTestId("marker-SGS Admin")).toHaveTextContent("Sent to Department");
    expect(screen.getByLabelText("SGS Admin stage")).toHaveValue("sent_to_department");
    expect(screen.getByLabelText("Contact")).toHaveValue("0200111222");
    // …and nothing the administrator typed is lost.
    expect(screen.getByLabelText("Thesis Status")).toHaveValue("Under Examination");

    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(patches()[1]!.body).toEqual({
      version: 3,
      changes: { thesisStatus: "Under Examination" },
    });
    expect(await screen.findByText("Your changes have been saved.")).toBeInTheDocument();
  });

  it("asks before an out-of-order move, listing it, and resends with confirmOutOfOrder when confirmed", async () => {
    const user = userEvent.setup();
    const base = makeSubmission({ version: 5, sgsStage: "awaiting_review" });
    const { patches } = setup(base, [
      () => ({
        status: 409,
        body: {
          success: false,
          code: "confirmation_required",
          message: "This change skips or reverses the workflow. Confirm to save it.",
          moves: [
            {
              submissionId: base.id,
              field: "sgsStage",
              from: "awaiting_review",
              to: "sent_to_examiners",
              kind: "skip",
            },
          ],
        },
      }),
      (call) => saved(call, base),
    ]);

    await user.selectOptions(await screen.findByLabelText("SGS Admin stage"), "Sent to Examiners");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    const dialog = await screen.findByRole("alertdialog", { name: "Confirm out-of-order moves" });
    expect(
      within(dialog).getByText(
        "SGS Admin stage: Awaiting Review → Sent to Examiners (skips ahead)",
      ),
    ).toBeInTheDocument();
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).not.toHaveProperty("confirmOutOfOrder");

    await user.click(within(dialog).getByRole("button", { name: "Yes, save these moves" }));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(patches()[1]!.body).toEqual({
      version: 5,
      changes: { sgsStage: "sent_to_examiners" },
      confirmOutOfOrder: true,
    });
    expect(await screen.findByText("Your changes have been saved.")).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("saves nothing when the administrator declines the out-of-order move, and keeps the choice in the form", async () => {
    const user = userEvent.setup();
    const base = makeSubmission({ sgsStage: "sent_to_examiners" });
    const { patches } = setup(base, [
      () => ({
        status: 409,
        body: {
          success: false,
          code: "confirmation_required",
          message: "Confirm to save it.",
          moves: [
            {
              submissionId: base.id,
              field: "sgsStage",
              from: "sent_to_examiners",
              to: "awaiting_review",
              kind: "reverse",
            },
          ],
        },
      }),
    ]);

    await user.selectOptions(await screen.findByLabelText("SGS Admin stage"), "Awaiting Review");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(
      within(dialog).getByText(/Sent to Examiners → Awaiting Review \(goes back\)/),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "No, go back" }));

    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByText("Not saved. Your changes are still in the form.")).toBeInTheDocument();
    expect(screen.getByLabelText("SGS Admin stage")).toHaveValue("awaiting_review");
    expect(patches()).toHaveLength(1);
  });

  it("advances to the next SGS stage with one click", async () => {
    const user = userEvent.setup();
    const base = makeSubmission({ version: 7, sgsStage: "sent_to_department" });
    const { patches } = setup(base, [(call) => saved(call, base)]);

    expect(await screen.findByText("Next: Nominations Ready")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /Advance to next stage/ }));

    expect(await screen.findByText("Moved to Nominations Ready.")).toBeInTheDocument();
    expect(patches()[0]!.body).toEqual({ version: 7, changes: { sgsStage: "nominations_ready" } });
    expect(screen.getByTestId("marker-SGS Admin")).toHaveTextContent("Nominations Ready");
  });

  it("refuses an invalid email before sending anything", async () => {
    const user = userEvent.setup();
    const { patches } = setup(makeSubmission(), []);
    const email = await screen.findByLabelText("Student email");
    await user.clear(email);
    await user.type(email, "not-an-email");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findAllByText("Student email must be an email address")).not.toHaveLength(
      0,
    );
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(patches()).toHaveLength(0);
  });
});

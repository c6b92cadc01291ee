import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { SubmissionInput } from "../../../../common/submissions-api.js";
import { makeSubmission, mockApi, renderPage, type Answer } from "../test/harness.js";
import { NewSubmissionPage } from "./NewSubmissionPage.js";

// The server is outside the component's control: fetch is stubbed with answers shaped like
// POST /api/submissions in docs/api.md.
function setup(answer: (body: SubmissionInput) => Answer) {
  const api = mockApi([
    {
      method: "POST",
      path: "/api/submissions",
      answer: (call) => answer(call.body as SubmissionInput),
    },
  ]);
  renderPage(<NewSubmissionPage />, { path: "/admin/new_submission" });
  return { posts: () => api.callsTo("POST", "/api/submissions") };
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>, indexNumber = "PG7654321") {
  await user.type(screen.getByLabelText("Student Name"), "Kofi Boateng");
  await user.type(screen.getByLabelText(/^Index Number/), indexNumber);
  await user.type(screen.getByLabelText("Programme"), "PhD Chemistry");
}

describe("Add New Submission", () => {
  it("shows every field of the prototype's form, with the stage labels visible", () => {
    setup(() => ({ status: 500 }));
    for (const label of ["Student Name", "Programme", "Contact", "Thesis Status"]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Index Number/)).toBeInTheDocument();
    for (const stage of ["Awaiting Review", "Sent to Department", "Nominations Ready"]) {
      expect(screen.getByRole("radio", { name: stage })).toBeInTheDocument();
    }
    expect(screen.getByLabelText("Sent to Internal · Internal Report")).toBeInTheDocument();
    expect(screen.getByLabelText("Sent to External · External Report")).toBeInTheDocument();
    const preview = screen.getByRole("complementary", { name: "What the student will see" });
    for (const line of [
      "Internal Report",
      "External Report",
      "Sent to Internal",
      "Sent to External",
    ]) {
      expect(within(preview).getByText(line)).toBeInTheDocument();
    }
    expect(screen.getByRole("button", { name: "Submit" })).toBeInTheDocument();
  });

  it("requires name, index number and programme, and sends nothing until they are given", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({ status: 500 }));
    await user.click(screen.getByRole("button", { name: "Submit" }));

    const summary = await screen.findByRole("alert", { name: "There is a problem" });
    expect(
      within(summary).getByRole("link", { name: "Student Name is required" }),
    ).toBeInTheDocument();
    expect(
      within(summary).getByRole("link", { name: "Index Number is required" }),
    ).toBeInTheDocument();
    expect(
      within(summary).getByRole("link", { name: "Programme is required" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Student Name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText(/^Index Number/)).toHaveAttribute("aria-invalid", "true");
    expect(posts()).toHaveLength(0);
  });

  it("checks the index number's format before sending", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({ status: 500 }));
    await fillRequired(user, "PG 12");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(
      await screen.findAllByText("Index Number must be 4 to 20 letters, digits, / or -"),
    ).not.toHaveLength(0);
    expect(posts()).toHaveLength(0);
  });

  it("shows the server's duplicate index number (409) as an error on Index Number", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({
      status: 409,
      body: {
        success: false,
        code: "conflict",
        message: "A submission with this index number already exists.",
        fields: [
          {
            field: "indexNumber",
            message: "A submission with index number PG7654321 already exists.",
          },
        ],
      },
    }));
    await fillRequired(user);
    await user.click(screen.getByRole("button", { name: "Submit" }));

    const index = screen.getByLabelText(/^Index Number/);
    await waitFor(() => expect(index).toHaveAttribute("aria-invalid", "true"));
    expect(index).toHaveAccessibleDescription(
      expect.stringContaining("A submission with index number PG7654321 already exists."),
    );
    // The error summary takes focus and links to the field (GOV.UK error summary).
    const summary = screen.getByRole("alert", { name: "There is a problem" });
    expect(summary).toHaveFocus();
    expect(
      within(summary).getByRole("link", {
        name: "A submission with index number PG7654321 already exists.",
      }),
    ).toHaveAttribute("href", "#new-submission-indexNumber");
    expect(posts()).toHaveLength(1);
    // Nothing typed is lost.
    expect(screen.getByLabelText("Student Name")).toHaveValue("Kofi Boateng");
  });

  it("shows the server's field messages (400) beside their fields, with the field's label", async () => {
    const user = userEvent.setup();
    setup(() => ({
      status: 400,
      body: {
        success: false,
        code: "validation",
        message: "contact: is too long",
        fields: [{ field: "contact", message: "is too long" }],
      },
    }));
    await fillRequired(user);
    await user.click(screen.getByRole("button", { name: "Submit" }));

    const contact = screen.getByLabelText(/^Contact/);
    await waitFor(() => expect(contact).toHaveAttribute("aria-invalid", "true"));
    expect(contact).toHaveAccessibleDescription(expect.stringContaining("Contact is too long"));
    expect(
      screen.getByText("The server did not accept some fields. Correct them and submit again."),
    ).toBeInTheDocument();
  });

  it("sends the stage, examiner and documents mapped onto the model, then confirms with the details and links", async () => {
    const user = userEvent.setup();
    const { posts } = setup((body) => ({
      status: 201,
      body: {
        data: makeSubmission({
          id: 42,
          studentName: body.studentName,
          indexNumber: body.indexNumber,
          programme: body.programme,
          sgsStage: body.sgsStage ?? null,
          internalExaminer: body.internalExaminer ?? null,
        }),
      },
    }));
    await fillRequired(user);
    await user.click(screen.getByRole("radio", { name: "Sent to Examiners" }));
    await user.selectOptions(
      screen.getByLabelText("Sent to Internal · Internal Report"),
      "Received",
    );
    await user.click(screen.getByRole("checkbox", { name: "Thesis" }));
    await user.type(screen.getByLabelText("Thesis received on"), "2025-04-02");
    await user.click(screen.getByRole("button", { name: "Submit" }));

    expect(await screen.findByRole("heading", { name: "Submission added" })).toHaveFocus();
    const body = posts()[0]!.body as SubmissionInput;
    expect(body).toMatchObject({
      studentName: "Kofi Boateng",
      indexNumber: "PG7654321",
      programme: "PhD Chemistry",
      contact: null,
      sgsStage: "sent_to_examiners",
      internalExaminer: "received",
      externalExaminer: null,
    });
    expect(body.documents?.thesis).toEqual({ submitted: true, receivedOn: "2025-04-02" });
    expect(body.documents?.supervisorForm).toEqual({ submitted: false, receivedOn: null });

    expect(screen.getByText("PhD Chemistry")).toBeInTheDocument();
    expect(screen.getByTestId("marker-SGS Admin")).toHaveAttribute("data-colour", "green");
    expect(
      screen.getByRole("link", { name: "Open this submission in All Submissions" }),
    ).toHaveAttribute("href", "/admin/all_submissions?q=PG7654321&open=42");
  });

  it("previews the student's status lines from the form as it is filled in", async () => {
    const user = userEvent.setup();
    setup(() => ({ status: 500 }));
    const preview = screen.getByRole("complementary", { name: "What the student will see" });
    const line = (label: string) => within(preview).getByText(label).nextElementSibling;
    expect(line("Sent to Department")).toHaveTextContent("Pending");
    await user.click(screen.getByRole("radio", { name: "Nominations Ready" }));
    expect(line("Sent to Department")).toHaveTextContent("Completed");
    expect(line("Nominations Ready")).toHaveTextContent("Completed");
  });
});

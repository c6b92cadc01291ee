import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { PublicationView } from "../../../../common/publication.js";
import { mockApi, renderPage } from "../test/harness.js";
import { PublicationPanel } from "./PublicationPanel.js";

const base = "/api/admin/submissions/PG7654321/publication";

const view: PublicationView = {
  submissionId: 9,
  state: "awaiting_approval",
  final: true,
  title: "Rainfall and Maize Yields",
  abstract: "How rainfall shapes maize yields.",
  keywords: ["maize"],
  language: "eng",
  degree: null,
  department: null,
  programme: "MPhil Economics",
  supervisors: [{ name: "Prof. Kofi Mensah", orcid: null }],
  examinationDate: null,
  awardDate: null,
  confirmedAt: null,
  licence: { version: 1, acceptedAt: "2026-11-01T09:00:00.000Z", current: true },
  embargo: {
    choice: "sensitive",
    reason: "A patent is pending.",
    approval: "pending",
    decisionNote: null,
    until: null,
  },
  filesPublic: false,
  publishedAt: null,
  withdrawn: null,
  handle: null,
  locked: false,
  missing: ["Degree (the school's)", "Award date (the school's)"],
  publicPath: null,
};

const degrees = {
  data: [
    { id: 3, name: "Master of Philosophy", abbreviation: "MPhil", level: "masters", active: true },
    { id: 4, name: "Old Diploma", abbreviation: "Dip", level: "masters", active: false },
  ],
  page: 1,
  pageSize: 50,
  total: 2,
};

function renderPanel() {
  return renderPage(<PublicationPanel submissionId={9} indexNumber="PG7654321" />, {
    path: "/admin/all_submissions",
  });
}

describe("the school's publication panel", () => {
  it("lists what is missing, offers only degrees still awarded, and sends the school's part with the confirmation", async () => {
    const api = mockApi([
      { path: base, answer: () => ({ body: { data: view } }) },
      { path: "/api/admin/degrees", answer: () => ({ body: degrees }) },
      {
        method: "PUT",
        path: base,
        answer: () => ({
          status: 400,
          body: {
            success: false,
            code: "validation",
            message: "awardDate: must not be before the examination date",
            fields: [{ field: "awardDate", message: "must not be before the examination date" }],
          },
        }),
      },
    ]);
    renderPanel();
    const user = userEvent.setup();
    const panel = await screen.findByRole("region", { name: "Publication" });
    expect(await within(panel).findByText("Degree (the school's)")).toBeVisible();
    const degree = await within(panel).findByRole("option", {
      name: "Master of Philosophy (MPhil)",
    });
    expect(degree).toBeInTheDocument();
    expect(within(panel).queryByRole("option", { name: "Old Diploma (Dip)" })).toBeNull();

    await user.selectOptions(within(panel).getByLabelText("Degree"), "3");
    await user.type(within(panel).getByLabelText("Department"), "Department of Economics");
    await user.type(within(panel).getByLabelText("Examination date"), "2026-06-01");
    await user.type(within(panel).getByLabelText("Award date"), "2026-05-01");
    await user.click(within(panel).getByRole("button", { name: "Confirm metadata" }));

    expect(await within(panel).findByText("must not be before the examination date")).toBeVisible();
    expect(within(panel).getByLabelText("Award date")).toHaveAttribute("aria-invalid", "true");
    const [put] = api.callsTo("PUT", base);
    expect(put?.body).toMatchObject({
      degreeId: 3,
      department: "Department of Economics",
      examinationDate: "2026-06-01",
      awardDate: "2026-05-01",
      keywords: ["maize"],
      language: "eng",
      confirm: true,
    });
  });

  it("approves a sensitive embargo with its end date, and refuses only with a note", async () => {
    const api = mockApi([
      { path: base, answer: () => ({ body: { data: view } }) },
      { path: "/api/admin/degrees", answer: () => ({ body: degrees }) },
      {
        method: "POST",
        path: `${base}/embargo-decision`,
        answer: (call) => {
          const body = call.body as { decision: string; note?: string };
          if (body.decision === "refuse" && !body.note) {
            return {
              status: 400,
              body: {
                success: false,
                code: "validation",
                message: "note: is required to refuse",
                fields: [{ field: "note", message: "is required to refuse" }],
              },
            };
          }
          return {
            body: {
              data: {
                ...view,
                state: "in_preparation",
                embargo: { ...view.embargo, approval: "approved", until: "2029-07-20" },
              },
            },
          };
        },
      },
    ]);
    renderPanel();
    const user = userEvent.setup();
    const panel = await screen.findByRole("region", { name: "Publication" });
    expect(await within(panel).findByText("Student's reason: A patent is pending.")).toBeVisible();
    await user.click(within(panel).getByRole("button", { name: "Refuse embargo" }));
    expect(await within(panel).findByText("is required to refuse")).toBeVisible();

    await user.type(within(panel).getByLabelText("Embargo ends on"), "2029-07-20");
    await user.click(within(panel).getByRole("button", { name: "Approve embargo" }));
    expect(await within(panel).findByText(/until 20 July 2029 \(approved\)/)).toBeVisible();
    expect(api.callsTo("POST", `${base}/embargo-decision`).at(-1)?.body).toEqual({
      decision: "approve",
      until: "2029-07-20",
    });
    expect(screen.getByRole("status")).toHaveTextContent("Embargo approved.");
  });
});

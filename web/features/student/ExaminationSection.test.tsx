import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { StudentExamination } from "../../../common/examiners.js";
import { json, mockServer, renderRoutes, student } from "../../test/render.js";
import { ExaminationSection } from "./ExaminationSection.js";
import { DocumentsSection } from "./documents/DocumentsSection.js";
import { documentsResponse, documentVersion } from "./test/documents-fixtures.js";

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

const EXAMINATION_URL = "/submissions/PG1234567/examination";

function examination(overrides: Partial<StudentExamination> = {}): StudentExamination {
  return {
    internal: { sentOn: null, reportReceivedOn: null },
    external: { sentOn: null, reportReceivedOn: null },
    outcome: null,
    ...overrides,
  };
}

function renderSection(element = <ExaminationSection indexNumber="PG1234567" />) {
  return renderRoutes([{ path: "/dashboard/status", element }], {
    path: "/dashboard/status",
    me: student,
  });
}

describe("ExaminationSection", () => {
  it("is hidden while nothing has happened yet", async () => {
    const server = mockServer(() => json(200, { data: examination() }));
    renderSection();
    await vi.waitFor(() => expect(server.calls.map((c) => c.url)).toEqual([EXAMINATION_URL]));
    // One more turn for the answer to render.
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole("region", { name: "Examination" })).not.toBeInTheDocument();
  });

  it("says when the thesis went to each examiner and when each report came in, never who", async () => {
    mockServer(() =>
      json(200, {
        data: examination({
          internal: { sentOn: "2026-03-12", reportReceivedOn: "2026-04-20" },
          external: { sentOn: "2026-03-13", reportReceivedOn: null },
        }),
      }),
    );
    renderSection();
    const section = await screen.findByRole("region", { name: "Examination" });
    const internal = within(section).getByRole("listitem", { name: "Internal examiner" });
    expect(internal).toHaveTextContent("Thesis sent to the internal examiner on 12 March 2026");
    expect(internal).toHaveTextContent("Internal examiner's report received on 20 April 2026");
    expect(internal).toHaveTextContent("Report received");
    const external = within(section).getByRole("listitem", { name: "External examiner" });
    expect(external).toHaveTextContent("Thesis sent to the external examiner on 13 March 2026");
    expect(external).toHaveTextContent("Report not received yet");
    expect(external).toHaveTextContent("With the examiner");
    expect(within(section).queryByText("Outcome")).not.toBeInTheDocument();
  });

  it("shows the released decision with the corrections requested, keeping their paragraphs, and what to do", async () => {
    const corrections = "Redraw the maps in chapter 2.\n\nAdd the 2024 rainfall data.";
    mockServer(() =>
      json(200, {
        data: examination({
          internal: { sentOn: "2026-03-12", reportReceivedOn: "2026-04-20" },
          external: { sentOn: "2026-03-13", reportReceivedOn: "2026-04-22" },
          outcome: {
            decision: "minor_corrections",
            label: "Minor corrections",
            corrections,
            releasedOn: "2026-04-25",
            correctionState: "to_upload",
            correctionsApprovedOn: null,
          },
        }),
      }),
    );
    renderSection();
    const section = await screen.findByRole("region", { name: "Examination" });
    expect(section).toHaveTextContent(
      "The school's decision, released on 25 April 2026: Minor corrections",
    );
    expect(within(section).getByText(/Redraw the maps/).textContent).toBe(corrections);
    expect(section).toHaveTextContent("To do: Upload your corrected thesis in Your documents.");
  });

  it.each([
    ["to_confirm", null, "Your corrected thesis is with the internal examiner for confirmation."],
    ["approved", "2026-05-10", "Corrections approved on 10 May 2026."],
  ] as const)("says where corrections stand: %s", async (state, approvedOn, words) => {
    mockServer(() =>
      json(200, {
        data: examination({
          internal: { sentOn: "2026-03-12", reportReceivedOn: "2026-04-20" },
          external: { sentOn: "2026-03-13", reportReceivedOn: "2026-04-22" },
          outcome: {
            decision: "major_corrections",
            label: "Major corrections",
            corrections: "Rewrite chapter 4.",
            releasedOn: "2026-04-25",
            correctionState: state,
            correctionsApprovedOn: approvedOn,
          },
        }),
      }),
    );
    renderSection();
    const section = await screen.findByRole("region", { name: "Examination" });
    expect(section).toHaveTextContent(words);
    expect(section).not.toHaveTextContent("To do:");
  });

  it("explains a failure and loads again when asked", async () => {
    let fail = true;
    mockServer(() =>
      fail
        ? json(500, { success: false, code: "internal", message: "Internal Server Error" })
        : json(200, {
            data: examination({ internal: { sentOn: "2026-03-12", reportReceivedOn: null } }),
          }),
    );
    renderSection();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We could not load where your examination stands.");
    fail = false;
    await userEvent.setup().click(within(alert).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByText("Thesis sent to the internal examiner on 12 March 2026"),
    ).toBeVisible();
  });

  it("asks for the corrected thesis in the thesis row of Your documents while corrections are open", async () => {
    mockServer((call) =>
      call.url === EXAMINATION_URL
        ? json(200, {
            data: examination({
              internal: { sentOn: "2026-03-12", reportReceivedOn: "2026-04-20" },
              external: { sentOn: "2026-03-13", reportReceivedOn: "2026-04-22" },
              outcome: {
                decision: "minor_corrections",
                label: "Minor corrections",
                corrections: "Fix the maps.",
                releasedOn: "2026-04-25",
                correctionState: "to_upload",
                correctionsApprovedOn: null,
              },
            }),
          })
        : json(
            200,
            documentsResponse({
              thesis: {
                state: "accepted",
                receivedOn: "2026-03-02",
                canUpload: true,
                current: documentVersion("thesis", { reviewState: "accepted" }),
              },
            }),
          ),
    );
    renderSection(<DocumentsSection indexNumber="PG1234567" />);
    const thesis = await screen.findByRole("listitem", { name: "Thesis" });
    await vi.waitFor(() =>
      expect(thesis).toHaveTextContent(
        "The examiners asked for corrections. Upload your corrected thesis as a PDF",
      ),
    );
    expect(within(thesis).getByText("Upload your corrected thesis")).toBeVisible();
    expect(within(thesis).getByText("To upload")).toBeVisible();
    expect(within(thesis).getByLabelText("Choose a PDF for the Thesis")).toBeEnabled();
  });
});

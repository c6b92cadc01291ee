import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, renderRoutes } from "../../test/render.js";
import { fakeUploads } from "../student/test/fake-upload-requests.js";
import { ExaminerPage } from "./ExaminerPage.js";
import { assignment, examinerServer, TOKEN, type ExaminerCall } from "./test/examiner-fixtures.js";

// fetch and XMLHttpRequest are replaced in every test: the server is outside the page's control.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
beforeEach(() => sessionStorage.clear());

const ASSIGNMENT = "/api/examiner/assignment";
const isAssignment = (call: ExaminerCall) => call.url === ASSIGNMENT;

function renderPage(path = `/examiner#${TOKEN}`) {
  return renderRoutes([{ path: "/examiner", element: <ExaminerPage /> }], { path, me: null });
}

function pdf(name: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type: "application/pdf" });
}

describe("ExaminerPage", () => {
  it("sends the token from the link as the Examiner header, without cookies, and takes it out of the address", async () => {
    const server = examinerServer(() => json(200, { data: assignment() }));
    const { router } = renderPage();

    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Groundwater recharge in the Volta basin",
      }),
    ).toBeVisible();
    const call = server.calls.find(isAssignment);
    expect(call?.headers.authorization).toBe(`Examiner ${TOKEN}`);
    expect(call?.credentials).toBe("omit");
    expect(router.state.location.pathname).toBe("/examiner");
    expect(router.state.location.hash).toBe("");
    expect(sessionStorage.getItem("ets.examinerToken")).toBe(TOKEN);

    expect(screen.getByText(/Dear Prof\. Kwame Asante/)).toBeVisible();
    expect(screen.getByText("MPhil Geography")).toBeVisible();
    expect(screen.getAllByText("External examiner").length).toBeGreaterThan(0);
    expect(screen.getByText(/13 April 2026/)).toBeVisible();
    // The abstract keeps its paragraphs.
    const abstract = screen.getByRole("region", { name: "Abstract" });
    expect(within(abstract).getByText(/Rain reaches/).textContent).toBe(
      "Rain reaches the aquifers slowly.\n\nThis thesis measures how slowly.",
    );
    expect(screen.getByRole("button", { name: "Download the thesis (PDF, 12 MB)" })).toBeVisible();
    expect(screen.getByText(/212 pages/)).toBeVisible();
    expect(screen.getByText(/sgs-office@sgs\.test/)).toBeVisible();
  });

  it("opens again after a reload from the token this tab kept, and shows no link page without one", async () => {
    const server = examinerServer(() => json(200, { data: assignment() }));
    sessionStorage.setItem("ets.examinerToken", TOKEN);
    const first = renderPage("/examiner");
    expect(await screen.findByRole("heading", { level: 1, name: /Groundwater/ })).toBeVisible();
    expect(server.calls.find(isAssignment)?.headers.authorization).toBe(`Examiner ${TOKEN}`);
    first.unmount();

    sessionStorage.clear();
    const before = server.calls.length;
    renderPage("/examiner");
    expect(
      screen.getByRole("heading", { level: 1, name: "Open this page from your invitation email" }),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "Contact the School of Graduate Studies" }),
    ).toHaveAttribute("href", "/help/contact");
    expect(server.calls.length).toBe(before);
  });

  it.each([
    [401, "invalid", "This link does not open an examination"],
    [410, "expired", "This examination link has expired"],
    [410, "revoked", "This examination link has been withdrawn"],
    [410, "replaced", "This examination was withdrawn from you"],
  ] as const)(
    "a %i refusal (%s) shows its own page with the school's contact",
    async (status, reason, title) => {
      examinerServer(() =>
        json(status, {
          success: false,
          code: "link_refused",
          reason,
          message: "This examination link no longer works.",
          schoolContact: "sgs-office@sgs.test",
        }),
      );
      renderPage();
      const heading = await screen.findByRole("heading", { level: 1, name: title });
      expect(heading).toHaveFocus();
      expect(screen.getByText("sgs-office@sgs.test")).toBeVisible();
      expect(screen.queryByRole("button", { name: /Download/ })).not.toBeInTheDocument();
      expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    },
  );

  it("tells a replaced examiner the examination was withdrawn, never to wait for another mail", async () => {
    examinerServer(() =>
      json(410, {
        success: false,
        code: "link_refused",
        reason: "replaced",
        message: "This examination has been passed to another examiner.",
        schoolContact: "sgs-office@sgs.test",
      }),
    );
    renderPage();
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading).toHaveTextContent("This examination was withdrawn from you");
    const card = heading.closest("section");
    expect(card).not.toBeNull();
    expect(card).toHaveTextContent(/passed this examination to another examiner/);
    expect(card).not.toHaveTextContent(/most recent|newer link|new link/i);
    expect(screen.getByText("sgs-office@sgs.test")).toBeVisible();
  });

  it("refuses a link cut short without asking the server, even if this tab kept another token", async () => {
    const server = examinerServer(() => json(200, { data: assignment() }));
    sessionStorage.setItem("ets.examinerToken", TOKEN);
    const { router } = renderPage("/examiner#q8H3k");
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "This link does not open an examination",
      }),
    ).toBeVisible();
    await vi.waitFor(() => expect(router.state.location.hash).toBe(""));
    expect(server.calls).toHaveLength(0);
  });

  it("asks to wait after too many attempts", async () => {
    examinerServer(() =>
      json(429, { success: false, code: "rate_limited", message: "Too many requests" }),
    );
    renderPage();
    expect(await screen.findByRole("heading", { name: "Please wait a few minutes" })).toBeVisible();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Wait a few minutes, then reload the page.",
    );
  });

  it("downloads the thesis with the header and saves it under its name", async () => {
    const bytes = new Uint8Array(5000).fill(37);
    let received = false;
    const server = examinerServer((call) => {
      if (call.url === "/api/examiner/thesis") {
        received = true;
        return new Response(bytes, {
          status: 200,
          headers: {
            "content-type": "application/pdf",
            "content-length": "5000",
            "content-disposition": 'attachment; filename="thesis-final.pdf"',
          },
        });
      }
      return json(200, {
        data: assignment(
          received ? { state: "received", receivedAt: "2026-03-03T09:00:00.000Z" } : {},
        ),
      });
    });
    const saved: { download: string; href: string }[] = [];
    Object.defineProperty(URL, "createObjectURL", {
      configurable: true,
      value: vi.fn(() => "blob:thesis"),
    });
    Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ download: this.download, href: this.href });
    });
    renderPage();
    await userEvent
      .setup()
      .click(await screen.findByRole("button", { name: "Download the thesis (PDF, 12 MB)" }));
    expect(
      await screen.findByText("thesis-final.pdf is in your browser's downloads."),
    ).toBeVisible();
    const download = server.calls.find((c) => c.url === "/api/examiner/thesis");
    expect(download?.headers.authorization).toBe(`Examiner ${TOKEN}`);
    expect(download?.credentials).toBe("omit");
    expect(saved).toEqual([{ download: "thesis-final.pdf", href: "blob:thesis" }]);
    // The page reads the assignment again: the download is dated.
    expect(await screen.findByText("3 March 2026")).toBeVisible();
  });

  it("says clearly when the download fails", async () => {
    examinerServer((call) =>
      call.url === "/api/examiner/thesis"
        ? json(500, { success: false, code: "internal", message: "Internal Server Error" })
        : json(200, { data: assignment() }),
    );
    renderPage();
    await userEvent
      .setup()
      .click(await screen.findByRole("button", { name: /Download the thesis/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Something went wrong on our side. Please try again in a few minutes.",
    );
  });

  it("checks the report form, then sends the recommendation and note before the file, and thanks the examiner", async () => {
    examinerServer(() => json(200, { data: assignment() }));
    const uploads = fakeUploads();
    renderPage();
    const user = userEvent.setup();
    const send = await screen.findByRole("button", { name: "Send your report" });

    await user.click(send);
    const summary = await screen.findByRole("alert");
    expect(summary).toHaveTextContent("There is a problem");
    expect(within(summary).getByRole("link", { name: "Choose your recommendation" })).toBeVisible();
    expect(
      within(summary).getByRole("link", { name: "Choose your report as a PDF" }),
    ).toBeVisible();
    expect(summary).toHaveFocus();
    expect(uploads.requests).toHaveLength(0);

    await user.click(screen.getByRole("radio", { name: /Minor corrections/ }));
    await user.type(
      screen.getByLabelText("Note to the school (optional)"),
      "  Chapter 3 needs care.  ",
    );
    await user.upload(screen.getByLabelText("Choose your report (PDF)"), pdf("report.pdf", 4096));
    expect(screen.getByText("Chosen: report.pdf (4 KB)")).toBeVisible();
    await user.click(send);

    const request = uploads.requests[0];
    if (!request) throw new Error("no upload was sent");
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/examiner/report");
    expect(request.headers.authorization).toBe(`Examiner ${TOKEN}`);
    const form = request.body as FormData;
    expect([...form.keys()]).toEqual(["recommendation", "note", "file"]);
    expect(form.get("recommendation")).toBe("minor_corrections");
    expect(form.get("note")).toBe("Chapter 3 needs care.");
    expect(request.file?.name).toBe("report.pdf");

    act(() => request.progress(2000, 4200));
    expect(screen.getByRole("progressbar", { name: "Uploading report.pdf" })).toHaveAttribute(
      "aria-valuenow",
      "48",
    );
    act(() => request.finishSending());
    expect(screen.getByText(/Checking report\.pdf/)).toBeVisible();

    act(() =>
      request.respond(201, {
        data: assignment({
          state: "report_submitted",
          receivedAt: "2026-03-03T09:00:00.000Z",
          report: {
            fileName: "report.pdf",
            uploadedAt: "2026-03-20T12:00:00.000Z",
            recommendation: "minor_corrections",
          },
        }),
      }),
    );
    const thanks = await screen.findByRole("heading", {
      name: "Thank you, your report was received on 20 March 2026",
    });
    expect(thanks).toHaveFocus();
    expect(screen.getByText(/your recommendation/)).toHaveTextContent("Minor corrections");
    expect(screen.queryByRole("button", { name: "Send your report" })).not.toBeInTheDocument();
  });

  it("leaves the note out when empty, refuses a file that is not a PDF, and shows the server's refusal", async () => {
    examinerServer(() => json(200, { data: assignment() }));
    const uploads = fakeUploads();
    renderPage();
    const user = userEvent.setup({ applyAccept: false });
    await user.click(await screen.findByRole("radio", { name: /Pass/ }));
    await user.upload(
      screen.getByLabelText("Choose your report (PDF)"),
      new File(["x"], "report.docx", { type: "application/msword" }),
    );
    expect(
      screen.getByText(
        "report.docx is not a PDF. Save or export your report as a PDF and choose that file.",
      ),
    ).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Send your report" }));
    expect(uploads.requests).toHaveLength(0);

    await user.upload(screen.getByLabelText(/Choose a different PDF/), pdf("report.pdf", 100));
    await user.click(screen.getByRole("button", { name: "Send your report" }));
    const request = uploads.requests[0];
    if (!request) throw new Error("no upload was sent");
    expect([...(request.body as FormData).keys()]).toEqual(["recommendation", "file"]);
    const message =
      "report.pdf is protected by a password. Save it again without a password and upload it.";
    act(() =>
      request.respond(400, { success: false, code: "validation", message, reason: "encrypted" }),
    );
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.getByRole("button", { name: "Send your report" })).toBeEnabled();
  });

  it("lets the internal examiner download the corrected thesis and confirm the corrections", async () => {
    let approved = false;
    const report = {
      fileName: "report.pdf",
      uploadedAt: "2026-03-20T12:00:00.000Z",
      recommendation: "minor_corrections" as const,
    };
    const server = examinerServer((call) => {
      if (call.url === "/api/examiner/corrections/approve") {
        approved = true;
        return json(200, { data: null });
      }
      return json(200, {
        data: assignment({
          role: "internal",
          state: "report_submitted",
          report,
          corrections: approved
            ? {
                requested: "Fix the maps.",
                state: "approved",
                approvedAt: "2026-05-02T10:00:00.000Z",
              }
            : {
                requested: "Fix the maps.\n\nRedraw figure 4.",
                state: "to_confirm",
                approvedAt: null,
              },
          done: approved,
        }),
      });
    });
    renderPage();
    const section = await screen.findByRole("region", { name: "Confirm the corrections" });
    expect(within(section).getByText(/Fix the maps/).textContent).toBe(
      "Fix the maps.\n\nRedraw figure 4.",
    );
    expect(
      within(section).getByRole("button", { name: "Download the corrected thesis (PDF, 12 MB)" }),
    ).toBeVisible();

    const user = userEvent.setup();
    await user.click(within(section).getByRole("button", { name: "Confirm the corrections" }));
    const dialog = screen.getByRole("alertdialog", { name: "Confirm the corrections?" });
    await user.click(within(dialog).getByRole("button", { name: "Yes, confirm the corrections" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
    expect(screen.getByText("The corrections were approved on 2 May 2026.")).toBeVisible();
    const approve = server.calls.find((c) => c.url === "/api/examiner/corrections/approve");
    expect(approve?.method).toBe("POST");
    expect(approve?.headers.authorization).toBe(`Examiner ${TOKEN}`);
  });

  it("thanks an examiner with nothing left to do, with the school's contact", async () => {
    examinerServer(() =>
      json(200, {
        data: assignment({
          state: "report_submitted",
          report: {
            fileName: "r.pdf",
            uploadedAt: "2026-03-20T12:00:00.000Z",
            recommendation: "pass",
          },
          done: true,
        }),
      }),
    );
    renderPage();
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Thank you, your report was received on 20 March 2026",
      }),
    ).toBeVisible();
    expect(screen.getByText(/nothing more for you to do/)).toBeVisible();
    expect(screen.getByText(/sgs-office@sgs\.test/)).toBeVisible();
    expect(screen.queryByRole("button", { name: /Download/ })).not.toBeInTheDocument();
  });
});

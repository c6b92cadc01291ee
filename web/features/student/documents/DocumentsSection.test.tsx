import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, mockServer, renderRoutes, student, type FetchCall } from "../../../test/render.js";
import { fakeUploads, type FakeUploadRequest } from "../test/fake-upload-requests.js";
import { documentsResponse, documentVersion, MB } from "../test/documents-fixtures.js";
import { DocumentsSection } from "./DocumentsSection.js";

// fetch and XMLHttpRequest are replaced in every test: the server is outside the component's control.
afterEach(() => vi.unstubAllGlobals());

const DOCUMENTS_URL = "/submissions/PG1234567/documents";
const isDocuments = (call: FetchCall) => call.method === "GET" && call.url === DOCUMENTS_URL;

function renderSection() {
  return renderRoutes(
    [{ path: "/dashboard/status", element: <DocumentsSection indexNumber="PG1234567" /> }],
    { path: "/dashboard/status", me: student },
  );
}

function pdf(name: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type: "application/pdf" });
}

async function row(name: string) {
  return screen.findByRole("listitem", { name });
}

/** The row's polite live region (role="status") that says how the upload is going. */
function uploadStatus(item: HTMLElement): HTMLElement {
  const region = within(item)
    .getAllByRole("status")
    .find((element) => element.classList.contains("upload__status"));
  if (!region) throw new Error("no upload status region");
  return region;
}

function lastRequest(requests: FakeUploadRequest[]): FakeUploadRequest {
  const request = requests.at(-1);
  if (!request) throw new Error("no upload was sent");
  return request;
}

describe("DocumentsSection", () => {
  it("shows each item's state in words: to upload, with the school, accepted, on paper, returned", async () => {
    mockServer(() =>
      json(
        200,
        documentsResponse({
          turnitinReport: {
            state: "with_school",
            current: documentVersion("turnitinReport", { uploadedAt: "2026-03-05T09:00:00.000Z" }),
          },
          supervisorForm: {
            state: "accepted",
            receivedOn: "2026-03-12",
            canUpload: false,
            current: documentVersion("supervisorForm", {
              reviewState: "accepted",
              reviewedAt: "2026-03-12T11:00:00.000Z",
            }),
          },
          statementOfResult: {
            state: "accepted",
            receivedOn: "2026-03-10",
            paperCopy: true,
            canUpload: false,
          },
          financialClearance: {
            state: "returned",
            current: documentVersion("financialClearance", {
              reviewState: "returned",
              reviewedAt: "2026-03-13T08:00:00.000Z",
              returnReason: "The clearance is not stamped.",
            }),
          },
        }),
      ),
    );
    renderSection();

    const thesis = await row("Thesis");
    expect(thesis).toHaveTextContent("To upload");
    expect(within(thesis).getByLabelText("Choose a PDF for the Thesis")).toBeEnabled();

    const turnitin = await row("Turnitin report");
    expect(turnitin).toHaveTextContent("With the school");
    expect(turnitin).toHaveTextContent("Uploaded on 5 March 2026");
    expect(
      within(turnitin).getByRole("link", { name: "turnitinReport.pdf (opens in a new tab)" }),
    ).toHaveAttribute("target", "_blank");

    const supervisor = await row("Supervisor form");
    expect(supervisor).toHaveTextContent("Accepted on 12 March 2026");
    expect(within(supervisor).queryByLabelText(/Choose a PDF/)).not.toBeInTheDocument();

    const statement = await row("Statement of Result");
    expect(statement).toHaveTextContent("Received on paper, 10 March 2026");
    expect(within(statement).queryByLabelText(/Choose a PDF/)).not.toBeInTheDocument();

    expect(await row("Financial Clearance")).toHaveTextContent("Returned");
    expect(
      screen.getByText(
        "2 of 5 accepted. 1 returned: upload a new version. 1 with the school for review. 1 to upload.",
      ),
    ).toBeVisible();
  });

  it("gives a returned item's reason in full with the upload right beside it", async () => {
    const reason =
      "The Turnitin report covers chapter 1 only.\nUpload the report for the whole thesis.";
    mockServer(() =>
      json(
        200,
        documentsResponse({
          turnitinReport: {
            state: "returned",
            current: documentVersion("turnitinReport", {
              reviewState: "returned",
              reviewedAt: "2026-03-13T08:00:00.000Z",
              returnReason: reason,
            }),
          },
        }),
      ),
    );
    renderSection();
    const turnitin = await row("Turnitin report");
    expect(turnitin).toHaveTextContent("Returned on 13 March 2026. Upload a new version.");
    const reasonText = within(turnitin).getByText(/covers chapter 1 only/);
    expect(reasonText.textContent).toBe(reason);
    const input = within(turnitin).getByLabelText("Choose a PDF for the Turnitin report");
    expect(input).toBeEnabled();
    // Beside it: the reason's box is followed directly by the upload.
    expect(reasonText.closest(".document__reason")?.nextElementSibling).toContainElement(input);
  });

  it("folds earlier versions away with their name, size, date, pages and review state", async () => {
    mockServer(() =>
      json(
        200,
        documentsResponse({
          thesis: {
            state: "with_school",
            current: documentVersion("thesis", { version: 2, fileName: "thesis-v2.pdf" }),
            earlier: [
              documentVersion("thesis", {
                version: 1,
                fileName: "thesis-draft.pdf",
                sizeBytes: 840 * 1024,
                pageCount: 1,
                uploadedAt: "2026-02-20T10:00:00.000Z",
                reviewState: "returned",
                reviewedAt: "2026-02-25T10:00:00.000Z",
                returnReason: "The abstract page is missing.",
              }),
            ],
          },
        }),
      ),
    );
    renderSection();
    const thesis = await row("Thesis");
    const summary = within(thesis).getByText("Earlier versions (1)");
    const details = summary.closest("details");
    expect(details).not.toHaveAttribute("open");
    await userEvent.setup().click(summary);
    expect(details).toHaveAttribute("open");
    const earlier = within(details as HTMLElement).getByRole("listitem");
    expect(earlier).toHaveTextContent("thesis-draft.pdf");
    expect(earlier).toHaveTextContent(
      "Version 1 · 840 KB · 1 page · uploaded 20 February 2026 · Returned on 25 February 2026",
    );
    expect(earlier).toHaveTextContent("The abstract page is missing.");
  });

  it("refuses a file that is not a PDF, naming it, without sending anything", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const turnitin = await row("Turnitin report");
    // As if the student switched the picker to "All files".
    await userEvent
      .setup({ applyAccept: false })
      .upload(
        within(turnitin).getByLabelText("Choose a PDF for the Turnitin report"),
        new File(["hello"], "turnitin.docx", { type: "application/msword" }),
      );
    expect(within(turnitin).getByRole("alert")).toHaveTextContent(
      "turnitin.docx is not a PDF. Save or export it as a PDF and upload that file.",
    );
    expect(uploads.requests).toHaveLength(0);
  });

  it("refuses a file over the item's limit, naming it and the limit, without sending anything", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const supervisor = await row("Supervisor form");
    await userEvent
      .setup()
      .upload(
        within(supervisor).getByLabelText("Choose a PDF for the Supervisor form"),
        pdf("supervisor-scan.pdf", 10 * MB + 1),
      );
    expect(within(supervisor).getByRole("alert")).toHaveTextContent(
      /^supervisor-scan\.pdf is larger than 10 MB, the limit for the Supervisor form\./,
    );
    expect(uploads.requests).toHaveLength(0);
  });

  it("uploads with a progress bar, says it is checking, then shows it with the school", async () => {
    let uploaded = false;
    const stored = documentVersion("turnitinReport", {
      fileName: "turnitin.pdf",
      uploadedAt: "2026-03-14T10:00:00.000Z",
    });
    const server = mockServer(() =>
      json(
        200,
        documentsResponse(
          uploaded ? { turnitinReport: { state: "with_school", current: stored } } : {},
        ),
      ),
    );
    const uploads = fakeUploads();
    renderSection();
    const turnitin = await row("Turnitin report");
    await userEvent
      .setup()
      .upload(
        within(turnitin).getByLabelText("Choose a PDF for the Turnitin report"),
        pdf("turnitin.pdf", 2 * MB),
      );

    const request = lastRequest(uploads.requests);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/submissions/PG1234567/documents/turnitinReport");
    expect(request.file?.name).toBe("turnitin.pdf");
    expect(turnitin).toHaveTextContent("Uploading");

    // The request is a little larger than the file (multipart framing): half of it is half the file.
    act(() => request.progress(1_050_000, 2_100_000));
    const bar = within(turnitin).getByRole("progressbar", { name: "Uploading turnitin.pdf" });
    expect(bar).toHaveAttribute("aria-valuenow", "50");
    expect(within(turnitin).getByText("50% · 1.0 of 2.0 MB")).toBeVisible();
    expect(uploadStatus(turnitin)).toHaveTextContent("Uploading turnitin.pdf: 50% sent.");

    act(() => {
      request.progress(2_100_000, 2_100_000);
      request.finishSending();
    });
    expect(turnitin).toHaveTextContent("Checking");
    expect(uploadStatus(turnitin)).toHaveTextContent(
      "Checking turnitin.pdf: scanning it for viruses and reading the PDF.",
    );
    expect(within(turnitin).queryByRole("progressbar")).not.toBeInTheDocument();

    uploaded = true;
    act(() => request.respond(201, { data: stored }));
    expect(await within(turnitin).findByText("With the school")).toBeVisible();
    expect(uploadStatus(turnitin)).toHaveTextContent(
      "turnitin.pdf uploaded. The school will review it.",
    );
    expect(
      within(turnitin).getByRole("link", { name: "turnitin.pdf (opens in a new tab)" }),
    ).toHaveAttribute("href", stored.href);
    await vi.waitFor(() => expect(server.calls.filter(isDocuments)).toHaveLength(2));
  });

  it("shows the server's refusal as it wrote it, in an alert beside the item", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const thesis = await row("Thesis");
    await userEvent
      .setup()
      .upload(
        within(thesis).getByLabelText("Choose a PDF for the Thesis"),
        pdf("thesis-final.pdf", 4096),
      );
    const message =
      "thesis-final.pdf is protected by a password. Save it again without a password and upload it.";
    act(() =>
      lastRequest(uploads.requests).respond(400, {
        success: false,
        code: "validation",
        message,
        reason: "encrypted",
      }),
    );
    const alert = await within(thesis).findByRole("alert");
    expect(alert).toHaveTextContent(message);
    // Sending the same encrypted file again would be refused again: choose another instead.
    expect(within(alert).queryByRole("button", { name: /Try again/ })).not.toBeInTheDocument();
    expect(within(thesis).getByLabelText("Choose a PDF for the Thesis")).toBeEnabled();
    expect(thesis).toHaveTextContent("To upload");
  });

  it("offers to try again later when the virus scanner is away, and resends the same file", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const form = await row("Supervisor form");
    await userEvent
      .setup()
      .upload(
        within(form).getByLabelText("Choose a PDF for the Supervisor form"),
        pdf("form.pdf", 2048),
      );
    const message =
      "form.pdf could not be checked for viruses just now. Try again in a few minutes.";
    act(() =>
      lastRequest(uploads.requests).respond(503, {
        success: false,
        code: "unavailable",
        message,
        reason: "scanner_unavailable",
      }),
    );
    const alert = await within(form).findByRole("alert");
    expect(alert).toHaveTextContent(message);
    await userEvent.setup().click(within(alert).getByRole("button", { name: /Try again/ }));
    expect(uploads.requests).toHaveLength(2);
    expect(lastRequest(uploads.requests).file?.name).toBe("form.pdf");
  });

  it("cancels: the request is aborted and the page says so", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const thesis = await row("Thesis");
    const user = userEvent.setup();
    await user.upload(
      within(thesis).getByLabelText("Choose a PDF for the Thesis"),
      pdf("thesis.pdf", 3 * MB),
    );
    const request = lastRequest(uploads.requests);
    act(() => request.progress(1_000_000, 3_200_000));
    await user.click(
      within(thesis).getByRole("button", { name: "Cancel the upload of thesis.pdf" }),
    );
    expect(request.aborted).toBe(true);
    expect(uploadStatus(thesis)).toHaveTextContent("Upload cancelled. thesis.pdf was not sent.");
    expect(within(thesis).queryByRole("progressbar")).not.toBeInTheDocument();
    expect(within(thesis).getByLabelText("Choose a PDF for the Thesis")).toBeEnabled();
    expect(thesis).toHaveTextContent("To upload");
  });

  it("after a dropped connection, Try again sends the same file again", async () => {
    let uploaded = false;
    const stored = documentVersion("statementOfResult", { fileName: "result.pdf" });
    mockServer(() =>
      json(
        200,
        documentsResponse(
          uploaded ? { statementOfResult: { state: "with_school", current: stored } } : {},
        ),
      ),
    );
    const uploads = fakeUploads();
    renderSection();
    const statement = await row("Statement of Result");
    const user = userEvent.setup();
    await user.upload(
      within(statement).getByLabelText("Choose a PDF for the Statement of Result"),
      pdf("result.pdf", 5000),
    );
    act(() => lastRequest(uploads.requests).dropConnection());
    const alert = await within(statement).findByRole("alert");
    expect(alert).toHaveTextContent(
      "The connection dropped while sending result.pdf. Check your connection and try again.",
    );

    await user.click(within(alert).getByRole("button", { name: "Try again to upload result.pdf" }));
    expect(uploads.requests).toHaveLength(2);
    const again = lastRequest(uploads.requests);
    expect(again.file?.name).toBe("result.pdf");
    expect(again.file?.size).toBe(5000);
    expect(within(statement).queryByRole("alert")).not.toBeInTheDocument();
    uploaded = true;
    act(() => again.respond(201, { data: stored }));
    expect(await within(statement).findByText("With the school")).toBeVisible();
  });

  it("takes a PDF dropped on the drop zone", async () => {
    mockServer(() => json(200, documentsResponse()));
    const uploads = fakeUploads();
    renderSection();
    const clearance = await row("Financial Clearance");
    const zone = within(clearance)
      .getByLabelText("Choose a PDF for the Financial Clearance")
      .closest(".dropzone");
    if (!zone) throw new Error("no drop zone");
    const file = pdf("clearance.pdf", 1000);
    fireEvent.dragEnter(zone, { dataTransfer: { files: [file], types: ["Files"] } });
    expect(zone).toHaveClass("dropzone--active");
    fireEvent.drop(zone, { dataTransfer: { files: [file], types: ["Files"] } });
    expect(uploads.requests).toHaveLength(1);
    expect(lastRequest(uploads.requests).url).toBe(
      "/api/submissions/PG1234567/documents/financialClearance",
    );
  });

  it("asks for the thesis title and abstract, with errors beside each field, before the thesis upload", async () => {
    let saved: { title: string | null; abstract: string | null } = { title: null, abstract: null };
    const server = mockServer((call) => {
      if (call.method === "PUT") {
        saved = call.body as { title: string; abstract: string };
        return json(200, { data: saved });
      }
      return json(200, documentsResponse({}, saved));
    });
    renderSection();
    const thesis = await row("Thesis");
    const input = within(thesis).getByLabelText("Choose a PDF for the Thesis");
    expect(input).toBeDisabled();
    expect(thesis).toHaveTextContent("Save the thesis title and abstract above first");

    const user = userEvent.setup();
    await user.click(within(thesis).getByRole("button", { name: "Save title and abstract" }));
    const title = within(thesis).getByLabelText("Thesis title");
    await waitFor(() => expect(title).toHaveAttribute("aria-invalid", "true"));
    expect(title).toHaveAccessibleDescription(expect.stringContaining("Thesis title is required"));
    expect(within(thesis).getByLabelText("Abstract")).toHaveAccessibleDescription(
      expect.stringContaining("Abstract is required"),
    );
    expect(server.calls.filter((c) => c.method === "PUT")).toHaveLength(0);

    await user.type(title, "  Informal credit in Northern Ghana ");
    await user.type(within(thesis).getByLabelText("Abstract"), "How credit smooths consumption.");
    await user.click(within(thesis).getByRole("button", { name: "Save title and abstract" }));

    expect(await within(thesis).findByText("Title and abstract saved.")).toBeVisible();
    expect(server.calls.find((c) => c.method === "PUT")).toEqual({
      url: "/submissions/PG1234567/thesis",
      method: "PUT",
      body: {
        title: "Informal credit in Northern Ghana",
        abstract: "How credit smooths consumption.",
      },
    });
    expect(within(thesis).getByText("Informal credit in Northern Ghana")).toBeVisible();
    expect(within(thesis).getByLabelText("Choose a PDF for the Thesis")).toBeEnabled();
  });

  it("focuses the first wrong field on submit, then checks each field again as it changes", async () => {
    const server = mockServer(() =>
      json(200, documentsResponse({}, { title: null, abstract: null })),
    );
    renderSection();
    const thesis = await row("Thesis");
    const user = userEvent.setup();
    const title = within(thesis).getByLabelText("Thesis title");
    const abstract = within(thesis).getByLabelText("Abstract");
    await user.type(title, "A title");
    await user.click(within(thesis).getByRole("button", { name: "Save title and abstract" }));
    expect(abstract).toHaveFocus();
    expect(abstract).toHaveAttribute("aria-invalid", "true");
    expect(title).not.toHaveAttribute("aria-invalid");

    await user.type(abstract, "An abstract");
    expect(abstract).not.toHaveAttribute("aria-invalid");
    await user.clear(title);
    expect(title).toHaveAccessibleDescription(expect.stringContaining("Thesis title is required"));
    expect(server.calls.filter((c) => c.method === "PUT")).toHaveLength(0);
  });

  it("puts the server's field messages beside the title and abstract", async () => {
    mockServer((call) =>
      call.method === "PUT"
        ? json(400, {
            success: false,
            code: "validation",
            message: "Check the title.",
            fields: [{ field: "title", message: "Thesis title must be at most 500 characters" }],
          })
        : json(200, documentsResponse({}, { title: null, abstract: null })),
    );
    renderSection();
    const thesis = await row("Thesis");
    const user = userEvent.setup();
    await user.type(within(thesis).getByLabelText("Thesis title"), "A title");
    await user.type(within(thesis).getByLabelText("Abstract"), "An abstract");
    await user.click(within(thesis).getByRole("button", { name: "Save title and abstract" }));
    expect(
      await within(thesis).findByText("Thesis title must be at most 500 characters"),
    ).toBeVisible();
    expect(within(thesis).getByLabelText("Thesis title")).toHaveAttribute("aria-invalid", "true");
  });

  it("says the documents are loading, then explains a failure and loads again when asked", async () => {
    let fail = true;
    let answer: () => void = () => {};
    mockServer((call) =>
      // The examination (asked for the thesis row's wording) is not what this test is about.
      call.url.endsWith("/examination")
        ? json(404, { success: false, code: "not_found", message: "Not found" })
        : new Promise<Response>((resolve) => {
            answer = () =>
              resolve(
                fail
                  ? json(500, {
                      success: false,
                      code: "internal",
                      message: "Internal Server Error",
                    })
                  : json(200, documentsResponse()),
              );
          }),
    );
    renderSection();
    expect(screen.getByRole("status")).toHaveTextContent("Loading your documents...");
    act(() => answer());
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We could not load your documents.");

    fail = false;
    await userEvent.setup().click(within(alert).getByRole("button", { name: "Try again" }));
    act(() => answer());
    expect(await row("Thesis")).toBeVisible();
  });
});

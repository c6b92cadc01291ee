import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { mockApi, renderPage, type Answer } from "../test/harness.js";
import { ImportPage } from "./ImportPage.js";

// The server is outside the component's control: fetch is stubbed with answers shaped like the
// import calls of docs/api.md.
function setup(preview: Answer, apply: Answer = { status: 500 }) {
  const api = mockApi([
    { method: "POST", path: "/api/admin/import/preview", answer: () => preview },
    { method: "POST", path: "/api/admin/import/apply", answer: () => apply },
  ]);
  renderPage(<ImportPage />, { path: "/admin/import" });
  return api;
}

const csv = () =>
  new File(["StudentName,IndexNumber,Programme\n"], "records.csv", { type: "text/csv" });

describe("import", () => {
  it("lists each bad row with its row number, column and reason, and does not offer to apply", async () => {
    const user = userEvent.setup();
    setup({
      body: {
        rows: 3,
        inserts: 2,
        updates: 0,
        unchanged: 0,
        errors: [
          { row: 3, column: "IndexNumber", reason: "is required" },
          { row: 4, column: null, reason: "duplicates row 2" },
        ],
      },
    });
    await user.upload(screen.getByLabelText("Spreadsheet (CSV or XLSX)"), csv());
    await user.click(screen.getByRole("button", { name: "Check file" }));

    const table = await screen.findByRole("table", { name: "Problems in the file, by row" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "3IndexNumberis required",
      "4Whole rowduplicates row 2",
    ]);
    expect(screen.getByText(/Importing is all or nothing/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Apply import" })).not.toBeInTheDocument();
  });

  it("applies a clean file after the preview and reports what changed", async () => {
    const user = userEvent.setup();
    const api = setup(
      { body: { rows: 2, inserts: 1, updates: 1, unchanged: 0, errors: [] } },
      { body: { inserted: 1, updated: 1, unchanged: 0 } },
    );
    await user.upload(screen.getByLabelText("Spreadsheet (CSV or XLSX)"), csv());
    await user.click(screen.getByRole("button", { name: "Check file" }));
    await user.click(await screen.findByRole("button", { name: "Apply import" }));

    expect(await screen.findByText("1 new submission added, 1 updated.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/import/apply")).toHaveLength(1);
  });

  it("shows the rows when the server refuses the apply, and says nothing changed", async () => {
    const user = userEvent.setup();
    setup(
      { body: { rows: 1, inserts: 1, updates: 0, unchanged: 0, errors: [] } },
      {
        status: 400,
        body: {
          success: false,
          code: "validation",
          message: "The file has errors; nothing was imported.",
          errors: [
            {
              row: 2,
              column: "SGSAdmin",
              reason: "must be one of Awaiting Review, Sent to Department",
            },
          ],
        },
      },
    );
    await user.upload(screen.getByLabelText("Spreadsheet (CSV or XLSX)"), csv());
    await user.click(screen.getByRole("button", { name: "Check file" }));
    await user.click(await screen.findByRole("button", { name: "Apply import" }));

    expect(
      await screen.findByRole("heading", { name: "Nothing was imported" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("cell", { name: "SGSAdmin" })).toBeInTheDocument();
  });

  it("asks for a file before checking", async () => {
    const user = userEvent.setup();
    const api = setup({ status: 500 });
    await user.click(screen.getByRole("button", { name: "Check file" }));
    expect(screen.getByText("Choose a CSV or XLSX file to import.")).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});

async function checkFile() {
  const user = userEvent.setup();
  const file = new File(["PK"], "registrar.xlsx", {
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  });
  await user.upload(screen.getByLabelText(/Spreadsheet \(CSV or XLSX\)/), file);
  await user.click(screen.getByRole("button", { name: "Check file" }));
}

const limit =
  "The workbook unpacks to more than 200 MB; at most 200 MB is read. Save it as CSV, or split it into smaller files.";

describe("a file refused whole by the preview", () => {
  it("says beside the file why it was refused, without asking to try again", async () => {
    setup({
      status: 400,
      body: {
        success: false,
        code: "validation",
        message: `file: ${limit}`,
        fields: [{ field: "file", message: limit }],
      },
    });
    await checkFile();
    const input = screen.getByLabelText(/Spreadsheet \(CSV or XLSX\)/);
    expect(await screen.findByText(limit)).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAccessibleDescription(/^Error:\s*The workbook unpacks to more than 200 MB/);
    expect(input).toHaveFocus();
    expect(screen.queryByText(/try again/)).not.toBeInTheDocument();
  });

  it("says a file past the upload limit is too large", async () => {
    setup({
      status: 413,
      body: { success: false, code: "payload_too_large", message: "request file too large" },
    });
    await checkFile();
    expect(
      await screen.findByText(
        "The file is larger than an import reads. Save it as CSV, or split it into smaller files.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/try again/)).not.toBeInTheDocument();
  });

  it("asks to try again when the server could not check the file", async () => {
    setup({
      status: 503,
      body: { success: false, code: "unavailable", message: "Try again shortly." },
    });
    await checkFile();
    expect(
      await screen.findByText(
        "We could not reach the server. The file was not checked; try again.",
      ),
    ).toBeInTheDocument();
  });
});

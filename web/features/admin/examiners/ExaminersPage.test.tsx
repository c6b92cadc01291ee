import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { ExaminerRecord } from "../../../../common/examiners.js";
import { mockApi, renderPage, type MockRoute } from "../test/harness.js";
import { ExaminersPage } from "./ExaminersPage.js";
import { makeExaminer } from "./test/fixtures.js";

// The server is outside the component's control: fetch is stubbed with a small stand-in for the
// examiner routes (common/examiners.ts) that pages a list kept in memory, two rows a page.
const PAGE = 2;

function initialExaminers(): ExaminerRecord[] {
  return [
    makeExaminer({ id: 11, name: "Kofi Boateng" }),
    makeExaminer({
      id: 12,
      name: "Abena Asante",
      email: "abena@ug.edu.gh",
      openExaminations: 0,
    }),
    makeExaminer({
      id: 21,
      name: "Grace Owusu",
      email: "g.owusu@knust.edu.gh",
      institution: "KNUST",
      kind: "external",
      openExaminations: 5,
    }),
  ];
}

function setup({ url = "/admin/examiners", extra = [] as MockRoute[] } = {}) {
  let examiners = initialExaminers();
  const api = mockApi([
    ...extra,
    {
      path: "/api/admin/examiners",
      answer: (call) => {
        const params = call.url.searchParams;
        const q = (params.get("q") ?? "").toLowerCase();
        const kind = params.get("kind");
        const active = params.get("active") ?? "true";
        const page = Number(params.get("page") ?? "1");
        const matching = examiners.filter(
          (e) =>
            (!q || `${e.name} ${e.email} ${e.institution}`.toLowerCase().includes(q)) &&
            (!kind || e.kind === kind) &&
            (active === "all" || String(e.active) === active),
        );
        return {
          body: {
            items: matching.slice((page - 1) * PAGE, page * PAGE),
            total: matching.length,
            page,
            pageSize: PAGE,
          },
        };
      },
    },
    {
      method: "POST",
      path: "/api/admin/examiners",
      answer: (call) => {
        const input = call.body as Pick<ExaminerRecord, "name" | "email" | "institution" | "kind">;
        const created = makeExaminer({ ...input, id: 31, openExaminations: 0 });
        examiners = [...examiners, created];
        return { status: 201, body: { data: created } };
      },
    },
    {
      method: "PATCH",
      path: /^\/api\/admin\/examiners\/\d+$/,
      answer: (call) => {
        const id = Number(call.url.pathname.split("/").pop());
        examiners = examiners.map((e) =>
          e.id === id ? { ...e, ...(call.body as Partial<ExaminerRecord>) } : e,
        );
        return { body: { data: examiners.find((e) => e.id === id) } };
      },
    },
  ]);
  const view = renderPage(<ExaminersPage />, { path: "/admin/examiners", url });
  return { ...view, api };
}

const listCalls = (api: ReturnType<typeof setup>["api"]) =>
  api.callsTo("GET", "/api/admin/examiners").map((c) => Object.fromEntries(c.url.searchParams));

describe("the examiners list", () => {
  it("lists the active examiners a page at a time, with the count and the pages", async () => {
    const user = userEvent.setup();
    const { api, router } = setup();

    const table = await screen.findByRole("table", { name: "Examiners, page 1 of 2" });
    const kofi = within(table).getByRole("rowheader", { name: "Kofi Boateng" }).closest("tr")!;
    expect(within(kofi).getByRole("cell", { name: "University of Ghana" })).toBeInTheDocument();
    expect(within(kofi).getByRole("link", { name: "kofi.boateng@ug.edu.gh" })).toHaveAttribute(
      "href",
      "mailto:kofi.boateng@ug.edu.gh",
    );
    expect(within(kofi).getByRole("cell", { name: "Internal" })).toBeInTheDocument();
    expect(within(kofi).getByRole("cell", { name: "2" })).toBeInTheDocument();
    expect(within(kofi).getByText("Active")).toBeInTheDocument();
    expect(within(table).getByRole("rowheader", { name: "Abena Asante" })).toBeInTheDocument();
    expect(within(table).queryByRole("rowheader", { name: "Grace Owusu" })).not.toBeInTheDocument();
    expect(screen.getByRole("status", { name: "" })).toHaveTextContent(
      "Showing 1–2 of 3 examiners",
    );
    expect(listCalls(api)[0]).toEqual({ active: "true", page: "1", pageSize: "25" });
    expect(screen.getByLabelText("Search by name, email or institution")).toHaveFocus();

    const pages = screen.getByRole("navigation", { name: "Pages" });
    expect(within(pages).getByRole("button", { name: "Previous" })).toBeDisabled();
    await user.click(within(pages).getByRole("button", { name: "Next" }));

    expect(
      await screen.findByRole("table", { name: "Examiners, page 2 of 2" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("rowheader", { name: "Grace Owusu" })).toBeInTheDocument();
    expect(screen.queryByRole("rowheader", { name: "Kofi Boateng" })).not.toBeInTheDocument();
    expect(screen.getByText("Showing 3–3 of 3 examiners")).toBeInTheDocument();
    expect(within(pages).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(router.state.location.search).toBe("?page=2");
    expect(listCalls(api).at(-1)).toMatchObject({ page: "2" });
  });

  it("searches as you type and filters by kind, starting again from the first page", async () => {
    const user = userEvent.setup();
    const { api, router } = setup({ url: "/admin/examiners?page=2" });
    await screen.findByRole("rowheader", { name: "Grace Owusu" });

    await user.type(screen.getByLabelText("Search by name, email or institution"), "knust");
    expect(await screen.findByText("Showing 1–1 of 1 examiner")).toBeInTheDocument();
    expect(screen.getByRole("rowheader", { name: "Grace Owusu" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?q=knust");

    await user.selectOptions(screen.getByLabelText("Kind"), "Internal");
    expect(await screen.findByText(/No examiner matches “knust”/)).toBeInTheDocument();
    expect(listCalls(api).at(-1)).toEqual({
      q: "knust",
      kind: "internal",
      active: "true",
      page: "1",
      pageSize: "25",
    });

    await user.click(screen.getByRole("button", { name: "clear the search and filters" }));
    expect(await screen.findByRole("rowheader", { name: "Kofi Boateng" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });

  it("adds an examiner, checking the fields first and putting the server's messages beside them", async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { api } = setup({
      extra: [
        {
          method: "POST",
          path: "/api/admin/examiners",
          answer: () =>
            refuse
              ? {
                  status: 400,
                  body: {
                    success: false,
                    code: "validation",
                    message: "Check the examiner's details.",
                    fields: [
                      {
                        field: "email",
                        message: "An examiner with this email is on the list already.",
                      },
                      { field: "institution", message: "Institution must name a university." },
                    ],
                  },
                }
              : {
                  status: 201,
                  body: {
                    data: makeExaminer({
                      id: 31,
                      name: "Yaw Darko",
                      email: "yaw.darko@ucc.edu.gh",
                      institution: "University of Cape Coast",
                      kind: "external",
                      openExaminations: 0,
                    }),
                  },
                },
        },
      ],
    });
    await screen.findByRole("rowheader", { name: "Kofi Boateng" });

    await user.click(screen.getByRole("button", { name: "Add an examiner" }));
    const dialog = screen.getByRole("dialog", { name: "Add an examiner" });
    expect(within(dialog).getByLabelText("Name")).toHaveFocus();

    // Nothing goes to the server until the schema is satisfied.
    await user.click(within(dialog).getByRole("button", { name: "Add examiner" }));
    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Institution is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Email must be an email address")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("POST", "/api/admin/examiners")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Name"), "Yaw Darko");
    await user.type(within(dialog).getByLabelText("Email"), "yaw.darko@ucc.edu.gh");
    await user.type(within(dialog).getByLabelText("Institution"), "UCC");
    await user.click(within(dialog).getByRole("radio", { name: /External/ }));
    await user.click(within(dialog).getByRole("button", { name: "Add examiner" }));

    expect(
      await within(dialog).findByText("An examiner with this email is on the list already."),
    ).toBeInTheDocument();
    expect(within(dialog).getByText("Institution must name a university.")).toBeInTheDocument();
    const email = within(dialog).getByLabelText("Email");
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveFocus();
    expect(email.getAttribute("aria-describedby")).toContain(`${email.id}-error`);
    expect(api.callsTo("POST", "/api/admin/examiners").map((c) => c.body)).toEqual([
      { name: "Yaw Darko", email: "yaw.darko@ucc.edu.gh", institution: "UCC", kind: "external" },
    ]);

    refuse = false;
    await user.clear(within(dialog).getByLabelText("Institution"));
    await user.type(within(dialog).getByLabelText("Institution"), "University of Cape Coast");
    await user.click(within(dialog).getByRole("button", { name: "Add examiner" }));

    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: "Add an examiner" })).not.toBeInTheDocument(),
    );
    expect(
      screen.getByText("Yaw Darko has been added as an external examiner."),
    ).toBeInTheDocument();
    await waitFor(() => expect(listCalls(api)).toHaveLength(2));
  });

  it("edits an examiner's details in a dialog filled with them", async () => {
    const user = userEvent.setup();
    const { api } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit Abena Asante" }));
    const dialog = screen.getByRole("dialog", { name: "Edit Abena Asante" });
    const institution = within(dialog).getByLabelText("Institution");
    expect(institution).toHaveValue("University of Ghana");
    expect(within(dialog).getByRole("radio", { name: /Internal/ })).toBeChecked();

    await user.clear(institution);
    await user.type(institution, "University of Ghana, Legon");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Abena Asante’s details have been saved.")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/admin/examiners/12").map((c) => c.body)).toEqual([
      {
        name: "Abena Asante",
        email: "abena@ug.edu.gh",
        institution: "University of Ghana, Legon",
        kind: "internal",
      },
    ]);
    expect(
      await screen.findByRole("cell", { name: "University of Ghana, Legon" }),
    ).toBeInTheDocument();
  });

  it("deactivates only after confirming, and reactivates from the deactivated examiners", async () => {
    const user = userEvent.setup();
    const { api } = setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate Kofi Boateng" }));
    const dialog = screen.getByRole("alertdialog", { name: "Deactivate Kofi Boateng?" });
    expect(dialog).toHaveTextContent("no longer be offered when nominating examiners");
    expect(dialog).toHaveTextContent("(2 open at the moment)");
    expect(api.callsTo("PATCH", "/api/admin/examiners/11")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));

    expect(
      await screen.findByText(
        "Kofi Boateng has been deactivated and is no longer offered for nomination.",
      ),
    ).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/admin/examiners/11").map((c) => c.body)).toEqual([
      { active: false },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole("rowheader", { name: "Kofi Boateng" })).not.toBeInTheDocument(),
    );

    await user.selectOptions(screen.getByLabelText("Status"), "Deactivated");
    const row = (await screen.findByRole("rowheader", { name: "Kofi Boateng" })).closest("tr")!;
    expect(within(row).getByText("Deactivated")).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Reactivate Kofi Boateng" }));
    expect(
      await screen.findByText("Kofi Boateng is offered for nomination again."),
    ).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/admin/examiners/11").at(-1)?.body).toEqual({ active: true });
  });

  it("says what to do when the list is empty, and when it cannot be loaded", async () => {
    mockApi([
      {
        path: "/api/admin/examiners",
        answer: () => ({ body: { items: [], total: 0, page: 1, pageSize: 25 } }),
      },
    ]);
    const first = renderPage(<ExaminersPage />, { path: "/admin/examiners" });
    expect(await screen.findByText(/No examiner is on the list yet/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    first.unmount();

    mockApi([
      {
        path: "/api/admin/examiners",
        answer: () => ({
          status: 500,
          body: { success: false, code: "internal", message: "Internal error" },
        }),
      },
    ]);
    renderPage(<ExaminersPage />, { path: "/admin/examiners" });
    expect(
      await screen.findByText(/The server had a problem loading the examiners/),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

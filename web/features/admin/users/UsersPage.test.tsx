import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { AdminUser } from "../../../../common/accounts.js";
import { admin, mockApi, renderPage } from "../test/harness.js";
import { UsersPage } from "./UsersPage.js";

// The server is outside the component's control: fetch is stubbed with answers shaped like the
// account calls of docs/api.md.
const account = (overrides: Partial<AdminUser>): AdminUser => ({
  id: 5,
  email: "kojo@sgs.test",
  name: "Kojo Mensah",
  role: "admin",
  indexNumber: null,
  active: true,
  createdAt: "2025-01-01T00:00:00.000Z",
  lastSignInAt: null,
  submission: null,
  ...overrides,
});

const admins = [account({ id: admin.id, email: admin.email, name: admin.name }), account({})];
const students = [
  account({
    id: 8,
    role: "student",
    name: null,
    email: "ama@st.school.edu",
    indexNumber: "PG1234567",
    submission: { id: 31, studentName: "Ama Mensah" },
  }),
];

function setup(url = "/admin/users") {
  const api = mockApi([
    {
      path: "/api/admin/users",
      answer: (call) => ({
        body: { items: call.url.searchParams.get("role") === "student" ? students : admins },
      }),
    },
    {
      method: "POST",
      path: "/api/admin/users/5/deactivate",
      answer: () => ({ body: { success: true } }),
    },
    {
      method: "POST",
      path: "/api/admin/users/8/resend_code",
      answer: () => ({
        body: { success: true, message: "A new code has been sent to ama@st.school.edu." },
      }),
    },
  ]);
  renderPage(<UsersPage />, { path: "/admin/users", url });
  return api;
}

describe("users", () => {
  it("deactivates an administrator only after confirming, and never offers it for yourself", async () => {
    const user = userEvent.setup();
    const api = setup();
    const me = (await screen.findByRole("cell", { name: "SGS Admin" })).closest("tr")!;
    expect(within(me).getByText("This is you")).toBeInTheDocument();
    expect(within(me).queryByRole("button", { name: /Deactivate/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Deactivate Kojo Mensah" }));
    const dialog = screen.getByRole("alertdialog", { name: "Deactivate Kojo Mensah?" });
    expect(api.callsTo("POST", "/api/admin/users/5/deactivate")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));

    expect(
      await screen.findByText("Kojo Mensah has been deactivated and signed out everywhere."),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/users/5/deactivate")).toHaveLength(1);
  });

  it("shows each student's linked submission and resends their code", async () => {
    const user = userEvent.setup();
    const api = setup("/admin/users?role=student");
    expect(await screen.findByRole("link", { name: "Ama Mensah" })).toHaveAttribute(
      "href",
      "/admin/all_submissions?q=PG1234567&open=31",
    );
    await user.click(screen.getByRole("button", { name: "Resend code to ama@st.school.edu" }));
    expect(
      await screen.findByText("A new code has been sent to ama@st.school.edu."),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo("POST", "/api/admin/users/8/resend_code")).toHaveLength(1),
    );
  });
});

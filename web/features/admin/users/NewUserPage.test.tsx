import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { mockApi, renderPage, type Answer } from "../test/harness.js";
import { NewUserPage } from "./NewUserPage.js";

// The server is outside the component's control: fetch is stubbed with answers shaped like
// POST /api/admin/users in docs/api.md.
function setup(answer: (body: unknown) => Answer) {
  const api = mockApi([
    { method: "POST", path: "/api/admin/users", answer: (call) => answer(call.body) },
  ]);
  renderPage(<NewUserPage />, { path: "/admin/new_user_entry" });
  return { posts: () => api.callsTo("POST", "/api/admin/users") };
}

async function fill(user: ReturnType<typeof userEvent.setup>, passcode = "correct-horse-7") {
  await user.type(screen.getByLabelText("Name"), "Efua Owusu");
  await user.type(screen.getByLabelText("Email"), "Efua.Owusu@SGS.test");
  await user.type(screen.getByLabelText(/^Passcode/), passcode);
}

describe("Add a new Super User", () => {
  it("is titled as in the prototype and has Name, Email, Passcode and Submit", () => {
    setup(() => ({ status: 500 }));
    expect(
      screen.getByRole("heading", { level: 1, name: "Add a new Super User" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText(/^Passcode/)).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Submit" })).toBeInTheDocument();
  });

  it("names each missing field and sends nothing", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({ status: 500 }));
    await user.click(screen.getByRole("button", { name: "Submit" }));

    const summary = await screen.findByRole("alert", { name: "There is a problem" });
    expect(
      within(summary).getByRole("link", { name: "Enter the administrator's name." }),
    ).toBeInTheDocument();
    expect(
      within(summary).getByRole("link", { name: "Enter your email address." }),
    ).toBeInTheDocument();
    expect(
      within(summary).getByRole("link", { name: /Passcode must be at least 12 characters/ }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(posts()).toHaveLength(0);
  });

  it("refuses a short passcode next to the field", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({ status: 500 }));
    await fill(user, "short");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    const passcode = screen.getByLabelText(/^Passcode/);
    expect(await screen.findAllByText("Passcode must be at least 12 characters.")).not.toHaveLength(
      0,
    );
    expect(passcode).toHaveAttribute("aria-invalid", "true");
    expect(posts()).toHaveLength(0);
  });

  it("sends name, email and passcode, then confirms", async () => {
    const user = userEvent.setup();
    const { posts } = setup(() => ({
      status: 201,
      body: {
        success: true,
        message: "Administrator created.",
        user: {
          id: 9,
          email: "efua.owusu@sgs.test",
          name: "Efua Owusu",
          role: "admin",
          indexNumber: null,
          active: true,
          createdAt: "2025-05-01T09:00:00.000Z",
          lastSignInAt: null,
          submission: null,
        },
      },
    }));
    await fill(user);
    await user.click(screen.getByRole("button", { name: "Submit" }));

    expect(await screen.findByRole("heading", { name: "Super User added" })).toHaveFocus();
    expect(screen.getByText("efua.owusu@sgs.test")).toBeInTheDocument();
    expect(posts()[0]!.body).toEqual({
      name: "Efua Owusu",
      email: "efua.owusu@sgs.test",
      passcode: "correct-horse-7",
    });
  });

  it("puts the server's answer for an email already in use on the Email field", async () => {
    const user = userEvent.setup();
    setup(() => ({
      status: 409,
      body: {
        success: false,
        code: "conflict",
        message: "An account with this email already exists.",
        fields: [{ field: "email", message: "An account with this email already exists." }],
      },
    }));
    await fill(user);
    await user.click(screen.getByRole("button", { name: "Submit" }));
    const email = screen.getByLabelText("Email");
    expect(
      await screen.findAllByText("An account with this email already exists."),
    ).not.toHaveLength(0);
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("heading", { name: "Super User added" })).not.toBeInTheDocument();
  });
});

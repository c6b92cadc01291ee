import { afterEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, mockServer, renderRoutes, student } from "../../test/render.js";
import { ContactPage } from "./ContactPage.js";

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

function renderContact(me = null as typeof student | null) {
  return renderRoutes([{ path: "/help/contact", element: <ContactPage /> }], {
    path: "/help/contact",
    me,
  });
}

describe("ContactPage", () => {
  it("offers 'Send us a message' with a required email field and a six-row message box", () => {
    mockServer(() => json(500, {}));
    renderContact();
    expect(screen.getByRole("heading", { name: "Send us a message" })).toBeInTheDocument();
    const email = screen.getByLabelText(/^Email/);
    expect(email).toHaveAttribute("type", "email");
    expect(email).toBeRequired();
    const message = screen.getByLabelText(/^Message/);
    expect(message.tagName).toBe("TEXTAREA");
    expect(message).toHaveAttribute("rows", "6");
    expect(message).toBeRequired();
    expect(screen.getByRole("button", { name: "Submit" })).toBeInTheDocument();
  });

  it("lists both missing fields in an error summary and next to the fields, and sends nothing", async () => {
    const server = mockServer(() => json(201, { success: true, message: "ok" }));
    renderContact();
    await userEvent.setup().click(screen.getByRole("button", { name: "Submit" }));

    const summary = await screen.findByRole("alert");
    expect(summary).toHaveTextContent("There is a problem");
    expect(summary).toHaveFocus();
    expect(screen.getByRole("link", { name: "Enter your email address." })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Enter your message." })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText(/^Message/)).toHaveAccessibleDescription(
      expect.stringContaining("Enter your message."),
    );
    expect(server.calls).toHaveLength(0);
  });

  it("refuses an email address that is not one", async () => {
    const server = mockServer(() => json(201, { success: true, message: "ok" }));
    renderContact();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email/), "ama at school");
    await user.type(screen.getByLabelText(/^Message/), "When will my thesis go to the examiners?");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(
      await screen.findByRole("link", { name: /Enter a valid email address/ }),
    ).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it("sends the message and shows the confirmation", async () => {
    const server = mockServer(() =>
      json(201, {
        success: true,
        message: "Thank you. Your message has been sent to the School of Graduate Studies.",
      }),
    );
    renderContact(student);
    const user = userEvent.setup();
    // A signed-in student finds their email already filled in.
    expect(screen.getByLabelText(/^Email/)).toHaveValue(student.email);
    await user.type(screen.getByLabelText(/^Message/), "When will my thesis go to the examiners?");
    await user.click(screen.getByRole("button", { name: "Submit" }));

    expect(await screen.findByRole("heading", { name: "Message sent" })).toBeInTheDocument();
    expect(
      screen.getByText("Thank you. Your message has been sent to the School of Graduate Studies."),
    ).toBeInTheDocument();
    expect(server.calls).toEqual([
      {
        url: "/contact",
        method: "POST",
        body: { email: student.email, message: "When will my thesis go to the examiners?" },
      },
    ]);
  });

  it("shows the server's message when it refuses, and a general one when the network fails", async () => {
    mockServer(() =>
      json(429, {
        success: false,
        code: "rate_limited",
        message: "Too many messages. Try again later.",
      }),
    );
    const first = renderContact();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email/), "ama@school.edu");
    await user.type(screen.getByLabelText(/^Message/), "Hello");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Too many messages. Try again later.",
    );
    first.unmount();

    mockServer(() => Promise.reject(new TypeError("Failed to fetch")));
    renderContact();
    await user.type(screen.getByLabelText(/^Email/), "ama@school.edu");
    await user.type(screen.getByLabelText(/^Message/), "Hello");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your message could not be sent. Please try again.",
    );
  });
});

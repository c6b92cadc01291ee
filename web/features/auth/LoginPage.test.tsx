import { afterEach, describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { vi } from "vitest";
import { json, mockServer, recordPageLoads, renderRoutes } from "../../test/render.js";
import { LoginPage } from "./LoginPage.js";

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

function renderLogin(path = "/auth/login") {
  return renderRoutes([{ path: "/auth/login", element: <LoginPage /> }], { path, me: null });
}

async function fillAndSubmit(email = "ama.mensah@st.school.edu", password = "123456") {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText("Student email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Login" }));
  return user;
}

const signedIn = (role: "student" | "admin", indexNumber: string | null) =>
  json(200, { success: true, message: "Signed in.", token: "t", user: { role, indexNumber } });

describe("LoginPage", () => {
  it("shows the heading, the prompt and the remember-me box", () => {
    mockServer(() => json(500, {}));
    renderLogin();
    expect(screen.getByRole("heading", { name: "Log in" })).toBeInTheDocument();
    expect(screen.getByText(/Enter your student email and password/)).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Remember me" })).not.toBeChecked();
  });

  it("says Logging in... and disables the button while the server answers, then loads the student dashboard", async () => {
    let answer: (response: Response) => void = () => {};
    const server = mockServer(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { assign } = recordPageLoads();
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Student email"), "Ama.Mensah@st.school.edu");
    await user.type(screen.getByLabelText("Password"), "123456");
    await user.click(screen.getByRole("checkbox", { name: "Remember me" }));
    await user.click(screen.getByRole("button", { name: "Login" }));

    const busy = await screen.findByRole("button", { name: "Logging in..." });
    expect(busy).toBeDisabled();
    expect(server.calls[0]).toEqual({
      url: "/user_sign_in",
      method: "POST",
      body: { email: "ama.mensah@st.school.edu", password: "123456", rememberMe: true },
    });

    answer(signedIn("student", "PG1234567"));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/dashboard"));
    expect(localStorage.getItem("role")).toBe("student");
    expect(localStorage.getItem("indexNumber")).toBe("PG1234567");
  });

  it("sends an administrator to /admin", async () => {
    mockServer(() => signedIn("admin", null));
    const { assign } = recordPageLoads();
    renderLogin();
    await fillAndSubmit("registrar@school.edu", "a long passcode");
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/admin"));
  });

  it("follows a same-site next parameter and ignores one that leaves the site", async () => {
    mockServer(() => signedIn("student", "PG1234567"));
    const pages = recordPageLoads();
    const first = renderLogin("/auth/login?next=%2Fdashboard%2Fmessages");
    await fillAndSubmit();
    await waitFor(() => expect(pages.assign).toHaveBeenCalledWith("/dashboard/messages"));
    first.unmount();

    pages.assign.mockClear();
    renderLogin("/auth/login?next=%2F%2Fevil.example%2F");
    await fillAndSubmit();
    await waitFor(() => expect(pages.assign).toHaveBeenCalledWith("/dashboard"));
  });

  it("shows the server's message when the sign-in is refused", async () => {
    mockServer(() =>
      json(401, { success: false, code: "unauthorized", message: "Invalid email or password." }),
    );
    const { assign } = recordPageLoads();
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email or password.");
    expect(screen.getByRole("button", { name: "Login" })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the message of a success:false answer, as the prototype's server sent it", async () => {
    mockServer(() =>
      json(200, { success: false, message: "Your code has expired. Ask for a new one." }),
    );
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your code has expired. Ask for a new one.",
    );
  });

  it("shows the server's message when there were too many attempts", async () => {
    mockServer(() =>
      json(429, {
        success: false,
        code: "rate_limited",
        message: "Too many attempts. Try again in a minute.",
      }),
    );
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Too many attempts. Try again in a minute.",
    );
  });

  it("says 'An error occurred. Please try again.' when the network fails", async () => {
    mockServer(() => Promise.reject(new TypeError("Failed to fetch")));
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "An error occurred. Please try again.",
    );
  });

  it("says 'An error occurred. Please try again.' on a server error, hiding its details", async () => {
    mockServer(() =>
      json(500, { success: false, code: "internal", message: "Internal Server Error" }),
    );
    renderLogin();
    await fillAndSubmit();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("An error occurred. Please try again.");
    expect(alert).not.toHaveTextContent("Internal Server Error");
  });

  it("asks for a new code for the typed email and shows the server's answer", async () => {
    const server = mockServer(() =>
      json(200, {
        success: true,
        message: "If an account exists for this email, a new code has been sent to it.",
      }),
    );
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Student email"), "ama.mensah@st.school.edu");
    await user.click(screen.getByRole("button", { name: "Forgot your code? Get a new one" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "If an account exists for this email, a new code has been sent to it.",
    );
    expect(server.calls).toEqual([
      { url: "/request_code", method: "POST", body: { email: "ama.mensah@st.school.edu" } },
    ]);
  });

  it("asks for the email first instead of requesting a code for nobody", async () => {
    const server = mockServer(() => json(200, { success: true, message: "sent" }));
    renderLogin();
    await userEvent
      .setup()
      .click(screen.getByRole("button", { name: "Forgot your code? Get a new one" }));
    expect(await screen.findByText("Enter your email address.")).toBeInTheDocument();
    expect(screen.getByLabelText("Student email")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls).toHaveLength(0);
  });
});

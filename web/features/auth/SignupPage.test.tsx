import { afterEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, mockServer, renderRoutes, type FetchCall } from "../../test/render.js";
import { LoginPage } from "./LoginPage.js";
import { SignupPage } from "./SignupPage.js";

/** The calls the form made, without the pages' own read of the single sign-on options. */
const formCalls = (calls: FetchCall[]) => calls.filter((call) => call.url !== "/auth/sso");

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

function renderSignup() {
  return renderRoutes(
    [
      { path: "/auth/signup", element: <SignupPage /> },
      { path: "/auth/login", element: <LoginPage /> },
    ],
    { path: "/auth/signup", me: null },
  );
}

async function fill(email: string, indexNumber: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText("Institutional email"), email);
  if (indexNumber) await user.type(screen.getByLabelText(/^Index Number/), indexNumber);
  await user.click(screen.getByRole("button", { name: "Send Code" }));
  return user;
}

describe("SignupPage", () => {
  it("says 'Please fill in all fields' and sends nothing when a field is empty", async () => {
    const server = mockServer(() => json(200, { success: true, message: "sent" }));
    renderSignup();
    await fill("ama.mensah@st.school.edu", "");
    expect(await screen.findByRole("alert")).toHaveTextContent("Please fill in all fields");
    expect(screen.getByLabelText(/^Index Number/)).toHaveAttribute("aria-invalid", "true");
    expect(formCalls(server.calls)).toHaveLength(0);
  });

  it("sends email and index number, then shows the confirmation on the login page", async () => {
    let answer: (response: Response) => void = () => {};
    const server = mockServer(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { router } = renderSignup();
    await fill("ama.mensah@st.school.edu", "PG1234567");

    expect(await screen.findByRole("button", { name: "Sending" })).toBeDisabled();
    answer(
      json(200, { success: true, message: "A verification code has been sent to your email!" }),
    );

    expect(await screen.findByRole("heading", { name: "Log in" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "A verification code has been sent to your email!",
    );
    expect(screen.getByLabelText("Student email")).toHaveValue("ama.mensah@st.school.edu");
    expect(formCalls(server.calls)).toEqual([
      {
        url: "/create_user",
        method: "POST",
        body: { email: "ama.mensah@st.school.edu", indexNumber: "PG1234567" },
      },
    ]);
  });

  it("says the user already exists when the server answers 409", async () => {
    mockServer(() =>
      json(409, {
        success: false,
        code: "conflict",
        message: "User already exists. Please try again Or Try logging in",
      }),
    );
    renderSignup();
    await fill("ama.mensah@st.school.edu", "PG1234567");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("User already exists. Please try again Or Try logging in");
    expect(screen.getByRole("link", { name: "Try logging in" })).toHaveAttribute(
      "href",
      "/auth/login",
    );
  });

  it("puts the server's field messages next to their fields on a 400", async () => {
    mockServer(() =>
      json(400, {
        success: false,
        code: "validation",
        message: "Please check the form.",
        fields: [{ field: "indexNumber", message: "No student has this index number." }],
      }),
    );
    renderSignup();
    await fill("ama.mensah@st.school.edu", "PG0000000");
    const field = screen.getByLabelText(/^Index Number/);
    await vi.waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining("No student has this index number."),
    );
  });

  it("says 'Failed to send OTP.' when the request fails", async () => {
    mockServer(() => Promise.reject(new TypeError("Failed to fetch")));
    renderSignup();
    await fill("ama.mensah@st.school.edu", "PG1234567");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to send OTP.");
    expect(screen.getByRole("button", { name: "Send Code" })).toBeEnabled();
  });
});

describe("SignupPage when local sign-in is not on", () => {
  it("sends students to the university sign-in instead of showing the form", async () => {
    mockServer((call) =>
      call.url === "/auth/sso"
        ? json(200, { data: { providers: [], localSignIn: "admins-only" } })
        : json(500, {}),
    );
    renderRoutes([{ path: "/auth/signup", element: <SignupPage /> }], {
      path: "/auth/signup",
      me: null,
    });
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Students sign in with their university account",
    );
    expect(screen.queryByLabelText("Institutional email")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the login page" })).toHaveAttribute(
      "href",
      "/auth/login",
    );
  });
});

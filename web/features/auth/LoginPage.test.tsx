import { afterEach, describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { vi } from "vitest";
import { SSO_FAILURES, SSO_FAILURE_MESSAGES, type SsoOptions } from "../../../common/sso.js";
import {
  json,
  mockServer,
  recordPageLoads,
  renderRoutes,
  type FetchCall,
} from "../../test/render.js";
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

/** The calls the form made, without the page's own read of the single sign-on options. */
const formCalls = (calls: FetchCall[]) => calls.filter((call) => call.url !== "/auth/sso");

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
    expect(formCalls(server.calls)[0]).toEqual({
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
    expect(formCalls(server.calls)).toEqual([
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
    expect(formCalls(server.calls)).toHaveLength(0);
  });
});

function ssoServer(options: SsoOptions) {
  return mockServer((call) =>
    call.url === "/auth/sso" ? json(200, { data: options }) : json(500, {}),
  );
}

const oidcButton: SsoOptions["providers"] = [
  { provider: "oidc", label: "UG Account", startHref: "/api/auth/oidc/start" },
];

describe("LoginPage with single sign-on", () => {
  it("shows a Sign in with <label> link per provider above the form, keeping the page to return to", async () => {
    ssoServer({
      providers: [
        ...oidcButton,
        { provider: "saml", label: "Shibboleth", startHref: "/api/auth/saml/start" },
      ],
      localSignIn: "on",
    });
    renderLogin("/auth/login?next=%2Fdashboard%2Fmessages");
    const oidc = await screen.findByRole("link", { name: "Sign in with UG Account" });
    expect(oidc).toHaveAttribute("href", "/api/auth/oidc/start?returnTo=%2Fdashboard%2Fmessages");
    expect(screen.getByRole("link", { name: "Sign in with Shibboleth" })).toHaveAttribute(
      "href",
      "/api/auth/saml/start?returnTo=%2Fdashboard%2Fmessages",
    );
    // The local form stays, below the buttons.
    expect(screen.getByLabelText("Student email")).toBeInTheDocument();
    expect(
      oidc.compareDocumentPosition(screen.getByLabelText("Student email")) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it("shows no provider link when none is configured", async () => {
    const server = ssoServer({ providers: [], localSignIn: "on" });
    renderLogin();
    await waitFor(() => expect(server.calls.map((c) => c.url)).toContain("/auth/sso"));
    expect(screen.queryByRole("link", { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it.each(SSO_FAILURES.map((failure) => [failure]))(
    "explains a refused single sign-on (%s) in an alert",
    (failure) => {
      ssoServer({ providers: oidcButton, localSignIn: "on" });
      renderLogin(`/auth/login?sso_error=${failure}`);
      expect(screen.getByRole("alert")).toHaveTextContent(SSO_FAILURE_MESSAGES[failure]);
    },
  );

  it("explains an unknown sso_error as an answer it could not accept", () => {
    ssoServer({ providers: oidcButton, localSignIn: "on" });
    renderLogin("/auth/login?sso_error=%3Cscript%3E");
    expect(screen.getByRole("alert")).toHaveTextContent(SSO_FAILURE_MESSAGES.invalid_response);
  });

  it("keeps only the administrators' password form when local sign-in is admins-only", async () => {
    ssoServer({ providers: oidcButton, localSignIn: "admins-only" });
    renderLogin();
    expect(await screen.findByLabelText("Administrator email")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    expect(
      screen.getByText(/Students and staff sign in with their university account/),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: "Forgot your code? Get a new one" }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create account" })).not.toBeInTheDocument();
  });

  it("shows only the provider buttons when local sign-in is off", async () => {
    ssoServer({ providers: oidcButton, localSignIn: "off" });
    renderLogin();
    expect(
      await screen.findByRole("link", { name: "Sign in with UG Account" }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText(/email/i)).not.toBeInTheDocument());
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Login" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create account" })).not.toBeInTheDocument();
  });
});

import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { ApiToken } from "../../../../common/api-tokens.js";
import { mockApi, renderPage } from "../test/harness.js";
import { TokensPage } from "./TokensPage.js";

// fetch is stubbed with answers shaped like docs/api.md's token calls.
const token = (overrides: Partial<ApiToken>): ApiToken => ({
  id: 4,
  name: "Finance office ERP",
  prefix: "ets_AbCdEf",
  scopes: ["clearance:write"],
  createdAt: "2026-11-01T09:00:00.000Z",
  createdBy: "boss@school.edu",
  expiresAt: "2027-11-01T09:00:00.000Z",
  revokedAt: null,
  lastUsedAt: "2026-11-20T10:30:00.000Z",
  lastUsedFrom: "10.1.2.3",
  state: "active",
  ...overrides,
});

const SECRET = `ets_${"x".repeat(43)}`;

function setup() {
  let items = [token({})];
  const api = mockApi([
    {
      path: "/api/admin/api-tokens",
      answer: () => ({ body: { items, total: items.length, page: 1, pageSize: 25 } }),
    },
    {
      method: "POST",
      path: "/api/admin/api-tokens",
      answer: (call) => {
        const body = call.body as { name: string; scopes: ApiToken["scopes"] };
        const made = token({ id: 9, name: body.name, scopes: body.scopes, lastUsedAt: null });
        items = [made, ...items];
        return { status: 201, body: { data: made, token: SECRET } };
      },
    },
    {
      method: "POST",
      path: "/api/admin/api-tokens/4/revoke",
      answer: () => {
        items = items.map((t) => (t.id === 4 ? { ...t, state: "revoked" as const } : t));
        return { body: { data: items.find((t) => t.id === 4) } };
      },
    },
  ]);
  renderPage(<TokensPage />, { path: "/admin/tokens", url: "/admin/tokens" });
  return api;
}

describe("API tokens", () => {
  it("lists tokens with their last use and never a token's value", async () => {
    setup();
    const row = await screen.findByRole("row", { name: /Finance office ERP/ });
    expect(within(row).getByText(/from 10\.1\.2\.3/)).toBeInTheDocument();
    expect(within(row).getByText("Active")).toBeInTheDocument();
  });

  it("names the fields left empty and sends nothing", async () => {
    const api = setup();
    await screen.findByRole("row", { name: /Finance office ERP/ });
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(screen.getByText("is required")).toBeInTheDocument();
    expect(screen.getByText("choose at least one scope")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveFocus();
    expect(api.callsTo("POST", "/api/admin/api-tokens")).toHaveLength(0);
  });

  it("creates a token with the ticked scopes and shows it once", async () => {
    const api = setup();
    await screen.findByRole("row", { name: /Finance office ERP/ });
    await userEvent.type(screen.getByLabelText("Name"), "Registrar SIS");
    await userEvent.click(screen.getByRole("checkbox", { name: /submissions:write/ }));
    await userEvent.selectOptions(screen.getByLabelText("Expires after"), "30");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    const heading = await screen.findByRole("heading", { name: "Token “Registrar SIS” created" });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByLabelText("The new token")).toHaveValue(SECRET);
    expect(screen.getByText(/you will not see it again/)).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/api-tokens")[0]?.body).toEqual({
      name: "Registrar SIS",
      scopes: ["submissions:write"],
      expiresInDays: 30,
    });
    await userEvent.click(screen.getByRole("button", { name: "I have copied it" }));
    expect(screen.queryByLabelText("The new token")).not.toBeInTheDocument();
  });

  it("revokes a token only after the question is answered", async () => {
    const api = setup();
    await userEvent.click(await screen.findByRole("button", { name: "Revoke Finance office ERP" }));
    const dialog = screen.getByRole("alertdialog", { name: "Revoke Finance office ERP?" });
    expect(api.callsTo("POST", "/api/admin/api-tokens/4/revoke")).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Revoke token" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("has been revoked");
    expect(api.callsTo("POST", "/api/admin/api-tokens/4/revoke")).toHaveLength(1);
  });
});

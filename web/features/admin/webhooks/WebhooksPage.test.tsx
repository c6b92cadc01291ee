import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { WebhookDelivery, WebhookEndpoint } from "../../../../common/webhooks.js";
import { mockApi, renderPage } from "../test/harness.js";
import { WebhooksPage } from "./WebhooksPage.js";

// The server is stubbed with answers shaped like docs/api.md's "Webhooks" calls.
const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 3,
  url: "https://registrar.example.org/hooks",
  events: ["submission.stage_changed"],
  active: true,
  createdAt: "2026-03-01T10:00:00.000Z",
  pending: 0,
  failed: 1,
  ...overrides,
});

const delivery: WebhookDelivery = {
  id: 41,
  eventId: "evt_0123456789abcdef0123456789abcdef",
  type: "submission.stage_changed",
  submissionId: 12,
  status: "failed",
  attempts: 2,
  nextAttemptAt: null,
  lastStatus: 503,
  lastError: "Answered 503.",
  createdAt: "2026-03-01T10:05:00.000Z",
  redeliveryOf: null,
  attemptLog: [
    { at: "2026-03-01T10:06:00.000Z", statusCode: 503, error: "Answered 503.", durationMs: 12 },
    {
      at: "2026-03-01T10:05:00.000Z",
      statusCode: null,
      error: "No answer: ECONNREFUSED",
      durationMs: 3,
    },
  ],
};

function setup(url = "/admin/webhooks", items: WebhookEndpoint[] = [endpoint()]) {
  const api = mockApi([
    { path: "/api/admin/webhooks", answer: () => ({ body: { items, nextBefore: null } }) },
    {
      method: "POST",
      path: "/api/admin/webhooks",
      answer: (call) => {
        const body = call.body as { url: string; events: string[] };
        if (body.url.includes("127.0.0.1")) {
          return {
            status: 400,
            body: {
              success: false,
              code: "validation",
              message: "url: The address reaches 127.0.0.1 …, which is refused.",
              fields: [
                { field: "url", message: "The address reaches 127.0.0.1, which is refused." },
              ],
            },
          };
        }
        return {
          status: 201,
          body: {
            success: true,
            message: "created",
            endpoint: endpoint({ id: 9, url: body.url }),
            secret: "whsec_shown-once",
          },
        };
      },
    },
    {
      path: "/api/admin/webhooks/3/deliveries",
      answer: () => ({ body: { items: [delivery], nextBefore: null } }),
    },
    {
      method: "POST",
      path: "/api/admin/webhooks/3/deliveries/41/redeliver",
      answer: () => ({ status: 202, body: { success: true, message: "Queued", deliveryId: 42 } }),
    },
  ]);
  renderPage(<WebhooksPage />, { path: "/admin/webhooks", url });
  return api;
}

describe("the webhooks page", () => {
  it("says what is missing, by field, before sending anything", async () => {
    const api = setup();
    await userEvent.click(await screen.findByRole("button", { name: "Add webhook" }));
    const summary = await screen.findByRole("alert");
    expect(summary).toHaveTextContent("Enter the endpoint's address");
    expect(summary).toHaveTextContent("Choose at least one event.");
    expect(screen.getByLabelText("Endpoint address")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("POST", "/api/admin/webhooks")).toHaveLength(0);
  });

  it("shows the server's refusal on the address field", async () => {
    setup();
    await userEvent.type(await screen.findByLabelText("Endpoint address"), "http://127.0.0.1/x");
    await userEvent.click(screen.getByRole("checkbox", { name: "Stage changed" }));
    await userEvent.click(screen.getByRole("button", { name: "Add webhook" }));
    expect(
      await screen.findByText("The address reaches 127.0.0.1, which is refused.", {
        selector: "p",
      }),
    ).toBeVisible();
    expect(screen.queryByLabelText("Signing secret")).toBeNull();
  });

  it("sends the chosen events and shows the secret once", async () => {
    const api = setup();
    await userEvent.type(
      await screen.findByLabelText("Endpoint address"),
      "https://library.example.org/in",
    );
    await userEvent.click(screen.getByRole("checkbox", { name: "Outcome released" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Submission created" }));
    await userEvent.click(screen.getByRole("button", { name: "Add webhook" }));
    // The secret's region is announced: its heading takes the focus (SecretShownOnce).
    const heading = await screen.findByRole("heading", { name: "Webhook added" });
    await waitFor(() => expect(heading).toHaveFocus());
    const region = screen.getByRole("region", { name: "Webhook added" });
    expect(within(region).getByLabelText("Signing secret")).toHaveValue("whsec_shown-once");
    expect(within(region).getByText(/it is not shown again/)).toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Copy secret" })).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/webhooks")[0]!.body).toEqual({
      url: "https://library.example.org/in",
      events: ["submission.created", "outcome.released"],
    });
    await userEvent.click(within(region).getByRole("button", { name: "I have copied it" }));
    expect(screen.queryByLabelText("Signing secret")).toBeNull();
  });

  it("opens an endpoint's delivery log with each attempt, and sends a delivery again", async () => {
    const api = setup();
    await userEvent.click(
      await screen.findByRole("button", {
        name: "Delivery log of https://registrar.example.org/hooks",
      }),
    );
    const log = await screen.findByRole("region", {
      name: "Delivery log of https://registrar.example.org/hooks",
    });
    const row = (await within(log).findByText(/evt_0123/)).closest("tr")!;
    expect(row).toHaveTextContent("Given up");
    expect(row).toHaveTextContent("HTTP 503");
    expect(row).toHaveTextContent("no answer — No answer: ECONNREFUSED");
    await userEvent.click(within(row as HTMLElement).getByRole("button", { name: /^Send again/ }));
    expect(await within(log).findByRole("alert")).toHaveTextContent("will be sent again");
    expect(api.callsTo("POST", "/api/admin/webhooks/3/deliveries/41/redeliver")).toHaveLength(1);
  });
});

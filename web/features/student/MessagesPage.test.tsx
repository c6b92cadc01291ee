import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { json, mockServer, renderRoutes, student } from "../../test/render.js";
import { MessagesPage } from "./MessagesPage.js";

// fetch is replaced in every test: the server is outside the component's control here.
afterEach(() => vi.unstubAllGlobals());

const items = [
  {
    id: 1,
    title: "Welcome",
    body: "Your account is ready.",
    createdAt: "2025-02-01T09:00:00.000Z",
    read: true,
    broadcast: true,
  },
  {
    id: 2,
    title: "Sent to examiners",
    body: "Your thesis went to the examiners.",
    createdAt: "2025-03-12T09:00:00.000Z",
    read: false,
    broadcast: false,
  },
];

function renderMessages() {
  return renderRoutes([{ path: "/dashboard/messages", element: <MessagesPage /> }], {
    path: "/dashboard/messages",
    me: student,
  });
}

describe("MessagesPage", () => {
  it("lists notices newest first and marks the unread one in words", async () => {
    mockServer(() => json(200, { items, unreadCount: 1 }));
    renderMessages();
    expect(screen.getByRole("heading", { name: "MESSAGES" })).toBeInTheDocument();
    const articles = await screen.findAllByRole("article");
    expect(articles.map((a) => within(a).getByRole("heading").textContent)).toEqual([
      "UnreadSent to examiners",
      "Welcome",
    ]);
    expect(screen.getByText("1 unread message.")).toBeInTheDocument();
  });

  it("marks a message as read and updates the count", async () => {
    let unread = true;
    const server = mockServer((call) => {
      if (call.method === "POST") {
        unread = false;
        return json(200, { success: true });
      }
      return json(200, {
        items: items.map((m) => (m.id === 2 ? { ...m, read: !unread } : m)),
        unreadCount: unread ? 1 : 0,
      });
    });
    renderMessages();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Mark as read" }));
    expect(await screen.findByText("All messages read.")).toBeInTheDocument();
    expect(screen.queryByText("Unread")).not.toBeInTheDocument();
    // The operation takes no body (the generated client sends none).
    expect(server.calls).toContainEqual({
      url: "/messages/2/read",
      method: "POST",
      body: undefined,
    });
  });

  it("says there are no messages yet when the list is empty", async () => {
    mockServer(() => json(200, { items: [], unreadCount: 0 }));
    renderMessages();
    expect(await screen.findByText("No messages yet.")).toBeInTheDocument();
  });

  it("offers a retry when the messages cannot be loaded", async () => {
    mockServer(() => Promise.reject(new TypeError("Failed to fetch")));
    renderMessages();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We could not load your messages.");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { mockApi, renderPage } from "../test/harness.js";
import { NoticesPage } from "./NoticesPage.js";

// The server is outside the component's control: fetch is stubbed with answers shaped like
// POST /api/admin/messages in docs/api.md.
function setup() {
  const api = mockApi([
    {
      method: "POST",
      path: "/api/admin/messages",
      answer: (call) =>
        (call.body as { indexNumber?: string }).indexNumber === "ZZ99999"
          ? {
              status: 404,
              body: {
                success: false,
                code: "not_found",
                message: "No submission has the index number ZZ99999.",
              },
            }
          : { status: 201, body: { success: true } },
    },
  ]);
  renderPage(<NoticesPage />, { path: "/admin/notices" });
  return { posts: () => api.callsTo("POST", "/api/admin/messages") };
}

describe("notices", () => {
  it("puts an unknown index number's answer on the Index number field", async () => {
    const user = userEvent.setup();
    const { posts } = setup();
    await user.type(screen.getByRole("textbox", { name: "Index number" }), "ZZ99999");
    await user.type(screen.getByLabelText("Message"), "Please bring your clearance.");
    await user.click(screen.getByRole("button", { name: "Send notice" }));

    expect(
      await screen.findAllByText("No submission has the index number ZZ99999."),
    ).not.toHaveLength(0);
    expect(screen.getByRole("textbox", { name: "Index number" })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(posts()[0]!.body).toEqual({
      indexNumber: "ZZ99999",
      body: "Please bring your clearance.",
      title: null,
    });
  });

  it("asks before a broadcast and sends it only when confirmed", async () => {
    const user = userEvent.setup();
    const { posts } = setup();
    await user.click(screen.getByRole("radio", { name: "Every student (broadcast)" }));
    expect(screen.queryByRole("textbox", { name: "Index number" })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Message"), "The portal closes on Friday.");
    await user.click(screen.getByRole("button", { name: "Send to every student" }));

    const dialog = screen.getByRole("alertdialog", { name: "Send this notice to every student?" });
    expect(posts()).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Yes, send to everyone" }));
    expect(await screen.findByText(/sent to every student/)).toBeInTheDocument();
    expect(posts()[0]!.body).toMatchObject({
      broadcast: true,
      body: "The portal closes on Friday.",
    });
  });

  it("requires a message", async () => {
    const user = userEvent.setup();
    const { posts } = setup();
    await user.type(screen.getByRole("textbox", { name: "Index number" }), "PG1234567");
    await user.click(screen.getByRole("button", { name: "Send notice" }));
    expect(await screen.findAllByText("Message is required")).not.toHaveLength(0);
    expect(posts()).toHaveLength(0);
  });
});

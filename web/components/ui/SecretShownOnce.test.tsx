import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { SecretShownOnce } from "./SecretShownOnce.js";

/** jsdom has no clipboard: the browser's, outside the component's control, is stood in for. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, "clipboard");
});

function show(onDone?: () => void) {
  render(
    <SecretShownOnce
      title="Token “Registrar SIS” created"
      label="The new token"
      value="ets_secret-value"
      copyLabel="Copy token"
      onDone={onDone}
    >
      <p>Copy it now: you will not see it again.</p>
    </SecretShownOnce>,
  );
}

describe("SecretShownOnce", () => {
  it("is a region named by its heading, which takes the focus; the value is labelled", async () => {
    show();
    const region = screen.getByRole("region", { name: "Token “Registrar SIS” created" });
    const heading = screen.getByRole("heading", { name: "Token “Registrar SIS” created" });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(region).toContainElement(screen.getByLabelText("The new token"));
    expect(screen.getByLabelText("The new token")).toHaveValue("ets_secret-value");
    expect(screen.getByLabelText("The new token")).toHaveAttribute("readonly");
    expect(screen.getByText("Copy it now: you will not see it again.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "I have copied it" })).toBeNull();
  });

  it("copies the value and says so in a status message", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    stubClipboard(writeText);
    show();
    expect(screen.getByRole("status")).toHaveTextContent("");
    await userEvent.click(screen.getByRole("button", { name: "Copy token" }));
    expect(writeText).toHaveBeenCalledWith("ets_secret-value");
    expect(screen.getByRole("status")).toHaveTextContent("Copied to the clipboard.");
  });

  it("says how to copy by hand when the browser refuses", async () => {
    stubClipboard(async () => {
      throw new DOMException("Not allowed", "NotAllowedError");
    });
    show();
    await userEvent.click(screen.getByRole("button", { name: "Copy token" }));
    expect(screen.getByRole("status")).toHaveTextContent(
      "Your browser did not let us copy. Select it in the box and copy it yourself.",
    );
  });

  it("is put away by its done button when one is asked for", async () => {
    const onDone = vi.fn();
    show(onDone);
    await userEvent.click(screen.getByRole("button", { name: "I have copied it" }));
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});

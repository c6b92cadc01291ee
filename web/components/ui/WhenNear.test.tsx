import { afterEach, describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { WhenNear } from "./WhenNear.js";

/**
 * jsdom has no IntersectionObserver (it lays nothing out), so where one is needed these tests
 * stand in a minimal one whose callback they call, as a browser would on scrolling.
 */
class FakeObserver {
  static last: FakeObserver | null = null;
  observed: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: (entries: { isIntersecting: boolean }[]) => void,
    readonly options: { rootMargin?: string },
  ) {
    FakeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.last = null;
});

describe("WhenNear", () => {
  it("renders nothing until its place comes within a screen of the viewport, then its children", () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    render(
      <WhenNear>
        <p>Publication</p>
      </WhenNear>,
    );
    expect(screen.queryByText("Publication")).toBeNull();
    const observer = FakeObserver.last!;
    expect(observer.options.rootMargin).toBe("0px 0px 100% 0px");
    expect(observer.observed).toHaveLength(1);

    act(() => observer.callback([{ isIntersecting: false }]));
    expect(screen.queryByText("Publication")).toBeNull();

    act(() => observer.callback([{ isIntersecting: true }]));
    expect(screen.getByText("Publication")).toBeInTheDocument();
    expect(observer.disconnected).toBe(true);
  });

  it("shows its placeholder inside the watched place until then, and its children instead after", () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    render(
      <WhenNear placeholder={<h2>Publication (loading)</h2>}>
        <h2>Publication</h2>
      </WhenNear>,
    );
    const placeholder = screen.getByRole("heading", { name: "Publication (loading)" });
    expect(FakeObserver.last!.observed).toEqual([placeholder.parentElement]);
    expect(screen.queryByRole("heading", { name: "Publication" })).toBeNull();

    act(() => FakeObserver.last!.callback([{ isIntersecting: true }]));
    expect(screen.getByRole("heading", { name: "Publication" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Publication (loading)" })).toBeNull();
  });

  it("renders its children at once where there is no IntersectionObserver", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    render(
      <WhenNear>
        <p>Publication</p>
      </WhenNear>,
    );
    expect(screen.getByText("Publication")).toBeInTheDocument();
  });
});

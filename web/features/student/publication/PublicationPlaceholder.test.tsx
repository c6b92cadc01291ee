import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import type { PublicationView } from "../../../../common/publication.js";
import { json, mockServer, renderRoutes, student, type FetchCall } from "../../../test/render.js";
import { StatusPage } from "../StatusPage.js";
import { documentsResponse } from "../test/documents-fixtures.js";

/**
 * The status page's Publication section before its part is there (PublicationPlaceholder): its
 * heading and a loading status from the first render, so the headings list does not change when
 * the part arrives. jsdom has no IntersectionObserver; these tests stand in one whose callback
 * they call, as a browser does when the student scrolls near the section. fetch is replaced: the
 * server is outside the component's control here.
 */
class FakeObserver {
  static last: FakeObserver | null = null;
  constructor(readonly callback: (entries: { isIntersecting: boolean }[]) => void) {
    FakeObserver.last = this;
  }
  observe() {}
  disconnect() {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.last = null;
});

const submission = {
  studentName: "Ama Mensah",
  indexNumber: "PG1234567",
  programme: "MPhil Economics",
  contact: null,
  status: {
    awaitingReview: "Completed",
    sentToDepartment: "Completed",
    nominationsReady: "Pending",
    sentToInternal: "Pending",
    sentToExternal: "Pending",
    internalReport: "Pending",
    externalReport: "Pending",
    thesisStatus: null,
  },
  documents: [],
};

const record: PublicationView = {
  submissionId: 7,
  state: "not_final",
  final: false,
  title: "Rainfall and Maize Yields",
  abstract: "How rainfall shapes maize yields.",
  keywords: [],
  language: null,
  degree: null,
  department: null,
  programme: "MPhil Economics",
  supervisors: [],
  examinationDate: null,
  awardDate: null,
  confirmedAt: null,
  licence: null,
  embargo: null,
  filesPublic: false,
  publishedAt: null,
  withdrawn: null,
  handle: null,
  locked: false,
  missing: ["Keywords"],
  publicPath: null,
};

const LOADING = "Loading your publication details...";

/** The status page, its publication record answered by `publication` (never, by default). */
function renderStatus(publication: () => Promise<Response> = () => new Promise(() => {})) {
  mockServer((call: FetchCall) => {
    if (call.url.endsWith("/publication")) return publication();
    if (call.url === "/licence") {
      return json(200, {
        data: { version: 1, text: "I grant...", createdAt: "2026-01-01T00:00:00.000Z" },
      });
    }
    if (call.url.endsWith("/timeline")) return json(200, { items: [] });
    if (call.url.endsWith("/documents")) return json(200, documentsResponse());
    if (call.url.endsWith("/examination")) {
      return json(200, {
        data: {
          internal: { sentOn: null, reportReceivedOn: null },
          external: { sentOn: null, reportReceivedOn: null },
          outcome: null,
        },
      });
    }
    return json(200, { data: submission });
  });
  return renderRoutes([{ path: "/dashboard/status", element: <StatusPage /> }], {
    path: "/dashboard/status",
    me: student,
  });
}

const headings = () => screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);

function expectPlaceholder() {
  const region = screen.getByRole("region", { name: "Publication" });
  expect(region).toHaveAttribute("aria-busy", "true");
  expect(within(region).getByRole("heading", { level: 2, name: "Publication" })).toBeVisible();
  expect(within(region).getByRole("status")).toHaveTextContent(LOADING);
  expect(region).toHaveClass("status__publication--loading");
  expect(within(region).queryByRole("button")).toBeNull();
}

describe("the status page's Publication section before its part loads", () => {
  it("has its heading, at the loaded section's level and place, and a loading status", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    renderStatus(async () => json(200, { data: record }));
    await screen.findByRole("heading", { name: "Submission Details" });
    // The student has not scrolled near it: its code is not asked for, its place is held.
    expectPlaceholder();
    const before = headings();
    expect(before.indexOf("Publication")).toBe(before.indexOf("Your documents") + 1);
    expect(before.indexOf("Submission Details")).toBe(before.indexOf("Publication") + 1);

    // Scrolled near: the part loads and replaces the placeholder; the headings are the same.
    act(() => FakeObserver.last!.callback([{ isIntersecting: true }]));
    // While the part's code is on its way (Suspense), the same placeholder.
    expect(document.querySelector("[data-when-near]")).toBeNull();
    expectPlaceholder();
    // (The first import of the part's module is transformed on the spot: it can take seconds.)
    await screen.findByRole("button", { name: "Save details" }, { timeout: 15_000 });
    const region = screen.getByRole("region", { name: "Publication" });
    expect(within(region).getByRole("button", { name: "Save details" })).toBeVisible();
    expect(region).not.toHaveAttribute("aria-busy");
    expect(screen.queryByText(LOADING)).toBeNull();
    expect(headings()).toEqual(before);
  });

  it("keeps the placeholder while the part's record is still on its way", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    renderStatus();
    await screen.findByRole("heading", { name: "Submission Details" });
    act(() => FakeObserver.last!.callback([{ isIntersecting: true }]));
    // The part's code arrives (the same module the page's lazy import asks for)...
    await act(async () => {
      await import("./PublicationSection.js");
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(document.querySelector("[data-when-near]")).toBeNull();
    // ...and the section still says it is loading, under the same heading.
    expectPlaceholder();
    expect(screen.getAllByRole("heading", { name: "Publication" })).toHaveLength(1);
  });
});

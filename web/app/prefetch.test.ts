import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockServer, student } from "../test/render.js";
import type { Me } from "../lib/session.js";
import { allSubmissionsLoader, statusPageLoader } from "./prefetch.js";
import { queryClient } from "./query-client.js";

const admin: Me = {
  ...student,
  id: 1,
  email: "admin@school.edu",
  role: "admin",
  indexNumber: null,
};

// The server is outside the loaders' control: each test says who is signed in. The examination
// and documents answers are 404s (no retries), the rest a plain answer of the right shape.
function serve(me: Me | null) {
  return mockServer(({ url }) => {
    if (url === "/session") return json(200, { user: me });
    if (url === `/submissions/${student.indexNumber}`)
      return json(200, { success: true, data: { id: 3 } });
    if (url === `/submissions/${student.indexNumber}/timeline`) return json(200, { items: [] });
    if (url === "/messages") return json(200, { items: [], unreadCount: 0 });
    if (url.startsWith("/submissions?")) return json(200, { items: [], total: 0 });
    return json(404, { success: false, code: "not_found", message: "Not found" });
  });
}

beforeEach(() => queryClient.clear());
afterEach(() => vi.unstubAllGlobals());

describe("statusPageLoader", () => {
  it("asks for the session once, then for every section of the page at the same time", async () => {
    const { calls } = serve(student);
    await statusPageLoader();
    const urls = calls.map((c) => c.url);
    expect(urls.filter((u) => u === "/session")).toHaveLength(1);
    expect(new Set(urls.slice(1))).toEqual(
      new Set([
        `/submissions/${student.indexNumber}`,
        `/submissions/${student.indexNumber}/timeline`,
        `/submissions/${student.indexNumber}/documents`,
        `/submissions/${student.indexNumber}/examination`,
        "/messages",
      ]),
    );
    // In the cache under the page's own keys, so the page renders them without asking again.
    expect(queryClient.getQueryData(["submission-status", student.indexNumber])).toEqual({ id: 3 });
    expect(queryClient.getQueryData(["submission-timeline", student.indexNumber])).toEqual([]);
  });

  it("asks for nothing more when nobody is signed in", async () => {
    const { calls } = serve(null);
    await expect(statusPageLoader()).resolves.toBeNull();
    expect(calls.map((c) => c.url)).toEqual(["/session"]);
  });
});

describe("allSubmissionsLoader", () => {
  const args = (url: string) => ({ request: new Request(url) });

  it("starts the page of rows the address asks for, for an administrator", async () => {
    const { calls } = serve(admin);
    await allSubmissionsLoader(args("http://localhost/admin/all_submissions?q=ama&page=2"));
    await vi.waitFor(() => expect(calls.some((c) => c.url.startsWith("/submissions?"))).toBe(true));
    const list = calls.find((c) => c.url.startsWith("/submissions?"))?.url ?? "";
    const query = new URLSearchParams(list.split("?")[1]);
    expect(query.get("q")).toBe("ama");
    expect(query.get("page")).toBe("2");
  });

  it("asks a student's browser for no list (it would be refused and logged)", async () => {
    // The list's modules already loaded, so the loader's decision follows the session at once.
    await import("../features/admin/submissions/api/get-submissions.js");
    await import("../features/admin/submissions/lib/list-params.js");
    const { calls } = serve(student);
    await allSubmissionsLoader(args("http://localhost/admin/all_submissions"));
    await vi.waitFor(() => expect(queryClient.getQueryData(["me"])).toEqual(student));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.map((c) => c.url)).toEqual(["/session"]);
  });
});

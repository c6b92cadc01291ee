import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, unwrap } from "./api-client.js";

/**
 * The client keeps the behaviour it had over openapi-fetch (ADR 021): one fetch(url, init),
 * same-origin, JSON, the server's errors as ApiError; its types are the generated contract's.
 */
describe("api (typed by the generated contract)", () => {
  afterEach(() => vi.unstubAllGlobals());

  function answer(status: number, body: unknown) {
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(body === undefined ? null : JSON.stringify(body), {
          status,
          headers: { "content-type": "application/json" },
        }),
    );
    vi.stubGlobal("fetch", fetch);
    return fetch;
  }

  it("calls the same-origin path with the cookie, its query without empty values, and JSON", async () => {
    const fetch = answer(200, { items: [], total: 0, page: 2, pageSize: 25 });
    const data = await unwrap(
      api.GET("/api/admin/examiners", { params: { query: { q: "", page: 2, kind: undefined } } }),
    );
    expect(data).toEqual({ items: [], total: 0, page: 2, pageSize: 25 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/admin/examiners?page=2");
    expect(init.credentials).toBe("same-origin");
    expect(new Headers(init.headers).get("accept")).toBe("application/json");
  });

  it("sends a body as JSON and fills the path's parameters, encoded", async () => {
    const fetch = answer(200, { data: { title: "Soil", abstract: "On soil" } });
    await unwrap(
      api.PUT("/api/submissions/{indexNumber}/thesis", {
        params: { path: { indexNumber: "PG 1/2" } },
        body: { title: "Soil", abstract: "On soil" },
      }),
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/submissions/PG%201%2F2/thesis");
    expect(init.method).toBe("PUT");
    expect(JSON.parse(String(init.body))).toEqual({ title: "Soil", abstract: "On soil" });
    expect(new Headers(init.headers).get("content-type")).toBe("application/json");
  });

  it("turns an error answer into an ApiError with status, code, message and fields", async () => {
    answer(400, {
      success: false,
      code: "validation",
      message: "email: is not an email",
      fields: [{ field: "email", message: "is not an email" }],
    });
    const error = await unwrap(api.POST("/api/contact", { body: contact })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "validation",
      message: "email: is not an email",
      fields: [{ field: "email", message: "is not an email" }],
    });
  });

  it("says what the status was when the error answer has no body", async () => {
    answer(502, undefined);
    const error = await unwrap(api.GET("/api/session")).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "error", body: null });
    expect(error.message).toBe("The server answered 502. Please try again.");
  });

  it("sends a FormData body as it is, with no JSON content type", async () => {
    const fetch = answer(200, { data: { ok: true } });
    const form = new FormData();
    form.append("file", new Blob(["index_number\n"]), "import.csv");
    // A multipart route declares no JSON body in the contract: its callers pass FormData `as never`.
    await unwrap(api.POST("/api/admin/import/preview", { body: form as never }));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/admin/import/preview");
    expect(init.method).toBe("POST");
    expect(init.body).toBe(form);
    expect(new Headers(init.headers).get("content-type")).toBeNull();
    expect(new Headers(init.headers).get("accept")).toBe("application/json");
  });

  it("sends no body and no content type on a read, and passes the abort signal", async () => {
    const fetch = answer(200, { user: null });
    const controller = new AbortController();
    await unwrap(api.GET("/api/session", { signal: controller.signal }));
    const [, init] = fetch.mock.calls[0]!;
    expect(init.method).toBe("GET");
    expect(init.body).toBeUndefined();
    expect(init.signal).toBe(controller.signal);
    expect(new Headers(init.headers).get("content-type")).toBeNull();
  });

  it("answers null for a 2xx with an empty body", async () => {
    answer(200, undefined);
    await expect(unwrap(api.POST("/api/logout"))).resolves.toBeNull();
  });

  it("keeps the status and no body when an error answer is not JSON", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>Bad gateway</html>", { status: 502 })),
    );
    const error = await unwrap(api.GET("/api/session")).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: "error", body: null, fields: [] });
  });

  it("turns a 401 into an ApiError with the server's code and body", async () => {
    answer(401, { success: false, code: "unauthorized", message: "Please sign in." });
    const error = await unwrap(api.GET("/api/me")).catch((e) => e);
    expect(error).toMatchObject({ status: 401, code: "unauthorized", message: "Please sign in." });
    expect(error.body).toEqual({
      success: false,
      code: "unauthorized",
      message: "Please sign in.",
    });
  });

  it("gives status 0 when a 2xx answer is not JSON", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>proxy page</html>")),
    );
    const error = await unwrap(api.GET("/api/session")).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isNetworkError).toBe(true);
  });

  it("gives status 0 when there is no answer at all, and lets an abort through", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    const error = await unwrap(api.GET("/api/session")).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isNetworkError).toBe(true);
    vi.stubGlobal(
      "fetch",
      vi.fn().mockRejectedValue(new DOMException("The operation was aborted.", "AbortError")),
    );
    const aborted = await unwrap(api.GET("/api/session")).catch((e) => e);
    expect(aborted).not.toBeInstanceOf(ApiError);
    expect(aborted.name).toBe("AbortError");
  });
});

const contact = { email: "ama", message: "Hello" };

/**
 * Compile-time checks: `npm run typecheck` fails if a wrong call below stops being an error
 * (each line names the mistake), or if an answer's type stops matching the contract.
 */
export async function typeChecks(): Promise<void> {
  const examiners = await unwrap(api.GET("/api/admin/examiners"));
  const total: number = examiners.total;
  // @ts-expect-error -- the answer's `total` is a number, not a string
  const asText: string = examiners.total;
  // @ts-expect-error -- no such path
  void api.GET("/api/no-such-route");
  // @ts-expect-error -- the path has no POST
  void api.POST("/api/session");
  // @ts-expect-error -- the path parameter is required
  void api.GET("/api/submissions/{indexNumber}");
  void api.PUT("/api/submissions/{indexNumber}/thesis", {
    params: { path: { indexNumber: "PG1" } },
    // @ts-expect-error -- the body's `title` must be a string
    body: { title: 1, abstract: "On soil" },
  });
  // @ts-expect-error -- the body is required
  void api.PUT("/api/submissions/{indexNumber}/thesis", {
    params: { path: { indexNumber: "PG1" } },
  });
  void [total, asText];
}

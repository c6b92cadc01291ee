import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, unwrap } from "./api-client.js";

/** The generated client keeps the old client's behaviour: one fetch(url, init), same-origin. */
describe("api (openapi-fetch, typed by the generated contract)", () => {
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

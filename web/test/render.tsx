import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import { vi } from "vitest";
import type { Me } from "../lib/session.js";

/**
 * Renders pages inside a memory router and a fresh query client, as the app does. `me` seeds the
 * signed-in user (what GET /api/me would answer) so a page under test needs no extra call.
 */
export function renderRoutes(
  routes: RouteObject[],
  { path, me }: { path: string; me?: Me | null },
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  if (me !== undefined) queryClient.setQueryData(["me"], me);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

export const student: Me = {
  id: 7,
  email: "ama.mensah@st.school.edu",
  name: "Ama Mensah",
  role: "student",
  indexNumber: "PG1234567",
  hasPassword: false,
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

export type FetchCall = { url: string; method: string; body: unknown };

/**
 * Replaces fetch: the server is outside the component's control in these tests, so each test
 * says what it answers. `handler` gets the path under /api and the parsed JSON body; every call
 * is recorded for assertions.
 */
export function mockServer(handler: (call: FetchCall) => Response | Promise<Response>): {
  calls: FetchCall[];
} {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input).replace(/^\/api/, "");
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
      const call = { url, method: init?.method ?? "GET", body };
      calls.push(call);
      return handler(call);
    }),
  );
  return { calls };
}

/**
 * jsdom cannot navigate, and a successful sign-in leaves the app with a full page load
 * (window.location.assign). The location is replaced by a recorder for the test's duration.
 */
export function recordPageLoads(): { assign: ReturnType<typeof vi.fn> } {
  const real = window.location;
  const assign = vi.fn();
  vi.stubGlobal("location", {
    href: real.href,
    origin: real.origin,
    protocol: real.protocol,
    host: real.host,
    hostname: real.hostname,
    port: real.port,
    pathname: real.pathname,
    search: real.search,
    hash: real.hash,
    assign,
    replace: vi.fn(),
    reload: vi.fn(),
  });
  return { assign };
}

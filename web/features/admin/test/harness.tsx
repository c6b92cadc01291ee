import type { ReactElement } from "react";
import { afterEach, vi } from "vitest";
import type { SubmissionDto } from "../../../../common/submissions-api.js";
import { json, mockServer, renderRoutes } from "../../../test/render.js";

/**
 * Component-test harness for the admin pages, on top of the app's shared test helpers
 * (web/test/render.tsx). The server is outside a component's control, so these tests stand in
 * for it by stubbing `fetch` with answers shaped by the API contract (docs/api.md); everything on
 * the web side — router, query client, forms, the API client — is the real thing. End-to-end
 * tests cover the real server. Here answers are a table of routes, and calls are read by path.
 */

export interface Call {
  method: string;
  url: URL;
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
}

export interface MockRoute {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  path: string | RegExp;
  answer: (call: Call) => Answer | Promise<Answer>;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

export function mockApi(routes: MockRoute[]) {
  const calls: Call[] = [];
  mockServer(async (request) => {
    const call = {
      method: request.method,
      url: new URL(`/api${request.url}`, "http://localhost"),
      body: request.body ?? null,
    };
    calls.push(call);
    const route = routes.find(
      (r) =>
        (r.method ?? "GET") === call.method &&
        (typeof r.path === "string"
          ? call.url.pathname === r.path
          : r.path.test(call.url.pathname)),
    );
    if (!route) {
      return json(404, {
        success: false,
        code: "not_found",
        message: `No test answer for ${call.method} ${call.url.pathname}`,
      });
    }
    const { status = 200, body = {} } = await route.answer(call);
    return json(status, body);
  });
  const callsTo = (method: string, path: string) =>
    calls.filter((c) => c.method === method && c.url.pathname === path);
  return { calls, callsTo };
}

/** Renders a page at a route (the signed-in user is an administrator) and returns the router. */
export function renderPage(
  element: ReactElement,
  { path, url = path }: { path: string; url?: string },
) {
  return renderRoutes(
    [
      { path, element },
      { path: "*", element: <p>Elsewhere</p> },
    ],
    { path: url, me: admin },
  );
}

export const admin = {
  id: 1,
  email: "admin@sgs.test",
  name: "SGS Admin",
  role: "admin" as const,
  indexNumber: null,
  hasPassword: true,
};

export function makeSubmission(overrides: Partial<SubmissionDto> = {}): SubmissionDto {
  const empty = { submitted: false, receivedOn: null };
  return {
    id: 1,
    studentName: "Ama Mensah",
    indexNumber: "PG1234567",
    programme: "MPhil Economics",
    contact: "0244000000",
    studentEmail: "ama@st.school.edu",
    documents: {
      thesis: { submitted: true, receivedOn: "2025-03-01" },
      turnitinReport: { submitted: true, receivedOn: null },
      supervisorForm: empty,
      statementOfResult: empty,
      financialClearance: empty,
    },
    sgsStage: "awaiting_review",
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: "Initial Submission",
    effectiveDate: null,
    thesisTitle: null,
    thesisAbstract: null,
    documentsToReview: 0,
    createdAt: "2025-03-01T10:00:00.000Z",
    updatedAt: "2025-03-02T10:00:00.000Z",
    version: 2,
    ...overrides,
  };
}

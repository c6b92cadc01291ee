import type { ReactElement } from "react";
import { afterEach, vi } from "vitest";
import type { DocumentSlot, DocumentVersion } from "../../../../common/documents.js";
import type { SubmissionDto } from "../../../../common/submissions-api.js";
import { DOCUMENTS, DOCUMENT_LABELS, type DocumentItem } from "../../../../common/workflow.js";
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
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
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

export function makeVersion(overrides: Partial<DocumentVersion> = {}): DocumentVersion {
  const id = overrides.id ?? 101;
  return {
    id,
    item: "thesis",
    version: 1,
    fileName: "thesis-final.pdf",
    sizeBytes: 860_160,
    pageCount: 12,
    hasJavaScript: false,
    hasEmbeddedFiles: false,
    uploadedAt: "2025-03-03T09:30:00.000Z",
    reviewState: "pending",
    reviewedAt: null,
    returnReason: null,
    href: `/api/documents/${id}`,
    ...overrides,
  };
}

/** One checklist item as GET /api/submissions/:indexNumber/documents reports it. */
export function makeSlot(item: DocumentItem, overrides: Partial<DocumentSlot> = {}): DocumentSlot {
  return {
    item,
    label: DOCUMENT_LABELS[item],
    state: "to_upload",
    receivedOn: null,
    paperCopy: false,
    canUpload: true,
    maxBytes: 10 * 1024 * 1024,
    current: null,
    earlier: [],
    ...overrides,
  };
}

/** The five items in the checklist's order; those not given are still to upload. */
export function makeSlots(given: Partial<Record<DocumentItem, Partial<DocumentSlot>>> = {}) {
  return DOCUMENTS.map((item) => makeSlot(item, given[item]));
}

/** The route answering the documents of a submission; `items` is read on every request. */
export function documentsRoute(
  submission: Pick<SubmissionDto, "id" | "indexNumber" | "thesisTitle" | "thesisAbstract">,
  items: () => DocumentSlot[] = () => makeSlots(),
): MockRoute {
  return {
    path: `/api/submissions/${submission.indexNumber}/documents`,
    answer: () => ({
      body: {
        data: {
          submissionId: submission.id,
          indexNumber: submission.indexNumber,
          thesis: { title: submission.thesisTitle, abstract: submission.thesisAbstract },
          items: items(),
        },
      },
    }),
  };
}

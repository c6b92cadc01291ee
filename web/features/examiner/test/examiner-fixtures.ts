import { vi } from "vitest";
import type { ExaminerAssignment } from "../../../../common/examiners.js";

export const TOKEN = "q8H3kLm0Zx7Yv2Wt5Rs9Pn1Bc4Df6Gh8Jk0Lm2Np4Q";

/** What GET /api/examiner/assignment answers; each test states what matters to it. */
export function assignment(overrides: Partial<ExaminerAssignment> = {}): ExaminerAssignment {
  return {
    examinerName: "Prof. Kwame Asante",
    role: "external",
    thesis: {
      title: "Groundwater recharge in the Volta basin",
      abstract: "Rain reaches the aquifers slowly.\n\nThis thesis measures how slowly.",
      programme: "MPhil Geography",
      file: {
        fileName: "thesis-final.pdf",
        sizeBytes: 13_002_342,
        pageCount: 212,
        uploadedAt: "2026-03-02T10:00:00.000Z",
      },
    },
    dueOn: "2026-04-13",
    state: "sent",
    receivedAt: null,
    report: null,
    corrections: null,
    done: false,
    linkExpiresAt: "2026-07-01T10:00:00.000Z",
    schoolContact: "sgs-office@sgs.test, +233 30 000 0000",
    ...overrides,
  };
}

export interface ExaminerCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
  body: unknown;
}

/**
 * Replaces fetch for the examiner page: the server is outside the page's control in these tests.
 * Unlike test/render.tsx's mockServer it records the request headers and credentials, which are
 * what these tests are about (the token travels as a header, never with a cookie).
 */
export function examinerServer(handler: (call: ExaminerCall) => Response | Promise<Response>): {
  calls: ExaminerCall[];
} {
  const calls: ExaminerCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [
          k.toLowerCase(),
          v,
        ]),
      );
      const call: ExaminerCall = {
        url: String(input),
        method: init?.method ?? "GET",
        headers,
        credentials: init?.credentials,
        body: typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      return handler(call);
    }),
  );
  return { calls };
}

import type {
  AdminExaminationResponse,
  Examination,
  ExaminerKind,
  ExaminerRecord,
} from "../../../../../common/examiners.js";
import type { MockRoute } from "../../test/harness.js";

/**
 * Answers shaped by common/examiners.ts for the examiner components' tests (the server is outside
 * a component's control; the admin harness stubs fetch with these).
 */

export type ExaminationView = AdminExaminationResponse["data"];

export function makeExaminer(overrides: Partial<ExaminerRecord> = {}): ExaminerRecord {
  return {
    id: 11,
    name: "Kofi Boateng",
    email: "kofi.boateng@ug.edu.gh",
    institution: "University of Ghana",
    kind: "internal",
    active: true,
    openExaminations: 2,
    createdAt: "2025-01-05T09:00:00.000Z",
    updatedAt: "2025-01-05T09:00:00.000Z",
    ...overrides,
  };
}

export function makeExamination(
  role: ExaminerKind,
  overrides: Partial<Examination> = {},
): Examination {
  return {
    id: role === "internal" ? 501 : 502,
    role,
    state: "nominated",
    examiner:
      role === "internal"
        ? {
            id: 11,
            name: "Kofi Boateng",
            email: "kofi.boateng@ug.edu.gh",
            institution: "University of Ghana",
          }
        : {
            id: 21,
            name: "Grace Owusu",
            email: "g.owusu@knust.edu.gh",
            institution: "KNUST",
          },
    nominatedAt: "2025-03-01T10:00:00.000Z",
    sentAt: null,
    dueOn: null,
    linkExpiresAt: null,
    linkRevokedAt: null,
    receivedAt: null,
    lastOpenedAt: null,
    report: null,
    reminders: [],
    replacedAt: null,
    ...overrides,
  };
}

export function makeExaminationView(overrides: Partial<ExaminationView> = {}): ExaminationView {
  return {
    submissionId: 9,
    indexNumber: "PG7654321",
    internal: null,
    external: null,
    replaced: [],
    canSend: false,
    sendBlockedReason: "Nominate an internal and an external examiner before sending.",
    canReleaseOutcome: false,
    outcome: null,
    ...overrides,
  };
}

/** GET /api/admin/submissions/:indexNumber/examination; `view` is read on every request. */
export function examinationRoute(indexNumber: string, view: () => ExaminationView): MockRoute {
  return {
    path: `/api/admin/submissions/${indexNumber}/examination`,
    answer: () => ({ body: { data: view() } }),
  };
}

/**
 * The admin harness's route table names GET, POST, PATCH and DELETE; it matches a route by the
 * method's name at run time, so a PUT route is the same object with the method's name changed.
 */
export function putRoute(route: Omit<MockRoute, "method">): MockRoute {
  return { ...route, method: "PUT" };
}

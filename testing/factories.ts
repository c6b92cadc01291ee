import { emptyDocuments, type Submission, type SubmissionFields } from "../common/submission.js";
import { createSession } from "../server/auth/session.js";
import { nowIso, type Db } from "../server/db/database.js";
import { SAME_ORIGIN } from "./test-app.js";
import { insertSubmission, insertSubmissions } from "../server/submissions/repository.js";

/**
 * Factories for this feature's tests: users and sessions written straight to the database (the
 * accounts endpoints are another feature's), and submissions through the repository.
 */

export interface TestUser {
  id: number;
  email: string;
  /** Headers for a cookie-authenticated browser request, Origin included for writes. */
  headers: Record<string, string>;
  /** Headers for an API client with a bearer token. */
  bearer: Record<string, string>;
}

let userCount = 0;

export async function createUser(
  db: Db,
  role: "admin" | "student",
  options: { indexNumber?: string | null; email?: string; name?: string | null } = {},
): Promise<TestUser> {
  userCount += 1;
  const email = options.email ?? `${role}${userCount}-${Date.now()}@school.test`;
  const at = nowIso();
  const row = await db
    .insertInto("users")
    .values({
      email,
      index_number: options.indexNumber ?? null,
      name: options.name ?? `Test ${role} ${userCount}`,
      role,
      password_hash: null,
      active: 1,
      failed_sign_ins: 0,
      locked_until: null,
      last_sign_in_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { token } = await createSession(db, row.id, { persistent: false, method: "password" });
  return {
    id: row.id,
    email,
    headers: { ...SAME_ORIGIN, cookie: `ets_session=${token}` },
    bearer: { authorization: `Bearer ${token}` },
  };
}

let indexCount = 0;

/** A submission with sensible defaults; pass what the test is about. */
/** A new submission's fields: a fresh name and index number, nothing recorded yet. */
export function submissionFields(overrides: Partial<SubmissionFields> = {}): SubmissionFields {
  indexCount += 1;
  return {
    studentName: `Student ${indexCount}`,
    indexNumber: `99${String(indexCount).padStart(6, "0")}`,
    programme: "MPhil Economics",
    contact: null,
    studentEmail: null,
    documents: emptyDocuments(),
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
    ...overrides,
  };
}

export async function makeSubmission(
  db: Db,
  overrides: Partial<SubmissionFields> = {},
  createdAt: string = nowIso(),
): Promise<Submission> {
  return insertSubmission(db, submissionFields(overrides), createdAt);
}

/**
 * Inserts the submissions in two halves, created at two moments, so sorting by createdAt meets
 * ties that the id must break.
 */
export async function insertWithTiedCreationTimes(
  db: Db,
  fields: SubmissionFields[],
): Promise<void> {
  const half = Math.ceil(fields.length / 2);
  await insertSubmissions(db, fields.slice(0, half), "2025-01-01T00:00:00.000Z");
  await insertSubmissions(db, fields.slice(half), "2025-06-01T00:00:00.000Z");
}

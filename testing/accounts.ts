import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { emptyDocuments } from "../common/submission.js";
import type { Db } from "../server/db/database.js";
import { insertSubmission } from "../server/submissions/repository.js";
import { createAdmin } from "../server/accounts/admins.js";

/**
 * Helpers for the account tests (not used by the product). They drive the app through HTTP the
 * way a client does and read the database the way an operator would; nothing is mocked.
 */

/** What a same-origin browser sends with a write (the app's test PUBLIC_URL). */
export const SITE = { origin: "http://localhost:3000" };

export const ADMIN_PASSCODE = "correct horse battery";

export async function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url,
    payload: body as object,
    headers: { ...SITE, ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
}

/** The "ets_session=..." pair from a response's Set-Cookie, ready to send back. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === "ets_session");
  if (!cookie) throw new Error(`No session cookie in the response (status ${res.statusCode})`);
  return `ets_session=${cookie.value}`;
}

/** The sign-in code in the newest mail queued for an address (read from the outbox). */
export async function latestCodeFor(db: Db, email: string): Promise<string> {
  const row = await db
    .selectFrom("outbox")
    .select(["template"])
    .where("to_address", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirst();
  const params = row
    ? (JSON.parse(row.template) as { params?: { trackingCode?: string } }).params
    : undefined;
  if (!params?.trackingCode) throw new Error(`No code mail queued for ${email}`);
  return params.trackingCode;
}

export async function signUpStudent(
  app: FastifyInstance,
  email: string,
  indexNumber: string,
  ip?: string,
): Promise<string> {
  const res = await postJson(app, "/api/create_user", { email, indexNumber }, ip ? { ip } : {});
  if (res.statusCode !== 200) throw new Error(`Sign-up failed: ${res.statusCode} ${res.body}`);
  return latestCodeFor(app.db, email);
}

/** Signs in and returns the cookie pair; throws unless the sign-in succeeds. */
export async function signInAs(
  app: FastifyInstance,
  email: string,
  password: string,
  ip?: string,
): Promise<string> {
  const res = await postJson(app, "/api/user_sign_in", { email, password }, ip ? { ip } : {});
  if (res.statusCode !== 200) throw new Error(`Sign-in failed: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}

/** A student account, signed in with its first code. */
export async function signedInStudent(
  app: FastifyInstance,
  email: string,
  indexNumber: string,
): Promise<string> {
  const code = await signUpStudent(app, email, indexNumber);
  return signInAs(app, email, code);
}

export async function signedInAdmin(app: FastifyInstance, email: string): Promise<string> {
  await createAdmin(app.db, { name: "Test Admin", email, password: ADMIN_PASSCODE });
  return signInAs(app, email, ADMIN_PASSCODE);
}

export async function addSubmission(
  db: Db,
  indexNumber: string,
  fields: { studentName?: string; studentEmail?: string | null } = {},
): Promise<number> {
  const submission = await insertSubmission(
    db,
    {
      studentName: fields.studentName ?? `Student ${indexNumber}`,
      indexNumber,
      programme: "MPhil Economics",
      contact: null,
      studentEmail: fields.studentEmail ?? null,
      documents: emptyDocuments(),
      sgsStage: null,
      internalExaminer: null,
      externalExaminer: null,
      thesisStatus: "Initial Submission",
      effectiveDate: null,
    },
    new Date().toISOString(),
  );
  return submission.id;
}

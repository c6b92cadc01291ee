import fs from "node:fs";
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
} from "@playwright/test";
import type { SubmissionRecord } from "../../common/submission.js";
import { resolveFromRoot } from "../../server/paths.js";
import { codeFrom, waitForMail } from "./mail.js";
import { readState } from "./state.js";

/**
 * Helpers the specs share: fresh names, the sample list, and quick ways to reach a state through
 * the real API (accounts, sign-in) so that each spec drives in the browser only what it is about.
 */

let counter = 0;
const RUN = Date.now().toString(36);

/** A value no other test (in this run or an earlier one) has used. */
export function unique(tag: string): string {
  counter += 1;
  return `${tag}-${RUN}-${counter}`;
}

export function uniqueEmail(tag: string): string {
  return `${unique(tag)}@students.sgs.test`.toLowerCase();
}

/** A fresh index number the sample list does not hold (the sample's are 8 digits from 10 to 20). */
export function uniqueIndexNumber(): string {
  counter += 1;
  const n = (Date.now() * 10 + counter) % 1_000_000_000;
  return `E2E${String(n).padStart(9, "0")}`;
}

export function baseUrl(): string {
  return readState().baseUrl;
}

/** Same-origin header for cookie-authenticated writes made with page.request (the server refuses others). */
export function sameOrigin(): Record<string, string> {
  return { origin: baseUrl() };
}

let sample: SubmissionRecord[] | null = null;

/** The built-in sample list the server loaded (server/db/sample-data/submissions.json). */
export function sampleRecords(): SubmissionRecord[] {
  sample ??= JSON.parse(
    fs.readFileSync(resolveFromRoot("server/db/sample-data/submissions.json"), "utf8"),
  ) as SubmissionRecord[];
  return sample;
}

export function sampleRecord(
  idNo: number,
): Required<Pick<SubmissionRecord, "StudentName" | "IndexNumber" | "Programme">> &
  SubmissionRecord {
  const record = sampleRecords().find((r) => r.idNo === idNo);
  if (!record?.StudentName || !record.IndexNumber || !record.Programme) {
    throw new Error(`No complete sample record ${idNo}`);
  }
  return record as Required<Pick<SubmissionRecord, "StudentName" | "IndexNumber" | "Programme">> &
    SubmissionRecord;
}

/** An API client signed in as the bootstrap administrator with a bearer token (no cookie, no Origin needed). */
export async function adminApi(): Promise<APIRequestContext> {
  const { admin } = readState();
  return apiAs(admin.email, admin.password);
}

export async function apiAs(email: string, password: string): Promise<APIRequestContext> {
  const anonymous = await playwrightRequest.newContext({ baseURL: baseUrl() });
  const res = await anonymous.post("/api/user_sign_in", {
    data: { email, password },
    headers: sameOrigin(),
  });
  expect(res.status(), `sign in as ${email}: ${await res.text()}`).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await anonymous.dispose();
  return playwrightRequest.newContext({
    baseURL: baseUrl(),
    extraHTTPHeaders: { authorization: `Bearer ${token}`, ...sameOrigin() },
  });
}

/** Creates a student account through the API and returns the six-digit code mailed to it. */
export async function createStudentAccount(email: string, indexNumber: string): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: baseUrl() });
  const res = await api.post("/api/create_user", {
    data: { email, indexNumber },
    headers: sameOrigin(),
  });
  expect(res.status(), `create_user ${email}: ${await res.text()}`).toBe(200);
  await api.dispose();
  const mail = await waitForMail(email, (m) => /verification code/i.test(m.subject));
  return codeFrom(mail);
}

/** Signs the page's browser context in (the session cookie lands in its jar). */
export async function signInContext(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post("/api/user_sign_in", {
    data: { email, password },
    headers: sameOrigin(),
  });
  expect(res.status(), `sign in as ${email}: ${await res.text()}`).toBe(200);
}

/** A signed-in student whose account is linked to the given index number; returns the email. */
export async function signInAsNewStudent(
  page: Page,
  indexNumber: string,
  tag = "student",
): Promise<string> {
  const email = uniqueEmail(tag);
  const code = await createStudentAccount(email, indexNumber);
  await signInContext(page, email, code);
  return email;
}

export async function signInAsAdmin(page: Page): Promise<void> {
  const { admin } = readState();
  await signInContext(page, admin.email, admin.password);
}

/** Signs in through the login form, as a person would. */
export async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/auth/login");
  await page.getByLabel("Student email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}

export interface SubmissionDto {
  id: number;
  studentName: string;
  indexNumber: string;
  programme: string;
  contact: string | null;
  sgsStage: string | null;
  internalExaminer: string | null;
  externalExaminer: string | null;
  thesisStatus: string | null;
  version: number;
}

/** Creates a submission as the administrator (POST /api/submissions). */
export async function createSubmission(
  api: APIRequestContext,
  input: { studentName: string; indexNumber: string; programme: string } & Record<string, unknown>,
): Promise<SubmissionDto> {
  const res = await api.post("/api/submissions", { data: input });
  expect(res.status(), `create submission: ${await res.text()}`).toBe(201);
  return ((await res.json()) as { data: SubmissionDto }).data;
}

export async function findSubmission(
  api: APIRequestContext,
  indexNumber: string,
): Promise<SubmissionDto> {
  const res = await api.get("/api/submissions", { params: { q: indexNumber, pageSize: 100 } });
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as { items: SubmissionDto[] };
  const found = items.find((s) => s.indexNumber === indexNumber);
  if (!found) throw new Error(`No submission ${indexNumber} on the server`);
  return found;
}

/** The page does not scroll sideways. */
export async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

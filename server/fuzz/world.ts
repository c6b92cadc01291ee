import ExcelJS from "exceljs";
import { RECORD_COLUMNS } from "../../common/submission.js";
import { hashSecret } from "../accounts/passwords.js";
import { createSession } from "../auth/session.js";
import type { Db } from "../db/database.js";
import { addDocumentVersion } from "../testing/documents.js";
import { createUser, makeSubmission } from "../testing/factories.js";
import { uniquePdf } from "../testing/documents.js";
import { SAME_ORIGIN, type TestApp } from "../testing/test-app.js";
import { csvLine } from "../submissions/csv.js";
import type { KnownValues } from "./json-schema.js";
import type { Caller, RequestContext, Sessions } from "./requests.js";

/**
 * The rows generated requests act on: an administrator, a student with a submission, an uploaded
 * thesis and a message, and another student's submission the first must not reach. Their ids and
 * index numbers are the known values generated requests use beside random ones.
 */

/** A version number the run replaces with the submission's current one, so some edits apply. */
export const CURRENT_VERSION = 987_654_321;

/** The administrator's password, among the known values, so some sign-ins succeed. */
const ADMIN_PASSWORD = "correct horse battery staple";

const CROSS_SITE = "http://evil.test";

export const CALLERS: readonly Caller[] = [
  { label: "anonymous", weight: 2, role: "anonymous", auth: "none", origin: null },
  {
    label: "anonymous, same origin",
    weight: 1,
    role: "anonymous",
    auth: "none",
    origin: SAME_ORIGIN.origin,
  },
  {
    label: "anonymous, cross-site",
    weight: 1,
    role: "anonymous",
    auth: "none",
    origin: CROSS_SITE,
  },
  {
    label: "student cookie",
    weight: 4,
    role: "student",
    auth: "cookie",
    origin: SAME_ORIGIN.origin,
  },
  { label: "student cookie, no Origin", weight: 1, role: "student", auth: "cookie", origin: null },
  { label: "student bearer", weight: 1, role: "student", auth: "bearer", origin: null },
  { label: "admin cookie", weight: 5, role: "admin", auth: "cookie", origin: SAME_ORIGIN.origin },
  { label: "admin cookie, no Origin", weight: 1, role: "admin", auth: "cookie", origin: null },
  {
    label: "admin cookie, cross-site",
    weight: 1,
    role: "admin",
    auth: "cookie",
    origin: CROSS_SITE,
  },
  { label: "admin bearer", weight: 2, role: "admin", auth: "bearer", origin: null },
];

export interface FuzzWorld {
  context: RequestContext;
  sessions: Sessions;
  userIds: { student: number; admin: number };
  /** Active accounts with live sessions again, after a request that may have ended them. */
  restore(): Promise<void>;
}

export async function buildWorld(t: TestApp): Promise<FuzzWorld> {
  const admin = await createUser(t.db, "admin");
  const adminPasswordHash = await hashSecret(ADMIN_PASSWORD);
  const studentIndex = "10700001";
  const student = await createUser(t.db, "student", { indexNumber: studentIndex });
  const otherStudent = await createUser(t.db, "student", { indexNumber: "10700002" });
  const own = await makeSubmission(t.db, {
    indexNumber: studentIndex,
    studentEmail: student.email,
    sgsStage: "awaiting_review",
  });
  const other = await makeSubmission(t.db, { indexNumber: "10700002" });
  const thesis = await addDocumentVersion(
    { db: t.db, storage: t.app.storage },
    { submissionId: own.id, item: "thesis", uploadedBy: student.id },
  );
  const sent = await t.app.inject({
    method: "POST",
    url: "/api/admin/messages",
    headers: admin.headers,
    payload: { indexNumber: studentIndex, title: "Welcome", body: "Your record is open." },
  });
  if (sent.statusCode !== 201) throw new Error(`the fuzz world's message: ${sent.body}`);
  const message = await t.db
    .selectFrom("messages")
    .select("id")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();

  const known: KnownValues = {
    indexNumber: [studentIndex, other.indexNumber, "00000000"],
    id: [own.id, other.id, thesis.version.id, message.id, student.id, admin.id, otherStudent.id],
    ids: [own.id, other.id],
    email: [student.email, admin.email, otherStudent.email, "new.student@school.test"],
    version: [CURRENT_VERSION],
    password: [ADMIN_PASSWORD],
    currentPassword: [ADMIN_PASSWORD],
  };

  const sessions: Sessions = {
    student: tokenOf(student.headers),
    admin: tokenOf(admin.headers),
  };
  await t.db
    .updateTable("users")
    .set({ password_hash: adminPasswordHash })
    .where("id", "=", admin.id)
    .execute();
  const world: FuzzWorld = {
    context: { callers: CALLERS, known, goodFiles: await goodFiles(studentIndex) },
    sessions,
    userIds: { student: student.id, admin: admin.id },
    restore: async () => {
      await t.db
        .updateTable("users")
        .set({ active: 1, locked_until: null, failed_sign_ins: 0 })
        .where("id", "in", [student.id, admin.id])
        .execute();
      await t.db
        .updateTable("users")
        .set({ password_hash: adminPasswordHash })
        .where("id", "=", admin.id)
        .execute();
      sessions.student = await newSession(t.db, student.id);
      sessions.admin = await newSession(t.db, admin.id);
    },
  };
  return world;
}

function tokenOf(headers: Record<string, string>): string {
  const token = /ets_session=(\S+)/.exec(headers.cookie ?? "")?.[1];
  if (!token) throw new Error("a test user without a session cookie");
  return token;
}

async function newSession(db: Db, userId: number): Promise<string> {
  const { token } = await createSession(db, userId, { persistent: false, method: "password" });
  return token;
}

/** Files each multipart route accepts: a thesis PDF, and a CSV and an XLSX of records. */
async function goodFiles(indexNumber: string): Promise<{ name: string; bytes: Buffer }[]> {
  const header = ["StudentName", "IndexNumber", "Programme"];
  const rows = [
    header,
    ["Fuzz Student", indexNumber, "MPhil Economics"],
    ["New One", "10799999", "MA English"],
  ];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Records");
  for (const row of rows) sheet.addRow(row);
  const wide = new ExcelJS.Workbook();
  wide.addWorksheet("Records").addRow([...RECORD_COLUMNS]);
  return [
    { name: "thesis.pdf", bytes: uniquePdf() },
    { name: "records.csv", bytes: Buffer.from(rows.map((row) => csvLine(row)).join("")) },
    { name: "records.xlsx", bytes: Buffer.from(await workbook.xlsx.writeBuffer()) },
    { name: "header-only.xlsx", bytes: Buffer.from(await wide.xlsx.writeBuffer()) },
  ];
}

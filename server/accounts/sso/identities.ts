import { sql, type SqlBool } from "kysely";
import type { SsoProvider } from "../../../common/sso.js";
import { nowIso, type Executor } from "../../db/database.js";
import { insertAccount } from "../repository.js";

/**
 * Which identity at which provider is which account (user_identities, migration 007), and the
 * look-ups single sign-on needs to decide who a new person is. Row types stay here.
 */

/** The account an identity or email leads to, as single sign-on needs it. */
export interface SsoAccount {
  id: number;
  email: string;
  role: "student" | "admin";
  active: boolean;
  indexNumber: string | null;
}

const USER_COLUMNS = [
  "users.id",
  "users.email",
  "users.role",
  "users.active",
  "users.index_number",
] as const;

type UserRow = {
  id: number;
  email: string;
  role: "student" | "admin";
  active: number;
  index_number: string | null;
};

function toAccount(row: UserRow): SsoAccount {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    active: Number(row.active) === 1,
    indexNumber: row.index_number,
  };
}

export async function findAccountByIdentity(
  db: Executor,
  provider: SsoProvider,
  subject: string,
): Promise<SsoAccount | null> {
  const row = await db
    .selectFrom("user_identities")
    .innerJoin("users", "users.id", "user_identities.user_id")
    .select(USER_COLUMNS)
    .where("user_identities.provider", "=", provider)
    .where("user_identities.subject", "=", subject)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function findSsoAccountByEmail(
  db: Executor,
  email: string,
): Promise<SsoAccount | null> {
  const row = await db
    .selectFrom("users")
    .select(USER_COLUMNS)
    .where("users.email", "=", email)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

/** Whether an account already holds this index number (in every letter case). */
export async function indexNumberTaken(db: Executor, indexNumber: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where(sql<SqlBool>`lower(index_number) = ${indexNumber.toLowerCase()}`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The submissions whose student email on file is this address (two at most: one is a match, two
 * cannot be told apart). For providers that send no index number.
 */
export async function findSubmissionsByStudentEmail(
  db: Executor,
  email: string,
): Promise<{ indexNumber: string; studentName: string; studentEmail: string | null }[]> {
  const rows = await db
    .selectFrom("submissions")
    .select(["index_number", "student_name", "student_email"])
    .where(sql<SqlBool>`lower(trim(student_email)) = ${email}`)
    .orderBy("id")
    .limit(2)
    .execute();
  return rows.map((row) => ({
    indexNumber: row.index_number,
    studentName: row.student_name,
    studentEmail: row.student_email,
  }));
}

export async function linkIdentity(
  db: Executor,
  identity: { userId: number; provider: SsoProvider; subject: string },
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("user_identities")
    .values({
      user_id: identity.userId,
      provider: identity.provider,
      subject: identity.subject,
      created_at: nowIso(now),
      last_sign_in_at: nowIso(now),
    })
    .execute();
}

export async function touchIdentity(
  db: Executor,
  provider: SsoProvider,
  subject: string,
  now: Date = new Date(),
): Promise<void> {
  await db
    .updateTable("user_identities")
    .set({ last_sign_in_at: nowIso(now) })
    .where("provider", "=", provider)
    .where("subject", "=", subject)
    .execute();
}

/** An administrator created by single sign-on: no password, so only the provider lets them in. */
export async function insertSsoAdmin(
  db: Executor,
  admin: { email: string; name: string | null },
  now: Date = new Date(),
): Promise<number> {
  return insertAccount(db, { ...admin, role: "admin" }, now);
}

import { sql, type SqlBool } from "kysely";
import type { AdminUser, AdminUsersQuery, Role } from "../../common/accounts.js";
import { nowIso, type Executor } from "../db/database.js";
import { signInBackoffMs } from "./backoff.js";

/** Users as the account services see them; row types stay in this module. */
export interface Account {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  indexNumber: string | null;
  passwordHash: string | null;
  active: boolean;
  lockedUntil: string | null;
}

const ACCOUNT_COLUMNS = [
  "id",
  "email",
  "name",
  "role",
  "index_number",
  "password_hash",
  "active",
  "locked_until",
] as const;

type AccountRow = {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  index_number: string | null;
  password_hash: string | null;
  active: number;
  locked_until: string | null;
};

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    indexNumber: row.index_number,
    passwordHash: row.password_hash,
    active: Number(row.active) === 1,
    lockedUntil: row.locked_until,
  };
}

export async function findAccountByEmail(db: Executor, email: string): Promise<Account | null> {
  const row = await db
    .selectFrom("users")
    .select(ACCOUNT_COLUMNS)
    .where("email", "=", email)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function findAccountById(db: Executor, id: number): Promise<Account | null> {
  const row = await db
    .selectFrom("users")
    .select(ACCOUNT_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

/** Whether an account already holds this email or this index number (in any letter case). */
export async function accountExists(
  db: Executor,
  email: string,
  indexNumber: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where((eb) =>
      eb.or([
        eb("email", "=", email),
        eb(eb.fn("lower", ["index_number"]), "=", indexNumber.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The submission a new account will link to, as the sign-up rules need it. */
export interface SubmissionLink {
  indexNumber: string;
  studentName: string;
  studentEmail: string | null;
}

/**
 * The submission for an index number typed at sign-up, ignoring letter case ("pg/12" finds
 * "PG/12"), so the account takes the record's own spelling and links to it. An exact match wins.
 */
export async function findSubmissionLink(
  db: Executor,
  indexNumber: string,
): Promise<SubmissionLink | null> {
  const rows = await db
    .selectFrom("submissions")
    .select(["index_number", "student_name", "student_email"])
    .where(sql<SqlBool>`lower(index_number) = ${indexNumber.toLowerCase()}`)
    .orderBy("id")
    .limit(10)
    .execute();
  const row = rows.find((r) => r.index_number === indexNumber) ?? rows[0];
  return row
    ? {
        indexNumber: row.index_number,
        studentName: row.student_name,
        studentEmail: row.student_email,
      }
    : null;
}

/**
 * A new account row: students (code sign-up, single sign-on), administrators (the bootstrap, the
 * CLI, the new_user_entry form, single sign-on). No password hash: only a code or the provider
 * lets them in until they set one.
 */
export async function insertAccount(
  db: Executor,
  account: {
    email: string;
    name: string | null;
    role: "student" | "admin";
    indexNumber?: string | null;
    passwordHash?: string | null;
  },
  now: Date = new Date(),
): Promise<number> {
  const at = nowIso(now);
  const row = await db
    .insertInto("users")
    .values({
      email: account.email,
      index_number: account.indexNumber ?? null,
      name: account.name,
      role: account.role,
      password_hash: account.passwordHash ?? null,
      active: 1,
      failed_sign_ins: 0,
      locked_until: null,
      last_sign_in_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertStudent(
  db: Executor,
  student: { email: string; indexNumber: string; name: string | null },
  now: Date = new Date(),
): Promise<number> {
  return insertAccount(db, { ...student, role: "student" }, now);
}

/** What claiming a sign-in attempt found: the attempt counted, or the account held back. */
export type SignInAttempt =
  | { claimed: true; failures: number; lockedUntil: string | null }
  | { claimed: false; lockedUntil: string };

/**
 * Counts a sign-in attempt as failed before its password is checked (a success resets the count),
 * and holds the account back when the count reaches the threshold; refuses the attempt while the
 * account is held back. Counting before checking is what bounds guesses made at the same moment,
 * on one server or several: without it, every guess that arrives before the first failure is
 * written gets checked. Run it in a transaction: PostgreSQL then makes a simultaneous claim wait
 * for this one and re-read the row, so it sees the hold this one set.
 */
export async function claimSignInAttempt(
  db: Executor,
  userId: number,
  failuresBeforeBackoff: number,
  now: Date = new Date(),
): Promise<SignInAttempt> {
  const at = nowIso(now);
  const counted = await db
    .updateTable("users")
    .set((eb) => ({ failed_sign_ins: eb("failed_sign_ins", "+", 1) }))
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
    .returning("failed_sign_ins")
    .executeTakeFirst();
  if (!counted) {
    const held = await db
      .selectFrom("users")
      .select("locked_until")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return { claimed: false, lockedUntil: held.locked_until ?? at };
  }
  const failures = counted.failed_sign_ins;
  const waitMs = signInBackoffMs(failures, failuresBeforeBackoff);
  const lockedUntil = waitMs > 0 ? nowIso(new Date(now.getTime() + waitMs)) : null;
  if (lockedUntil) {
    await db
      .updateTable("users")
      .set({ locked_until: lockedUntil })
      .where("id", "=", userId)
      .execute();
  }
  return { claimed: true, failures, lockedUntil };
}

/** The right password for an account that may not sign in (deactivated): no guess to count. */
export async function clearFailedSignIns(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable("users")
    .set({ failed_sign_ins: 0, locked_until: null })
    .where("id", "=", userId)
    .execute();
}

export async function recordSuccessfulSignIn(
  db: Executor,
  userId: number,
  now: Date = new Date(),
): Promise<void> {
  await db
    .updateTable("users")
    .set({ failed_sign_ins: 0, locked_until: null, last_sign_in_at: nowIso(now) })
    .where("id", "=", userId)
    .execute();
}

export async function setPasswordHash(
  db: Executor,
  userId: number,
  passwordHash: string,
  now: Date = new Date(),
): Promise<void> {
  await db
    .updateTable("users")
    .set({
      password_hash: passwordHash,
      failed_sign_ins: 0,
      locked_until: null,
      updated_at: nowIso(now),
    })
    .where("id", "=", userId)
    .execute();
}

/** Activation changes clear the back-off too: a reactivated account starts afresh. */
export async function setActive(
  db: Executor,
  userId: number,
  active: boolean,
  now: Date = new Date(),
): Promise<void> {
  await db
    .updateTable("users")
    .set({
      active: active ? 1 : 0,
      failed_sign_ins: 0,
      locked_until: null,
      updated_at: nowIso(now),
    })
    .where("id", "=", userId)
    .execute();
}

/** Upper bound on one listing; the search narrows it down. */
export const ACCOUNT_LIST_LIMIT = 500;

/** Accounts for the administrators' list, each student with the submission their index number links to. */
export async function listAccounts(
  db: Executor,
  query: AdminUsersQuery & { id?: number },
): Promise<AdminUser[]> {
  let q = db
    .selectFrom("users")
    .leftJoin("submissions", "submissions.index_number", "users.index_number")
    .select([
      "users.id",
      "users.email",
      "users.name",
      "users.role",
      "users.index_number",
      "users.active",
      "users.created_at",
      "users.last_sign_in_at",
      "submissions.id as submission_id",
      "submissions.student_name",
    ])
    .orderBy("users.created_at", "desc")
    .orderBy("users.id", "desc")
    .limit(ACCOUNT_LIST_LIMIT);
  if (query.id !== undefined) q = q.where("users.id", "=", query.id);
  if (query.role) q = q.where("users.role", "=", query.role);
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // lower(...) like ... escape: case-insensitive, and literal % and _, the same in both dialects.
    const contains = (column: string) =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    q = q.where((eb) =>
      eb.or([
        contains("users.email"),
        contains("users.name"),
        contains("users.index_number"),
        contains("submissions.student_name"),
      ]),
    );
  }
  const rows = await q.execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name ?? row.student_name ?? null,
    role: row.role,
    indexNumber: row.index_number,
    active: Number(row.active) === 1,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
    submission:
      row.submission_id !== null && row.student_name !== null
        ? { id: row.submission_id, studentName: row.student_name }
        : null,
  }));
}

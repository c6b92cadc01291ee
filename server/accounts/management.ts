import type { AdminUser, AdminUsersQuery, NewAdminInput } from "../../common/accounts.js";
import type { Db } from "../db/database.js";
import { conflict, notFound } from "../errors.js";
import { deleteUserSessions, type SessionUser } from "../auth/session.js";
import { createAdmin } from "./admins.js";
import { recordAudit } from "./audit.js";
import { generateCode } from "./codes.js";
import { hashSecret } from "./passwords.js";
import { findAccountById, listAccounts, setActive } from "./repository.js";
import { issueCode, type AccountDeps, type RequestContext } from "./service.js";

/** What administrators do to accounts: list, create administrators, (de)activate, resend codes. */

export async function listUsers(db: Db, query: AdminUsersQuery): Promise<AdminUser[]> {
  return listAccounts(db, query);
}

async function getUser(db: Db, id: number): Promise<AdminUser> {
  const [user] = await listAccounts(db, { id });
  if (!user) throw notFound("No such account.");
  return user;
}

export async function createAdministrator(
  db: Db,
  input: NewAdminInput,
  actor: SessionUser,
  ctx: RequestContext,
): Promise<AdminUser> {
  const id = await createAdmin(
    db,
    { name: input.name, email: input.email, password: input.passcode },
    { userId: actor.id, ip: ctx.ip },
  );
  return getUser(db, id);
}

/**
 * Deactivating signs the account out everywhere at once (its sessions are deleted, and
 * findSessionUser refuses inactive users anyway). Nobody deactivates themselves, so the
 * administrator doing it always remains.
 */
export async function setUserActive(
  db: Db,
  userId: number,
  active: boolean,
  actor: SessionUser,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<void> {
  if (!active && userId === actor.id) {
    throw conflict("You cannot deactivate your own account.");
  }
  const account = await findAccountById(db, userId);
  if (!account) throw notFound("No such account.");
  if (account.active === active) return;
  await db.transaction().execute(async (trx) => {
    await setActive(trx, userId, active, now);
    if (!active) await deleteUserSessions(trx, userId);
    await recordAudit(
      trx,
      {
        event: active ? "user.reactivated" : "user.deactivated",
        actorUserId: actor.id,
        subject: account.email,
        ip: ctx.ip,
        details: { role: account.role },
      },
      now,
    );
  });
}

/** Mails a student a new code (the old one stops working); returns the address it went to. */
export async function resendCode(
  deps: AccountDeps,
  userId: number,
  actor: SessionUser,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<string> {
  const account = await findAccountById(deps.db, userId);
  if (!account) throw notFound("No such account.");
  if (account.role !== "student") {
    throw conflict("Administrators sign in with a passcode; codes are only for students.");
  }
  if (!account.active) throw conflict("This account is deactivated. Reactivate it first.");
  const code = generateCode();
  const codeHash = await hashSecret(code);
  await issueCode(
    deps,
    account,
    { code, codeHash },
    { event: "code.resent", actorUserId: actor.id, ip: ctx.ip },
    now,
  );
  return account.email;
}

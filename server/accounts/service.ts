import {
  ACCOUNT_MESSAGES,
  CODE_PATTERN,
  MIN_ADMIN_PASSWORD_LENGTH,
  MIN_STUDENT_PASSWORD_LENGTH,
  type ChangePasswordInput,
  type CreateUserInput,
  type Me,
  type RequestCodeInput,
  type Role,
  type SignInInput,
} from "../../common/accounts.js";
import type { Config } from "../config.js";
import type { Db } from "../db/database.js";
import { isUniqueViolation } from "../db/dialect.js";
import {
  conflict,
  forbidden,
  notFound,
  rateLimited,
  unauthorized,
  validationError,
} from "../errors.js";
import { enqueueMail } from "../mail/outbox.js";
import { signInCodeMail } from "../mail/templates.js";
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  type NewSession,
  type SessionUser,
} from "../auth/session.js";
import { describeWait } from "../auth/rate-limits.js";
import { recordAudit, type AuditEvent } from "./audit.js";
import {
  consumeCode,
  deleteUnusedCodes,
  findActiveCode,
  generateCode,
  replaceCode,
} from "./codes.js";
import { dummySecretHash, hashSecret, verifySecret } from "./passwords.js";
import {
  accountExists,
  findAccountByEmail,
  findAccountById,
  findSubmissionLink,
  insertStudent,
  claimSignInAttempt,
  clearFailedSignIns,
  recordSuccessfulSignIn,
  setPasswordHash,
  type Account,
} from "./repository.js";

/**
 * Student sign-up, sign-in (password or one-time code), code requests, password changes and
 * sign-out. Routes call these; each change and its audit row (and mail) share one transaction.
 */
export interface AccountDeps {
  db: Db;
  config: Config;
}

/** Who is asking, for the audit log. */
export interface RequestContext {
  ip: string | null;
}

/** A session begun with a mailed code may set a password without the old one for this long. */
export const CODE_SESSION_GRACE_MS = 15 * 60 * 1000;

/**
 * ETS_LOCAL_SIGN_IN (docs/decisions/010-single-sign-on.md): what a refused local sign-in or
 * sign-up is told, naming the button to use instead.
 */
export function localSignInOffMessage(config: Config): string {
  const label = config.sso.oidc?.label ?? config.sso.saml?.label ?? "your university account";
  return config.sso.localSignIn === "off"
    ? `Sign-in with a password or emailed code is turned off. Use "Sign in with ${label}" on the login page.`
    : `Students sign in with their university account: use "Sign in with ${label}" on the login page. Sign-in with a password here is for administrators only.`;
}

/** Whether ETS_LOCAL_SIGN_IN lets this role sign in with a password or code. */
function localSignInAllowed(config: Config, role: Role): boolean {
  const mode = config.sso.localSignIn;
  return mode === "on" || (mode === "admins-only" && role === "admin");
}

export async function signUp(
  { db, config }: AccountDeps,
  input: CreateUserInput,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<void> {
  const { email } = input;
  // Code sign-up is for students, whom "admins-only" and "off" both send to single sign-on.
  if (config.sso.localSignIn !== "on") throw forbidden(localSignInOffMessage(config));
  if (!emailDomainAllowed(email, config.studentEmailDomains)) {
    throw validationError(
      "email",
      `Use your institutional email address (ending in ${config.studentEmailDomains.map((d) => `@${d}`).join(" or ")}).`,
    );
  }
  if (await accountExists(db, email, input.indexNumber)) {
    throw conflict(ACCOUNT_MESSAGES.userExists);
  }
  const submission = await findSubmissionLink(db, input.indexNumber);
  const emailOnFile = submission?.studentEmail?.trim().toLowerCase() || null;
  if (emailOnFile !== null && emailOnFile !== email) {
    throw validationError(
      "email",
      "This is not the email address on file for this index number. Use the one you gave the School of Graduate Studies, or contact them.",
    );
  }
  // The record's own spelling, so the account links to it whatever case the student typed.
  const indexNumber = submission?.indexNumber ?? input.indexNumber;

  const code = generateCode();
  const codeHash = await hashSecret(code);
  const name = submission?.studentName ?? null;
  try {
    await db.transaction().execute(async (trx) => {
      const userId = await insertStudent(trx, { email, indexNumber, name }, now);
      await replaceCode(trx, userId, codeHash, now);
      await enqueueMail(
        trx,
        signInCodeMail({ to: email, name, code, publicUrl: config.publicUrl, firstCode: true }),
        now,
      );
      await recordAudit(
        trx,
        {
          event: "user.signed_up",
          actorUserId: userId,
          subject: email,
          ip: ctx.ip,
          details: { indexNumber },
        },
        now,
      );
    });
  } catch (error) {
    // Two sign-ups racing for the same email or index number: the loser is told it exists.
    if (isUniqueViolation(error)) throw conflict(ACCOUNT_MESSAGES.userExists);
    throw error;
  }
}

export function emailDomainAllowed(email: string, domains: string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

export interface SignInResult {
  session: NewSession;
  user: { role: Role; indexNumber: string | null };
}

/**
 * Accepts the account's password or its current unused code. A six-digit input is a code
 * (passwords are longer); every other input is a password. Exactly one argon2 verification runs
 * whatever the outcome, against a dummy hash when there is nothing real to check, so an unknown
 * email costs the same time as a wrong password.
 */
export async function signIn(
  { db, config }: AccountDeps,
  input: SignInInput,
  ctx: RequestContext & { replacesSessionId: number | null },
  now: Date = new Date(),
): Promise<SignInResult> {
  // "off" refuses everyone alike, before the account is looked up, so it tells nothing about it.
  if (config.sso.localSignIn === "off") {
    await recordAudit(
      db,
      {
        event: "sign_in.refused",
        subject: input.email,
        ip: ctx.ip,
        details: { reason: "local_sign_in_off" },
      },
      now,
    );
    throw forbidden(localSignInOffMessage(config));
  }
  const account = await findAccountByEmail(db, input.email);
  const candidate = input.password.trim();
  const asCode = CODE_PATTERN.test(candidate) ? candidate : null;

  if (!account) {
    await verifySecret(await dummySecretHash(), input.password);
    await recordAudit(
      db,
      {
        event: "sign_in.failed",
        subject: input.email,
        ip: ctx.ip,
        details: { reason: "unknown_email" },
      },
      now,
    );
    throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
  }

  // Counted as a failure before the check, so guesses arriving together, at one server or
  // several, cannot all be checked before the first failure holds the account back.
  const attempt = await db
    .transaction()
    .execute((trx) =>
      claimSignInAttempt(trx, account.id, config.rateLimits.accountFailuresBeforeBackoff, now),
    );
  if (!attempt.claimed) {
    await recordAudit(
      db,
      { event: "sign_in.throttled", actorUserId: account.id, subject: account.email, ip: ctx.ip },
      now,
    );
    throw rateLimited(
      `Too many failed sign-ins for this account. Please wait ${describeWait(Date.parse(attempt.lockedUntil) - now.getTime())} and try again.`,
    );
  }

  const method = asCode !== null && account.role === "student" ? "code" : "password";
  const code = method === "code" ? await findActiveCode(db, account.id, now) : null;
  const storedHash = method === "code" ? (code?.codeHash ?? null) : account.passwordHash;
  const matches =
    (await verifySecret(storedHash ?? (await dummySecretHash()), asCode ?? input.password)) &&
    storedHash !== null;

  if (!matches) {
    // Already counted when the attempt was claimed.
    await recordAudit(
      db,
      {
        event: "sign_in.failed",
        actorUserId: account.id,
        subject: account.email,
        ip: ctx.ip,
        details: {
          reason: method === "code" ? "wrong_code" : "wrong_password",
          failures: attempt.failures,
          lockedUntil: attempt.lockedUntil,
        },
      },
      now,
    );
    throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
  }

  if (!account.active) {
    await db.transaction().execute(async (trx) => {
      // The right password is no guess: the attempt claimed above does not count against it.
      await clearFailedSignIns(trx, account.id);
      await recordAudit(
        trx,
        {
          event: "sign_in.refused",
          actorUserId: account.id,
          subject: account.email,
          ip: ctx.ip,
          details: { reason: "inactive" },
        },
        now,
      );
    });
    throw forbidden(
      "This account has been deactivated. Please contact the School of Graduate Studies.",
    );
  }

  // "admins-only" refuses a student only once the password or code is right, so a wrong guess
  // and an existing student account look the same to someone trying addresses.
  if (!localSignInAllowed(config, account.role)) {
    await db.transaction().execute(async (trx) => {
      await clearFailedSignIns(trx, account.id);
      await recordAudit(
        trx,
        {
          event: "sign_in.refused",
          actorUserId: account.id,
          subject: account.email,
          ip: ctx.ip,
          details: { reason: "local_sign_in_off" },
        },
        now,
      );
    });
    throw forbidden(localSignInOffMessage(config));
  }

  const session = await db.transaction().execute(async (trx) => {
    // Single use: of two requests racing with the same code, one wins and the other is refused.
    if (code && !(await consumeCode(trx, code.id, now))) {
      throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
    }
    await recordSuccessfulSignIn(trx, account.id, now);
    if (ctx.replacesSessionId !== null) await deleteSession(trx, ctx.replacesSessionId);
    const created = await createSession(
      trx,
      account.id,
      { persistent: input.rememberMe === true, method },
      now,
    );
    await recordAudit(
      trx,
      {
        event: "sign_in.succeeded",
        actorUserId: account.id,
        subject: account.email,
        ip: ctx.ip,
        details: { method, rememberMe: input.rememberMe === true },
      },
      now,
    );
    return created;
  });
  return { session, user: { role: account.role, indexNumber: account.indexNumber } };
}

/**
 * Mails a new code to a student account and invalidates the old one. Answers the same whether
 * or not the account exists: the code is hashed either way so the time tells nothing either.
 */
export async function requestCode(
  deps: AccountDeps,
  input: RequestCodeInput,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<void> {
  // Codes are how students sign in locally; with "admins-only" or "off" nobody needs one.
  if (deps.config.sso.localSignIn !== "on") throw forbidden(localSignInOffMessage(deps.config));
  const code = generateCode();
  const codeHash = await hashSecret(code);
  const account = await findAccountByEmail(deps.db, input.email);
  if (!account || account.role !== "student" || !account.active) {
    await recordAudit(
      deps.db,
      { event: "code.requested", subject: input.email, ip: ctx.ip, details: { issued: false } },
      now,
    );
    return;
  }
  await issueCode(
    deps,
    account,
    { code, codeHash },
    { event: "code.requested", actorUserId: null, ip: ctx.ip },
    now,
  );
}

/** Stores a new code for a student, queues its mail and writes the audit row, in one transaction. */
export async function issueCode(
  { db, config }: AccountDeps,
  account: Account,
  secret: { code: string; codeHash: string },
  audit: { event: AuditEvent; actorUserId: number | null; ip: string | null },
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await replaceCode(trx, account.id, secret.codeHash, now);
    await enqueueMail(
      trx,
      signInCodeMail({
        to: account.email,
        name: account.name,
        code: secret.code,
        publicUrl: config.publicUrl,
        firstCode: false,
      }),
      now,
    );
    await recordAudit(trx, { ...audit, subject: account.email, details: { issued: true } }, now);
  });
}

/**
 * Sets the signed-in user's password. The current one is needed when the account has one, unless
 * this session began with a mailed code in the last 15 minutes: that is how a student who forgot
 * their password gets back in. Other sessions of the user end; unused codes stop working.
 */
export async function changePassword(
  { db, config }: AccountDeps,
  user: SessionUser,
  input: ChangePasswordInput,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<void> {
  const account = await findAccountById(db, user.id);
  if (!account) throw unauthorized();
  const min = account.role === "admin" ? MIN_ADMIN_PASSWORD_LENGTH : MIN_STUDENT_PASSWORD_LENGTH;
  if (input.newPassword.length < min) {
    throw validationError("newPassword", `Password must be at least ${min} characters.`);
  }

  const freshCodeSession =
    user.signInMethod === "code" &&
    now.getTime() - Date.parse(user.signedInAt) <= CODE_SESSION_GRACE_MS;
  if (account.passwordHash !== null && !freshCodeSession) {
    if (!input.currentPassword) {
      throw validationError("currentPassword", "Enter your current password.");
    }
    // Counts like a sign-in attempt, so a stolen session cannot be used to guess the password;
    // setting the new password below resets the count.
    const attempt = await db
      .transaction()
      .execute((trx) =>
        claimSignInAttempt(trx, account.id, config.rateLimits.accountFailuresBeforeBackoff, now),
      );
    if (!attempt.claimed) {
      throw rateLimited(
        `Too many wrong passwords for this account. Please wait ${describeWait(Date.parse(attempt.lockedUntil) - now.getTime())} and try again.`,
      );
    }
    if (!(await verifySecret(account.passwordHash, input.currentPassword))) {
      throw validationError("currentPassword", "Your current password is not correct.");
    }
  }

  const passwordHash = await hashSecret(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, account.id, passwordHash, now);
    await deleteUserSessions(trx, account.id, user.sessionId);
    await deleteUnusedCodes(trx, account.id);
    await recordAudit(
      trx,
      { event: "password.changed", actorUserId: account.id, subject: account.email, ip: ctx.ip },
      now,
    );
  });
}

export async function signOut(
  db: Db,
  user: SessionUser,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteSession(trx, user.sessionId);
    await recordAudit(
      trx,
      { event: "signed_out", actorUserId: user.id, subject: user.email, ip: ctx.ip },
      now,
    );
  });
}

export async function getMe(db: Db, user: SessionUser): Promise<Me> {
  const account = await findAccountById(db, user.id);
  if (!account) throw notFound();
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    indexNumber: account.indexNumber,
    hasPassword: account.passwordHash !== null,
  };
}

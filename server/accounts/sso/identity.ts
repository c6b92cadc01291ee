import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { SsoFailure, SsoProvider } from "../../../common/sso.js";
import type { Config } from "../../config.js";
import type { Db, Executor } from "../../db/database.js";
import { isUniqueViolation } from "../../db/dialect.js";
import { recordAudit } from "../audit.js";
import { findSubmissionLink, insertStudent, recordSuccessfulSignIn } from "../repository.js";
import { emailDomainAllowed } from "../service.js";
import {
  createSession,
  deleteSession,
  setSessionCookie,
  type NewSession,
} from "../../auth/session.js";
import {
  findAccountByIdentity,
  findSsoAccountByEmail,
  findSubmissionsByStudentEmail,
  indexNumberTaken,
  insertSsoAdmin,
  linkIdentity,
  touchIdentity,
  type SsoAccount,
} from "./identities.js";

/**
 * Who a person signed in through single sign-on becomes (issue 10), the same for OpenID Connect
 * and SAML: the protocol modules verify the provider's answer and turn it into an SsoIdentity;
 * this module decides which account it is, and starts the same server-side session as a password
 * sign-in.
 */
export interface SsoIdentity {
  provider: SsoProvider;
  /** The provider's stable id for the person: ID token `sub`, or the assertion's NameID. */
  subject: string;
  /** Lower case; null when the provider sent none. */
  email: string | null;
  /** OIDC `email_verified`; SAML assertions from the institution's IdP count as verified. */
  emailVerified: boolean;
  indexNumber: string | null;
  groups: string[];
  name: string | null;
}

export type SsoResolution =
  | { ok: true; userId: number; role: "student" | "admin"; email: string; created: boolean }
  | { ok: false; failure: SsoFailure };

/** What finishSsoSignIn may be told beside the identity. */
export interface FinishOptions {
  /** The local path saved when the sign-in started; ignored unless it is a path of this site. */
  returnTo?: string | null;
}

/** Where each role lands after signing in when no return path was asked for. */
export const SSO_HOME = { admin: "/admin", student: "/dashboard/status" } as const;

/**
 * How a resolution came about, for the audit row: which rule matched, or why nobody matched.
 * Never a token or an assertion.
 */
type Decision = SsoResolution & { via?: "identity" | "email" | "created"; reason?: string };

/**
 * Finishes a verified sign-in: resolves the account, creates the session and its cookie, audits,
 * and redirects to the user's home page (or the saved return path); or redirects to
 * `/auth/login?sso_error=<failure>`. Linking or creating the account, the session and the audit
 * rows are written in one transaction.
 */
export async function finishSsoSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: SsoIdentity,
  options: FinishOptions = {},
): Promise<FastifyReply> {
  const { db, config } = request.server;
  const ip = request.ip;
  const replacesSessionId = request.user?.sessionId ?? null;
  const attempt = () => signInWithIdentity(db, config, identity, { ip, replacesSessionId });
  let outcome: { decision: Decision; session: NewSession | null };
  try {
    outcome = await attempt();
  } catch (error) {
    // Two first sign-ins of the same person at once: the loser's insert of the account or the
    // identity collides; by now the winner's rows exist, so a second pass finds and uses them.
    if (!isUniqueViolation(error)) throw error;
    outcome = await attempt();
  }
  // The loser can also miss the collision: it looked the email up before the winner committed and
  // the index number after, so the winner's new account reads as someone else's. A second pass
  // finds that account by its email.
  if (!outcome.decision.ok && outcome.decision.failure === "account_taken") {
    outcome = await attempt();
  }

  const { decision, session } = outcome;
  if (!decision.ok || session === null) {
    const failure = decision.ok ? "not_allowed" : decision.failure;
    await recordSsoRefusal(request, {
      provider: identity.provider,
      failure,
      subject: identity.email,
      reason: decision.reason ?? failure,
    });
    return refuseSsoSignIn(reply, failure);
  }
  setSessionCookie(reply, config, session);
  return reply.redirect(safeReturnPath(options.returnTo) ?? SSO_HOME[decision.role], 303);
}

/**
 * The error handler of the single sign-on routes the browser navigates to (the starts, the OpenID
 * callback, the SAML ACS): their request limit's 429 brings the person back to the login page with
 * a plain message instead of the API's JSON, which a browser would show raw. Any other error goes
 * on to the app's one error handler (Fastify passes what a route's handler throws to its parent's).
 */
export function answerSsoNavigationError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error.statusCode !== 429) throw error;
  request.log.info({ code: "rate_limited", status: 429 }, "single sign-on request limit reached");
  return refuseSsoSignIn(reply, "rate_limited");
}

/** A protocol failure (provider unreachable, cancelled, bad response): back to the login page. */
export function refuseSsoSignIn(reply: FastifyReply, failure: SsoFailure): FastifyReply {
  return reply.redirect(`/auth/login?sso_error=${failure}`, 303);
}

/**
 * Audits a refused single sign-on. finishSsoSignIn does it for refusals of the person; the
 * protocol modules call it for refusals of the answer (bad signature, replay, expired), so an
 * attack leaves a trace. `reason` is a short code or a library's message, never a token.
 */
export async function recordSsoRefusal(
  request: FastifyRequest,
  entry: { provider: SsoProvider; failure: SsoFailure; reason?: string; subject?: string | null },
): Promise<void> {
  await recordAudit(request.server.db, {
    event: "sso.refused",
    subject: entry.subject ?? null,
    ip: request.ip,
    details: {
      provider: entry.provider,
      failure: entry.failure,
      reason: (entry.reason ?? entry.failure).slice(0, 300),
    },
  });
}

/**
 * A path of this site, or null: "/admin" yes; "//evil.example", "/\\evil.example",
 * "https://evil.example" and "/auth/login" (a loop back to the page that started it) no.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 500) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Control characters (a header split, a line break) and backslashes, which browsers read as "/".
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === "\\")) return null;
  if (value === "/auth" || value.startsWith("/auth/") || value.startsWith("/api/")) return null;
  return value;
}

/** Administrators come only from the directory: a listed group, or a listed verified email. */
export function isAdministratorByDirectory(identity: SsoIdentity, config: Config): boolean {
  const adminGroups = new Set(config.sso.adminGroups.map((group) => group.toLowerCase()));
  if (identity.groups.some((group) => adminGroups.has(group.toLowerCase()))) return true;
  return (
    identity.emailVerified &&
    identity.email !== null &&
    config.sso.adminEmails.includes(identity.email.toLowerCase())
  );
}

interface SignInContext {
  ip: string | null;
  replacesSessionId: number | null;
}

async function signInWithIdentity(
  db: Db,
  config: Config,
  identity: SsoIdentity,
  ctx: SignInContext,
  now: Date = new Date(),
): Promise<{ decision: Decision; session: NewSession | null }> {
  return db.transaction().execute(async (trx) => {
    const decision = await resolveSsoIdentity(trx, config, identity, now);
    if (!decision.ok) return { decision, session: null };

    await recordSuccessfulSignIn(trx, decision.userId, now);
    if (ctx.replacesSessionId !== null) await deleteSession(trx, ctx.replacesSessionId);
    const session = await createSession(
      trx,
      decision.userId,
      { persistent: false, method: identity.provider },
      now,
    );
    if (decision.created) {
      await recordAudit(
        trx,
        {
          event: "sso.account_created",
          actorUserId: decision.userId,
          subject: decision.email,
          ip: ctx.ip,
          details: { provider: identity.provider, role: decision.role },
        },
        now,
      );
    }
    await recordAudit(
      trx,
      {
        event: "sso.signed_in",
        actorUserId: decision.userId,
        subject: decision.email,
        ip: ctx.ip,
        details: { provider: identity.provider, role: decision.role, via: decision.via ?? null },
      },
      now,
    );
    return { decision, session };
  });
}

/**
 * Who becomes what (docs/decisions/010-single-sign-on.md), in this order:
 * 1. an identity already linked leads to its account;
 * 2. otherwise a verified email leads to the account holding it, and the identity is linked;
 * 3. otherwise someone the directory names an administrator gets a new administrator account;
 * 4. otherwise a student's submission, found by the index-number claim (or, without one, by the
 *    student email on file), gets a new student account, under the code sign-up's rules.
 * An administrator must still be named by the directory at every sign-in: staff who leave lose
 * access that day. A deactivated account is refused whichever way it was found.
 */
export async function resolveSsoIdentity(
  db: Executor,
  config: Config,
  identity: SsoIdentity,
  now: Date = new Date(),
): Promise<Decision> {
  const linked = await findAccountByIdentity(db, identity.provider, identity.subject);
  if (linked) {
    const refusal = refuseAccount(linked, identity, config);
    if (refusal) return refusal;
    await touchIdentity(db, identity.provider, identity.subject, now);
    return accepted(linked, false, "identity");
  }

  if (identity.email === null) return refused("no_email");
  if (!identity.emailVerified) return refused("email_not_verified");
  const email = identity.email.toLowerCase();

  const byEmail = await findSsoAccountByEmail(db, email);
  if (byEmail) {
    const refusal = refuseAccount(byEmail, identity, config);
    if (refusal) return refusal;
    await linkIdentity(
      db,
      { userId: byEmail.id, provider: identity.provider, subject: identity.subject },
      now,
    );
    return accepted(byEmail, false, "email");
  }

  if (isAdministratorByDirectory(identity, config)) {
    const id = await insertSsoAdmin(db, { email, name: identity.name }, now);
    await linkIdentity(
      db,
      { userId: id, provider: identity.provider, subject: identity.subject },
      now,
    );
    return { ok: true, userId: id, role: "admin", email, created: true, via: "created" };
  }

  return createStudent(db, config, identity, email, now);
}

async function createStudent(
  db: Executor,
  config: Config,
  identity: SsoIdentity,
  email: string,
  now: Date,
): Promise<Decision> {
  let submission: { indexNumber: string; studentName: string; studentEmail: string | null } | null;
  if (identity.indexNumber !== null && identity.indexNumber.trim() !== "") {
    submission = await findSubmissionLink(db, identity.indexNumber.trim());
    if (!submission) return refused("no_submission", "no submission for the index-number claim");
  } else {
    const matches = await findSubmissionsByStudentEmail(db, email);
    if (matches.length !== 1) {
      return refused(
        "not_allowed",
        matches.length === 0
          ? "no submission for the email and no index-number claim"
          : "several submissions carry this student email",
      );
    }
    submission = matches[0]!;
  }

  // The code sign-up's rules: an institutional address, one account per submission, and the
  // email on file (when there is one) must be this one.
  if (!emailDomainAllowed(email, config.studentEmailDomains)) {
    return refused("not_allowed", "email outside the student email domains");
  }
  const emailOnFile = submission.studentEmail?.trim().toLowerCase() || null;
  if (emailOnFile !== null && emailOnFile !== email) return refused("email_mismatch");
  if (await indexNumberTaken(db, submission.indexNumber)) return refused("account_taken");

  const id = await insertStudent(
    db,
    { email, indexNumber: submission.indexNumber, name: identity.name ?? submission.studentName },
    now,
  );
  await linkIdentity(
    db,
    { userId: id, provider: identity.provider, subject: identity.subject },
    now,
  );
  return { ok: true, userId: id, role: "student", email, created: true, via: "created" };
}

/** The refusals that apply to an account once found: deactivated, or staff no longer listed. */
function refuseAccount(
  account: SsoAccount,
  identity: SsoIdentity,
  config: Config,
): Decision | null {
  if (!account.active) return refused("deactivated");
  if (account.role === "admin" && !isAdministratorByDirectory(identity, config)) {
    return refused("not_allowed", "administrator no longer in the admin groups or emails");
  }
  return null;
}

function accepted(account: SsoAccount, created: boolean, via: "identity" | "email"): Decision {
  return { ok: true, userId: account.id, role: account.role, email: account.email, created, via };
}

function refused(failure: SsoFailure, reason?: string): Decision {
  return reason === undefined ? { ok: false, failure } : { ok: false, failure, reason };
}

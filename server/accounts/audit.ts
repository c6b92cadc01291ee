import { nowIso, type Executor } from "../db/database.js";

/**
 * The audit trail: who signed in, who failed, sign-ups, code requests, password and activation
 * changes, and uploads the virus scanner refused. Never a secret: no password, passcode, code or
 * token goes in here.
 */
export type AuditEvent =
  | "sign_in.succeeded"
  | "sign_in.failed"
  | "sign_in.throttled"
  | "sign_in.refused"
  | "signed_out"
  | "user.signed_up"
  | "code.requested"
  | "code.resent"
  | "password.changed"
  | "admin.created"
  | "user.deactivated"
  | "user.reactivated"
  | "upload.infected"
  // Examiners (issue 9): every examiner action and every administrator's move of an examination.
  | "examiner.created"
  | "examiner.updated"
  | "examiner.nominated"
  | "examiner.replaced"
  | "examiner.link_sent"
  | "examiner.link_revoked"
  | "examiner.link_refused"
  | "examiner.link_throttled"
  | "examiner.opened"
  | "examiner.thesis_downloaded"
  | "examiner.report_submitted"
  | "examiner.report_downloaded"
  | "examiner.reminder_sent"
  | "examiner.due_date_changed"
  | "examiner.corrections_approved"
  | "examination.outcome_released"
  // Single sign-on (issue 10).
  | "sso.signed_in"
  | "sso.refused"
  | "sso.account_created"
  | "sso.signed_out"
  // Publication (issue 20): the student's answers, the school's decisions, the record made public.
  | "publication.metadata_saved"
  | "publication.metadata_corrected"
  | "publication.metadata_confirmed"
  | "publication.licence_accepted"
  | "publication.licence_version_created"
  | "publication.embargo_chosen"
  | "publication.embargo_approved"
  | "publication.embargo_refused"
  | "publication.embargo_lifted"
  | "publication.published"
  | "publication.withdrawn"
  | "publication.degree_created"
  | "publication.degree_updated"
  // API tokens (issue 21, docs/decisions/022-api-tokens.md): made, revoked, and every write made
  // with one or scope refused to one, with the token's name.
  | "api_token.created"
  | "api_token.revoked"
  | "api_token.used"
  | "api_token.refused"
  // Webhooks (issue 21): endpoints made, switched, removed, and deliveries sent again.
  | "webhook.created"
  | "webhook.enabled"
  | "webhook.disabled"
  | "webhook.deleted"
  | "webhook.redelivered";

export interface AuditEntry {
  event: AuditEvent;
  /** Who did it: the signed-in user, or null for anonymous requests and the bootstrap. */
  actorUserId?: number | null;
  /** Whom it is about: an email address. */
  subject?: string | null;
  ip?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

export async function recordAudit(
  db: Executor,
  entry: AuditEntry,
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at: nowIso(now),
      event: entry.event,
      actor_user_id: entry.actorUserId ?? null,
      subject: entry.subject ?? null,
      ip: entry.ip ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    })
    .execute();
}

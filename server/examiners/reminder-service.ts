import type { FastifyBaseLogger } from "fastify";
import { describeReminderOffset, type Reminder } from "../../common/examiners.js";
import { recordAudit } from "../accounts/audit.js";
import type { SessionUser } from "../auth/session.js";
import type { Config } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { conflict, notFound } from "../errors.js";
import { issueLink } from "./links.js";
import { examinerReminderMail } from "./mail.js";
import {
  addDays,
  findExaminationForReminder,
  findLatestReminder,
  findReminderCandidates,
  insertReminder,
  lockExamination,
  type ExaminationForReminder,
  type StoredReminder,
} from "./reminder-repository.js";
import { recordExaminationEvent } from "./transitions.js";

/**
 * Reminders that chase an examiner's report (issue 9, docs/decisions/009-examiners.md): the
 * scheduled ones at config.examiners.reminderDays from the due date, and one an administrator
 * sends by hand from the overdue list. Each reminder is one transaction: its examiner_reminders
 * row, the mail in the outbox, the timeline event and the audit row, all or nothing.
 *
 * Each reminder carries a fresh link of its own (issue 24): only the tokens' hashes are stored, so
 * the invitation's link cannot be mailed again, but an examination may have several live links,
 * so the invitation's keeps working beside the reminder's until each expires or the school
 * revokes them. A late examiner who lost the invitation opens the page from the reminder.
 */

export interface ReminderContext {
  db: Db;
  config: Pick<Config, "contactEmail" | "examiners" | "publicUrl">;
  log?: Pick<FastifyBaseLogger, "error">;
}

/** At most this many examinations per scheduler run; the rest wait for the next run. */
export const REMINDER_BATCH_LIMIT = 500;
/** A reminder by hand is refused this soon after the examination's previous reminder. */
export const MANUAL_REMINDER_GAP_MS = 60 * 60 * 1000;

export interface ReminderRunReport {
  sent: number;
  /** Due but not sent: another server sent it first, the state moved, or it fell before the invitation. */
  skipped: number;
  failed: number;
}

/**
 * One run of the scheduler at `now`. For each open examination (sent or received, link working,
 * due date set) it sends the latest scheduled reminder whose day (due date + offset, UTC) has
 * come, if that one has not gone yet; at most one per examination per run. Earlier reminders that
 * were missed (the servers were down on their day) are never sent afterwards: a later one went
 * instead, and "at most once" holds per offset. A reminder whose day falls on or before the day
 * the link was mailed is not sent: the invitation itself said when the report is due.
 * Safe to run again at once, on this server or another: the unique reminder row decides.
 */
export async function sendDueReminders(
  ctx: ReminderContext,
  now: Date = new Date(),
  limit: number = REMINDER_BATCH_LIMIT,
): Promise<ReminderRunReport> {
  const today = nowIso(now).slice(0, 10);
  const offsets = ctx.config.examiners.reminderDays;
  const candidates = await findReminderCandidates(ctx.db, {
    offsets,
    today,
    nowIso: nowIso(now),
    limit,
  });
  const report: ReminderRunReport = { sent: 0, skipped: 0, failed: 0 };
  for (const candidate of candidates) {
    try {
      const sent = await remind(ctx, candidate.examinationId, candidate.offsetDays, null, now);
      report[sent ? "sent" : "skipped"] += 1;
    } catch (error) {
      // One examination's failure (a lost connection mid-way, a row removed) must not stop the rest.
      report.failed += 1;
      ctx.log?.error(
        { err: error, examinationId: candidate.examinationId },
        "examiner reminder failed",
      );
    }
  }
  return report;
}

/**
 * An administrator's reminder, from the overdue list: the same mail, offsetDays null. Refused
 * (409) when no reminder makes sense, or when the examination had one within the last hour.
 */
export async function sendManualReminder(
  ctx: ReminderContext,
  admin: SessionUser,
  examinationId: number,
  now: Date = new Date(),
): Promise<StoredReminder> {
  const reminder = await remind(ctx, examinationId, null, admin, now);
  // remind() only gives null back for a scheduled reminder; a manual one throws why instead.
  if (!reminder) throw conflict("The reminder could not be sent.");
  return reminder;
}

export function presentReminder(reminder: StoredReminder): Reminder {
  return {
    sentAt: reminder.sentAt,
    offsetDays: reminder.offsetDays,
    manual: reminder.offsetDays === null,
  };
}

/** Why the examination gets no reminder now, in words for the administrator; null when it may. */
export function reminderRefusal(examination: ExaminationForReminder, now: Date): string | null {
  switch (examination.state) {
    case "report_submitted":
      return "The examiner's report is in: no reminder is needed.";
    case "replaced":
      return "This examiner was replaced and their link no longer works: remind the current examiner instead.";
    case "nominated":
      return "The link was never sent to this examiner: send it first.";
    case "sent":
    case "received":
      break;
  }
  if (!examination.hasLink || examination.sentAt === null) {
    return "The link was never sent to this examiner: send it first.";
  }
  if (examination.linkRevokedAt !== null) {
    return "The examiner's link was revoked: send a new link instead of a reminder.";
  }
  if (examination.linkExpiresAt === null || examination.linkExpiresAt <= nowIso(now)) {
    return "The examiner's link has expired: send a new link instead of a reminder.";
  }
  return null;
}

/**
 * Sends one reminder in one transaction. Scheduled (offsetDays set, admin null): null back when it
 * is no longer due or was sent by someone else meanwhile. By hand: throws the reason instead.
 */
async function remind(
  ctx: ReminderContext,
  examinationId: number,
  offsetDays: number | null,
  admin: SessionUser | null,
  now: Date,
): Promise<StoredReminder | null> {
  const manual = offsetDays === null;
  const at = nowIso(now);
  const today = at.slice(0, 10);
  return ctx.db.transaction().execute(async (trx) => {
    // Locked first, then read: a report that arrived, a replacement or a revocation committed
    // meanwhile is seen here, and a second server's run for this examination waits for this one.
    const found = (await lockExamination(trx, examinationId))
      ? await findExaminationForReminder(trx, examinationId)
      : null;
    if (!found) {
      if (manual) throw notFound("There is no examination with this id.");
      return null;
    }
    const refusal = reminderRefusal(found, now);
    if (refusal !== null) {
      if (manual) throw conflict(refusal);
      return null;
    }
    if (manual) {
      await refuseTooSoon(trx, found.id, now);
    } else if (
      found.dueOn === null ||
      latestDueOffset(found.dueOn, today, ctx.config.examiners.reminderDays) !== offsetDays
    ) {
      // The due date was changed since the examination was picked: the next run decides again.
      return null;
    } else if (addDays(found.dueOn, offsetDays) <= (found.linkSentAt ?? at).slice(0, 10)) {
      // Its day came before the invitation (a due date set close): the invitation said it all.
      return null;
    }

    const reminder = await insertReminder(trx, {
      examinationId: found.id,
      offsetDays,
      sentBy: admin?.id ?? null,
      sentAt: at,
    });
    // Another server (or an overlapping run) recorded this scheduled reminder first: it sends it.
    if (!reminder) return null;

    await issueLink(
      trx,
      ctx.config,
      found.id,
      "reminder",
      (link) =>
        examinerReminderMail({
          to: found.examinerEmail,
          examinerName: found.examinerName,
          role: found.role,
          thesisTitle: found.thesisTitle,
          programme: found.programme,
          dueOn: found.dueOn,
          link: link.url,
          linkExpiresAt: link.expiresAt,
          invitedOn: (found.linkSentAt ?? at).slice(0, 10),
          today,
          schoolContact: ctx.config.contactEmail,
          offsetDays,
        }),
      now,
    );
    await recordExaminationEvent(trx, {
      submissionId: found.submissionId,
      actor: admin?.id ?? null,
      at,
      field: `examination.${found.role}`,
      from: null,
      to:
        offsetDays === null
          ? "reminder sent by hand"
          : `reminder ${describeReminderOffset(offsetDays)}`,
      kind: "remind",
    });
    await recordAudit(
      trx,
      {
        event: "examiner.reminder_sent",
        actorUserId: admin?.id ?? null,
        subject: found.examinerEmail,
        details: {
          examinationId: found.id,
          submissionId: found.submissionId,
          indexNumber: found.indexNumber,
          role: found.role,
          offsetDays,
          manual,
        },
      },
      now,
    );
    return reminder;
  });
}

/** The latest offset whose day (due date + offset) has come by `today`, or null when none has. */
export function latestDueOffset(
  dueOn: string,
  today: string,
  offsets: readonly number[],
): number | null {
  let latest: number | null = null;
  for (const offset of offsets) {
    if (addDays(dueOn, offset) <= today && (latest === null || offset > latest)) latest = offset;
  }
  return latest;
}

async function refuseTooSoon(trx: Executor, examinationId: number, now: Date): Promise<void> {
  const latest = await findLatestReminder(trx, examinationId);
  if (!latest) return;
  const nextAllowed = Date.parse(latest.sentAt) + MANUAL_REMINDER_GAP_MS;
  if (now.getTime() >= nextAllowed) return;
  const how =
    latest.offsetDays === null
      ? "by hand"
      : `by the schedule (${describeReminderOffset(latest.offsetDays)})`;
  throw conflict(
    `A reminder went to this examiner ${how} at ${clock(latest.sentAt)} UTC; ` +
      `another can be sent from ${clock(new Date(nextAllowed).toISOString())} UTC.`,
  );
}

/** "2025-09-15 14:05" from an ISO time. */
function clock(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

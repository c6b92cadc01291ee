import { sql } from "kysely";
import type { ExaminationState, ExaminerKind } from "../../common/examiners.js";
import type { Executor } from "../db/database.js";

/**
 * Queries behind the examiner reminders (issue 9): which examinations owe a scheduled reminder,
 * the examination as a reminder mail needs it, and the reminder rows themselves. Dates are
 * YYYY-MM-DD strings, which order as text in both databases, so the date arithmetic is done on
 * the parameters here and never on a column (no dialect-specific date functions).
 */

/** An examination whose latest due scheduled reminder has not gone yet, and that reminder. */
export interface ReminderCandidate {
  examinationId: number;
  /** YYYY-MM-DD. */
  dueOn: string;
  /** The latest of the offsets whose day (due date + offset) has come. */
  offsetDays: number;
}

/**
 * The examinations still waiting for a report whose link works, oldest due date first, at most
 * `limit`, each with the scheduled reminder offset that is its latest one due today: `offsets[i]`
 * is the latest due when `today - offsets[i+1] < due_on <= today - offsets[i]`. Only those whose
 * reminder row for that offset is missing come back, so examinations already reminded, or past
 * their last reminder, never fill the batch.
 */
export async function findReminderCandidates(
  db: Executor,
  query: {
    /** Ascending, as config.examiners.reminderDays. */
    offsets: readonly number[];
    today: string;
    nowIso: string;
    limit: number;
  },
): Promise<ReminderCandidate[]> {
  const { offsets, today } = query;
  if (offsets.length === 0) return [];
  // Largest offset first: the first band the due date falls in is the latest reminder due.
  const offsetOf = sql<number>`case ${sql.join(
    [...offsets]
      .reverse()
      // Literals: whole numbers from the config, and typed as integers on PostgreSQL.
      .map((offset) => sql`when e.due_on <= ${addDays(today, -offset)} then ${sql.lit(offset)}`),
    sql` `,
  )} end`;
  const rows = await db
    .selectFrom("examinations as e")
    .select(["e.id", "e.due_on", offsetOf.as("offset_days")])
    .where("e.state", "in", ["sent", "received"])
    .where("e.link_created_at", "is not", null)
    .where("e.link_revoked_at", "is", null)
    .where("e.link_expires_at", ">", query.nowIso)
    .where("e.due_on", "is not", null)
    // The smallest offset's day has come: some reminder is due.
    .where("e.due_on", "<=", addDays(today, -offsets[0]!))
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom("examiner_reminders as r")
            .select(sql`1`.as("one"))
            .whereRef("r.examination_id", "=", "e.id")
            .where(sql<boolean>`r.offset_days = ${offsetOf}`),
        ),
      ),
    )
    .orderBy("e.due_on")
    .orderBy("e.id")
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({
    examinationId: row.id,
    dueOn: row.due_on ?? "",
    offsetDays: Number(row.offset_days),
  }));
}

/** YYYY-MM-DD plus `days` (negative: before), in UTC. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (YYYY-MM-DD each); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round(
    (Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000,
  );
}

/**
 * Holds the examination's row until the transaction ends (a write that changes nothing): a
 * report arriving, a replacement, a revocation or another server's reminder for the same
 * examination waits for this transaction, or this one for theirs, and then reads what they wrote.
 */
export async function lockExamination(db: Executor, examinationId: number): Promise<boolean> {
  const result = await db
    .updateTable("examinations")
    .set((eb) => ({ updated_at: eb.ref("updated_at") }))
    .where("id", "=", examinationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The examination as a reminder needs it: its state, its link, the examiner and the thesis. */
export interface ExaminationForReminder {
  id: number;
  submissionId: number;
  indexNumber: string;
  role: ExaminerKind;
  state: ExaminationState;
  hasLink: boolean;
  sentAt: string | null;
  linkSentAt: string | null;
  linkExpiresAt: string | null;
  linkRevokedAt: string | null;
  dueOn: string | null;
  examinerName: string;
  examinerEmail: string;
  thesisTitle: string | null;
  programme: string;
}

export async function findExaminationForReminder(
  db: Executor,
  examinationId: number,
): Promise<ExaminationForReminder | null> {
  const row = await db
    .selectFrom("examinations as e")
    .innerJoin("examiners as x", "x.id", "e.examiner_id")
    .innerJoin("submissions as s", "s.id", "e.submission_id")
    .select([
      "e.id",
      "e.submission_id",
      "s.index_number",
      "e.role",
      "e.state",
      "e.sent_at",
      "e.link_created_at",
      "e.link_expires_at",
      "e.link_revoked_at",
      "e.due_on",
      "x.name as examiner_name",
      "x.email as examiner_email",
      "s.thesis_title",
      "s.programme",
    ])
    .where("e.id", "=", examinationId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    submissionId: row.submission_id,
    indexNumber: row.index_number,
    role: row.role,
    state: row.state,
    hasLink: row.link_created_at !== null,
    sentAt: row.sent_at,
    linkSentAt: row.link_created_at ?? row.sent_at,
    linkExpiresAt: row.link_expires_at,
    linkRevokedAt: row.link_revoked_at,
    dueOn: row.due_on,
    examinerName: row.examiner_name,
    examinerEmail: row.examiner_email,
    thesisTitle: row.thesis_title,
    programme: row.programme,
  };
}

export interface StoredReminder {
  id: number;
  examinationId: number;
  offsetDays: number | null;
  sentBy: number | null;
  sentAt: string;
}

/**
 * Records a reminder. A scheduled one (offsetDays set) is refused quietly, null back, when its
 * row exists already: another run, on this server or another, sent it. ON CONFLICT DO NOTHING
 * rather than catching the unique violation, which on PostgreSQL would end the transaction.
 * Reminders sent by hand (offsetDays null) never conflict: NULLs are distinct in the index.
 */
export async function insertReminder(
  db: Executor,
  reminder: Omit<StoredReminder, "id">,
): Promise<StoredReminder | null> {
  const row = await db
    .insertInto("examiner_reminders")
    .values({
      examination_id: reminder.examinationId,
      offset_days: reminder.offsetDays,
      sent_by: reminder.sentBy,
      sent_at: reminder.sentAt,
    })
    .onConflict((oc) => oc.columns(["examination_id", "offset_days"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row ? { id: row.id, ...reminder } : null;
}

/** The latest reminder of the examination, scheduled or by hand, or null. */
export async function findLatestReminder(
  db: Executor,
  examinationId: number,
): Promise<StoredReminder | null> {
  const row = await db
    .selectFrom("examiner_reminders")
    .selectAll()
    .where("examination_id", "=", examinationId)
    .orderBy("sent_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        examinationId: row.examination_id,
        offsetDays: row.offset_days,
        sentBy: row.sent_by,
        sentAt: row.sent_at,
      }
    : null;
}

import { sql } from "kysely";
import type { Executor } from "../submissions/repository.js";

/** Counting queries behind the administrator's dashboard cards. */

export async function countUsers(db: Executor): Promise<number> {
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function countSubmissionsCreatedSince(db: Executor, since: string): Promise<number> {
  const { count } = await db
    .selectFrom("submissions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export type GroupedColumn = "sgs_stage" | "internal_examiner" | "external_examiner";

/** How many submissions hold each value of a column; null is "not set". */
export async function countByColumn(
  db: Executor,
  column: GroupedColumn,
): Promise<{ value: string | null; count: number }[]> {
  const rows = await db
    .selectFrom("submissions")
    .select([column, (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy(column)
    .execute();
  return rows.map((row) => ({ value: row[column], count: Number(row.count) }));
}

/** New submissions per calendar month (YYYY-MM, UTC) since `since`. */
export async function countSubmissionsPerMonth(
  db: Executor,
  since: string,
): Promise<{ month: string; count: number }[]> {
  // ISO times start with YYYY-MM in both databases; substr is the same function in both.
  const month = sql<string>`substr(created_at, 1, 7)`;
  const rows = await db
    .selectFrom("submissions")
    .select([month.as("month"), (eb) => eb.fn.countAll<number>().as("count")])
    .where("created_at", ">=", since)
    .groupBy(month)
    .execute();
  return rows.map((row) => ({ month: row.month, count: Number(row.count) }));
}

export interface WaitingReport {
  id: number;
  studentName: string;
  indexNumber: string;
  state: string;
  since: string;
}

const EXAMINER_COLUMNS = {
  internalExaminer: "internal_examiner",
  externalExaminer: "external_examiner",
} as const;

/**
 * Submissions whose examiner has been in one of `states` since before `before`, longest first.
 * "Since" is the latest event that set the current state, or the record's last update when no
 * event did (sample data, imports).
 */
export async function findWaitingReports(
  db: Executor,
  field: keyof typeof EXAMINER_COLUMNS,
  states: string[],
  before: string,
  limit: number,
): Promise<{ total: number; items: WaitingReport[] }> {
  const column = EXAMINER_COLUMNS[field];
  const since = sql<string>`coalesce((select max(e.at) from submission_events e where e.submission_id = s.id and e.field = ${field} and e.to_value = s.${sql.raw(column)}), s.updated_at)`;
  const role = field === "internalExaminer" ? "internal" : "external";
  const base = db
    .selectFrom("submissions as s")
    .where(`s.${column}`, "in", states)
    .where(since, "<", before)
    // A record whose examiner got a link is followed by its due date (findOverdueExaminations);
    // this list keeps the records whose examiner state is typed by hand.
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom("examinations as x")
            .select(sql`1`.as("one"))
            .whereRef("x.submission_id", "=", "s.id")
            .where("x.role", "=", role)
            .where("x.state", "in", ["sent", "received", "report_submitted"]),
        ),
      ),
    );
  const [rows, { count }] = await Promise.all([
    base
      .select([
        "s.id",
        "s.student_name",
        "s.index_number",
        `s.${column} as state`,
        since.as("since"),
      ])
      .orderBy("since")
      .orderBy("s.id")
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count),
    items: rows.map((row) => ({
      id: row.id,
      studentName: row.student_name,
      indexNumber: row.index_number,
      state: String(row.state),
      since: row.since,
    })),
  };
}

export interface OverdueExaminationRow {
  examinationId: number;
  submissionId: number;
  indexNumber: string;
  studentName: string;
  role: "internal" | "external";
  examinerName: string;
  dueOn: string;
  state: "sent" | "received";
  remindersSent: number;
  lastReminderAt: string | null;
  lastOpenedAt: string | null;
}

/**
 * Examinations still waiting for the report (link sent, or thesis received) whose due date is
 * before `today` (YYYY-MM-DD), the longest overdue first, at most `limit`; `total` counts all.
 * A revoked or expired link keeps its examination here: the report is still owed.
 */
export async function findOverdueExaminations(
  db: Executor,
  today: string,
  limit: number,
): Promise<{ total: number; items: OverdueExaminationRow[] }> {
  const base = db
    .selectFrom("examinations as e")
    .where("e.state", "in", ["sent", "received"])
    .where("e.due_on", "is not", null)
    .where("e.due_on", "<", today);
  const [rows, { count }] = await Promise.all([
    base
      .innerJoin("submissions as s", "s.id", "e.submission_id")
      .innerJoin("examiners as x", "x.id", "e.examiner_id")
      .leftJoin(
        (eb) =>
          eb
            .selectFrom("examiner_reminders")
            .select([
              "examination_id",
              (r) => r.fn.countAll<number>().as("sent"),
              (r) => r.fn.max("sent_at").as("last_at"),
            ])
            .groupBy("examination_id")
            .as("r"),
        (join) => join.onRef("r.examination_id", "=", "e.id"),
      )
      .select([
        "e.id",
        "e.submission_id",
        "s.index_number",
        "s.student_name",
        "e.role",
        "x.name as examiner_name",
        "e.due_on",
        "e.state",
        "e.last_opened_at",
        "r.sent",
        "r.last_at",
      ])
      .orderBy("e.due_on")
      .orderBy("e.id")
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count),
    items: rows.map((row) => ({
      examinationId: row.id,
      submissionId: row.submission_id,
      indexNumber: row.index_number,
      studentName: row.student_name,
      role: row.role,
      examinerName: row.examiner_name,
      dueOn: row.due_on ?? "",
      state: row.state as "sent" | "received",
      remindersSent: Number(row.sent ?? 0),
      lastReminderAt: row.last_at ?? null,
      lastOpenedAt: row.last_opened_at,
    })),
  };
}

/**
 * Submissions with at least one current document version in a review state: "pending" (waiting
 * for the school) or "returned" (waiting for the student's new version).
 */
export async function countSubmissionsWithCurrentDocuments(
  db: Executor,
  state: "pending" | "returned",
): Promise<number> {
  const { count } = await db
    .selectFrom("submission_documents")
    .select((eb) => eb.fn.count<number>("submission_id").distinct().as("count"))
    .where("is_current", "=", 1)
    .where("review_state", "=", state)
    .executeTakeFirstOrThrow();
  return Number(count);
}

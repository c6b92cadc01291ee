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
  const base = db
    .selectFrom("submissions as s")
    .where(`s.${column}`, "in", states)
    .where(since, "<", before);
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

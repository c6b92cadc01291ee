import { sql, type SqlBool } from "kysely";
import type { LateReport, LateReports } from "../../common/reports.js";
import type { ExaminerState } from "../../common/workflow.js";
import type { Executor } from "../db/database.js";

/**
 * The one list of late examiner reports (issue 22 item 4), for the dashboard and the Reports
 * figures alike. One definition: a report is late when its due date is before today (UTC), and
 * each record says how its due date is known:
 * - "link_due_date": the examiner got a link (the examination is "sent" or "received") and the
 *   link's due date (examinations.due_on) has passed;
 * - "typed_state": the examiner's state was typed by hand ("Awaiting" or "Received") without a
 *   link; its due date is the day the state was typed (examiner_waits.since, kept by migration
 *   009's triggers) plus ETS_REPORT_OVERDUE_DAYS.
 * A record whose examiner got a link is followed by the link only (examiner_waits.linked = 1), so
 * no report is listed twice.
 */

/** Which records: every record, or one programme's, or one cohort's (year created). */
export interface LateFilters {
  programme?: string | undefined;
  cohort?: number | undefined;
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(date.slice(0, 10)) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

/**
 * The late reports on `today` (YYYY-MM-DD), the most days late first (then by record and role), at
 * most `limit`; `total` counts all.
 */
export async function findLateReports(
  db: Executor,
  filters: LateFilters,
  today: string,
  overdueDays: number,
  limit: number,
): Promise<LateReports> {
  // A typed state is late when its day + overdueDays < today: typed before this day's start.
  const typedBefore = `${addDays(today, -overdueDays)}T00:00:00.000Z`;
  const cohortFrom = filters.cohort !== undefined ? `${filters.cohort}-01-01` : null;
  const cohortTo = filters.cohort !== undefined ? `${filters.cohort + 1}-01-01` : null;

  // Driven from the open examinations and the waits (their indexes). Without a filter nothing
  // else is read (the dashboard's index-only count); with one, each row's record is looked up by
  // its key: never a list of every record of a year (a third of a million ids at 1M).
  const filtered = filters.programme !== undefined || cohortFrom !== null;
  const ofChosenRecord = (id: "e.submission_id" | "w.submission_id") =>
    sql<SqlBool>`exists (select 1 from submissions fs where fs.id = ${sql.ref(id)}${
      filters.programme !== undefined ? sql` and fs.programme = ${filters.programme}` : sql``
    }${
      cohortFrom !== null && cohortTo !== null
        ? sql` and fs.created_at >= ${cohortFrom} and fs.created_at < ${cohortTo}`
        : sql``
    })`;
  const linked = db
    .selectFrom("examinations as e")
    // Word for word the partial index's condition (migration 011).
    .where(sql<SqlBool>`e.state in ('sent', 'received')`)
    .where("e.due_on", "<", today)
    .$if(filtered, (q) => q.where(ofChosenRecord("e.submission_id")));
  const typed = db
    .selectFrom("examiner_waits as w")
    .where("w.linked", "=", 0)
    .where("w.since", "<", typedBefore)
    .$if(filtered, (q) => q.where(ofChosenRecord("w.submission_id")));

  const [linkedRows, typedRows, linkedCount, typedCount] = await Promise.all([
    linked
      .select([
        "e.id",
        "e.submission_id",
        "e.examiner_id",
        "e.role",
        "e.due_on",
        "e.state",
        "e.sent_at",
      ])
      .orderBy("e.due_on")
      .orderBy("e.id")
      .limit(limit)
      .execute(),
    typed
      .select(["w.submission_id", "w.role", "w.since"])
      .orderBy("w.since")
      .orderBy("w.submission_id")
      .limit(limit)
      .execute(),
    linked.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    typed.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);

  const ids = [
    ...new Set([
      ...linkedRows.map((r) => r.submission_id),
      ...typedRows.map((r) => r.submission_id),
    ]),
  ];
  const examinerIds = [...new Set(linkedRows.map((r) => r.examiner_id))];
  const [submissions, examiners] = await Promise.all([
    ids.length === 0
      ? []
      : db
          .selectFrom("submissions")
          .select([
            "id",
            "student_name",
            "index_number",
            "programme",
            "internal_examiner",
            "external_examiner",
          ])
          .where("id", "in", ids)
          .execute(),
    examinerIds.length === 0
      ? []
      : db.selectFrom("examiners").select(["id", "name"]).where("id", "in", examinerIds).execute(),
  ]);
  const submissionOf = new Map(submissions.map((s) => [s.id, s]));
  const examinerOf = new Map(examiners.map((x) => [x.id, x.name]));

  const items: LateReport[] = [];
  for (const row of linkedRows) {
    const s = submissionOf.get(row.submission_id);
    if (!s || row.due_on === null) continue;
    items.push({
      submissionId: s.id,
      studentName: s.student_name,
      indexNumber: s.index_number,
      programme: s.programme,
      role: row.role,
      examinerName: examinerOf.get(row.examiner_id) ?? null,
      state: row.state === "received" ? "received" : "awaiting",
      knownBy: "link_due_date",
      dueOn: row.due_on,
      since: row.sent_at ?? row.due_on,
      daysLate: daysBetween(row.due_on, today),
    });
  }
  for (const row of typedRows) {
    const s = submissionOf.get(row.submission_id);
    if (!s) continue;
    const state = (row.role === "internal" ? s.internal_examiner : s.external_examiner) ?? "";
    const dueOn = addDays(row.since, overdueDays);
    items.push({
      submissionId: s.id,
      studentName: s.student_name,
      indexNumber: s.index_number,
      programme: s.programme,
      role: row.role,
      examinerName: null,
      state: (state === "received" ? "received" : "awaiting") satisfies ExaminerState,
      knownBy: "typed_state",
      dueOn,
      since: row.since,
      daysLate: daysBetween(dueOn, today),
    });
  }
  items.sort(
    (a, b) =>
      b.daysLate - a.daysLate ||
      a.submissionId - b.submissionId ||
      a.role.localeCompare(b.role) ||
      a.knownBy.localeCompare(b.knownBy),
  );
  return {
    items: items.slice(0, limit),
    total: Number(linkedCount.n) + Number(typedCount.n),
    overdueDays,
  };
}

// The dashboard's figures timed on a loaded database, for `npm run bench` (scripts/bench.ts), and
// the examinations that bench data lacks (addBenchExaminations), so the overdue figures have
// something to find. Each figure is timed alone, then the whole service call the route makes.
import { performance } from "node:perf_hooks";
import { sql, type Insertable } from "kysely";
import type { ExaminationsTable } from "../server/db/schema.js";
import { OVERDUE_LIST_LIMIT } from "../common/submissions-api.js";
import type { Db } from "../server/db/database.js";
import { dialectOf, resetIdSequence } from "../server/db/dialect.js";
import { dashboardStats } from "../server/dashboard/service.js";
import {
  countDashboardFigures,
  countSubmissionsWithCurrentDocuments,
  countUsers,
  findOverdueExaminations,
  findWaitingReports,
} from "../server/dashboard/repository.js";
import { mulberry32, pick } from "./bench-data.js";

export interface DashboardFigure {
  /** What was timed, such as "per stage" or "GET /api/admin/stats service call". */
  kind: string;
  runs: number;
  median: number;
  p95: number;
  max: number;
}

const DAY_MS = 24 * 3600 * 1000;
const REPORT_OVERDUE_DAYS = 30;

export async function timeDashboard(db: Db, now: Date, rounds: number): Promise<DashboardFigure[]> {
  const overdueBefore = new Date(now.getTime() - REPORT_OVERDUE_DAYS * DAY_MS).toISOString();
  const today = now.toISOString().slice(0, 10);
  const cases: { kind: string; run: () => Promise<unknown> }[] = [
    {
      kind: "counts: total, this month, per stage, per examiner state, per month",
      run: () => countDashboardFigures(db),
    },
    { kind: "users", run: () => countUsers(db) },
    {
      kind: "documents waiting and returned",
      run: () =>
        Promise.all([
          countSubmissionsWithCurrentDocuments(db, "pending"),
          countSubmissionsWithCurrentDocuments(db, "returned"),
        ]),
    },
    {
      kind: "overdue reports (typed states, both examiners)",
      run: () =>
        Promise.all(
          (["internalExaminer", "externalExaminer"] as const).map((field) =>
            findWaitingReports(db, field, overdueBefore, OVERDUE_LIST_LIMIT),
          ),
        ),
    },
    {
      kind: "overdue examinations (linked examiners)",
      run: () => findOverdueExaminations(db, today, OVERDUE_LIST_LIMIT),
    },
    {
      kind: "GET /api/admin/stats service call",
      run: () => dashboardStats(db, { reportOverdueDays: REPORT_OVERDUE_DAYS }, now),
    },
  ];
  const figures: DashboardFigure[] = [];
  for (const { kind, run } of cases) {
    // One untimed call warms caches and the statement cache, as a running server has them.
    await run();
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    figures.push({ kind, runs: rounds, ...summarise(times) });
  }
  return figures;
}

function summarise(times: number[]): { median: number; p95: number; max: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (ms: number | undefined) => Math.round((ms ?? 0) * 100) / 100;
  return { median: round(at(0.5)), p95: round(at(0.95)), max: round(sorted.at(-1)) };
}

/**
 * Examinations for the generated submissions, which have none: the overdue-examinations figure
 * and the typed overdue list (which leaves out records whose examiner got a link) cost more with
 * them. Of the submissions with the stage "sent to examiners", about `share` get an examination
 * per role through the link workflow, in a spread of states and due dates (some overdue), and
 * their typed examiner state gets the event that set it. Seeded: every run adds the same rows.
 */
export async function addBenchExaminations(db: Db, now: Date, share = 0.3): Promise<number> {
  const random = mulberry32(0xe8a41);
  const at = now.toISOString();
  const examinerCount = 400;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < examinerCount; start += 200) {
      await trx
        .insertInto("examiners")
        .values(
          Array.from({ length: Math.min(200, examinerCount - start) }, (_, i) => ({
            name: `Bench Examiner ${start + i + 1}`,
            email: `bench-examiner-${start + i + 1}@uni.test`,
            institution: "Bench University",
            kind: (start + i) % 2 === 0 ? ("internal" as const) : ("external" as const),
            created_by: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
  });
  const examiners = await db.selectFrom("examiners").select(["id", "kind"]).execute();
  const byKind = {
    internal: examiners.filter((e) => e.kind === "internal").map((e) => e.id),
    external: examiners.filter((e) => e.kind === "external").map((e) => e.id),
  };
  const targets = await db
    .selectFrom("submissions")
    .select(["id", "internal_examiner", "external_examiner", "updated_at"])
    .where("sgs_stage", "=", "sent_to_examiners")
    .orderBy("id")
    .execute();
  let added = 0;
  await db.transaction().execute(async (trx) => {
    let batch: Insertable<ExaminationsTable>[] = [];
    const flush = async () => {
      if (batch.length > 0) await trx.insertInto("examinations").values(batch).execute();
      batch = [];
    };
    let events: {
      submission_id: number;
      at: string;
      field: string;
      to_value: string;
    }[] = [];
    const flushEvents = async () => {
      if (events.length === 0) return;
      await trx
        .insertInto("submission_events")
        .values(
          events.map((e) => ({
            ...e,
            actor_user_id: null,
            from_value: null,
            kind: "next",
            confirmed_out_of_order: 0,
          })),
        )
        .execute();
      events = [];
    };
    for (const target of targets) {
      for (const role of ["internal", "external"] as const) {
        const typed = role === "internal" ? target.internal_examiner : target.external_examiner;
        if (typed !== null && random() < 0.5) {
          // Half the typed states have the event that set them, within the last 200 days.
          events.push({
            submission_id: target.id,
            at: new Date(now.getTime() - Math.floor(random() * 200 * DAY_MS)).toISOString(),
            field: role === "internal" ? "internalExaminer" : "externalExaminer",
            to_value: typed,
          });
        }
        if (random() >= share) continue;
        const state = pick(random, ["nominated", "sent", "received", "report_submitted"] as const);
        const sentAt = new Date(now.getTime() - Math.floor(random() * 120 * DAY_MS));
        const sent = state !== "nominated";
        const dueOn = new Date(sentAt.getTime() + 42 * DAY_MS).toISOString().slice(0, 10);
        added += 1;
        batch.push({
          submission_id: target.id,
          examiner_id: pick(random, byKind[role]),
          role,
          state,
          nominated_by: null,
          nominated_at: sentAt.toISOString(),
          link_created_at: sent ? sentAt.toISOString() : null,
          link_expires_at: sent ? new Date(sentAt.getTime() + 120 * DAY_MS).toISOString() : null,
          sent_at: sent ? sentAt.toISOString() : null,
          due_on: sent ? dueOn : null,
          created_at: sentAt.toISOString(),
          updated_at: sentAt.toISOString(),
        });
        if (batch.length >= 200) await flush();
        if (events.length >= 500) await flushEvents();
      }
    }
    await flush();
    await flushEvents();
  });
  await resetIdSequence(db, "examinations");
  // Fresh statistics (and on PostgreSQL a visibility map, for index-only counts) for the tables
  // written here and by their triggers, as autovacuum or SQLite's `PRAGMA optimize` would leave
  // them; the loader settles only submissions. Stale ones are taken from the empty tables.
  const tables = [
    "examinations",
    "examiners",
    "submission_events",
    "examiner_waits",
    "examiner_wait_totals",
    "dashboard_counts",
  ];
  for (const table of tables) {
    if (dialectOf(db) === "postgres") await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    else await sql`analyze ${sql.table(table)}`.execute(db);
  }
  return added;
}

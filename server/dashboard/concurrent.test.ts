import { afterAll, beforeAll, expect, it } from "vitest";
import { EXAMINER_STATES, SGS_STAGES } from "../../common/workflow.js";
import { createDatabase, nowIso, type Db, type Executor } from "../db/database.js";
import { makeSubmission } from "../../testing/factories.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import {
  compactDashboardCounts,
  compactWaitingReportTotals,
  countDashboardFigures,
  countWaitingReports,
  readExaminerWaits,
  readWaitingReportTotals,
  recomputeExaminerWaits,
  recountDashboardFigures,
  recountWaitingReportTotals,
  type DashboardCounts,
} from "./repository.js";

/**
 * Migration 009's kept figures (and migration 012's totals of the waits) under concurrent writers. On PostgreSQL every writer has a pool
 * of its own (as each server has), so several connections write at once: stage moves forward
 * and backward on the same records, examiner states stepped up by one writer and down by another,
 * examinations sent and received, and bulk statements setting two groups to different stages,
 * while a reader reads the figures and folds the appended counts. Counters added to shared rows
 * would make these writers wait on each other and deadlock when two move records in opposite
 * directions; the appended counts and the ordered locks of the waits' refresh must not. On
 * SQLite (one writer at a time) the same transactions run interleaved on one connection.
 */

let database: TestDatabase;
/** One database handle per writer: its own pool (so its own connections) on PostgreSQL. */
const writers: Db[] = [];
const WRITERS = 6;
const ROUNDS = 12;

const STAGES: (string | null)[] = [null, ...SGS_STAGES];
const EXAMINER_VALUES: (string | null)[] = [null, ...EXAMINER_STATES];

beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < WRITERS; i += 1) {
    writers.push(
      database.kind === "postgres"
        ? createDatabase({ kind: "postgres", url: database.url })
        : database.db,
    );
  }
});
afterAll(async () => {
  if (database.kind === "postgres") for (const db of writers) await db.destroy();
  await database.drop();
});

function step<T>(values: T[], current: T, direction: 1 | -1): T {
  const at = values.indexOf(current);
  return values[(at + direction + values.length) % values.length] as T;
}

/** The row lock the app's services take first (submissions' lockSubmission: a no-op write). */
async function lockSubmission(db: Executor, id: number): Promise<void> {
  await db
    .updateTable("submissions")
    .set((eb) => ({ version: eb.ref("version") }))
    .where("id", "=", id)
    .execute();
}

/** One transaction per record, as a workflow move: the record's stage one step on, its event. */
async function moveStages(db: Db, ids: number[], direction: 1 | -1): Promise<void> {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const id of ids) {
      await db.transaction().execute(async (trx) => {
        await lockSubmission(trx, id);
        const row = await trx
          .selectFrom("submissions")
          .select("sgs_stage")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        const to = step(STAGES, row.sgs_stage, direction);
        const at = nowIso();
        await trx
          .updateTable("submissions")
          .set({ sgs_stage: to, updated_at: at })
          .where("id", "=", id)
          .execute();
        await trx
          .insertInto("submission_events")
          .values({
            submission_id: id,
            actor_user_id: null,
            at,
            field: "sgsStage",
            from_value: row.sgs_stage,
            to_value: to,
            kind: direction === 1 ? "next" : "reverse",
            confirmed_out_of_order: direction === 1 ? 0 : 1,
          })
          .execute();
      });
    }
  }
}

/** An examiner's typed state stepped on (or back) with the event that set it, per record. */
async function moveExaminers(
  db: Db,
  ids: number[],
  role: "internal" | "external",
  direction: 1 | -1,
): Promise<void> {
  const column = role === "internal" ? "internal_examiner" : "external_examiner";
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const id of ids) {
      await db.transaction().execute(async (trx) => {
        await lockSubmission(trx, id);
        const row = await trx
          .selectFrom("submissions")
          .select(column)
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        const from = row[column];
        const to = step(EXAMINER_VALUES, from, direction);
        const at = nowIso();
        await trx
          .updateTable("submissions")
          .set(
            role === "internal"
              ? { internal_examiner: to, updated_at: at }
              : { external_examiner: to, updated_at: at },
          )
          .where("id", "=", id)
          .execute();
        await trx
          .insertInto("submission_events")
          .values({
            submission_id: id,
            actor_user_id: null,
            at,
            field: role === "internal" ? "internalExaminer" : "externalExaminer",
            from_value: from,
            to_value: to,
            kind: "edit",
            confirmed_out_of_order: 0,
          })
          .execute();
        // The linked examination moves too (sent, received, sent, ...): the waits' "linked".
        await trx
          .updateTable("examinations")
          .set((eb) => ({
            state: eb
              .case()
              .when("state", "=", "sent")
              .then("received" as const)
              .else("sent" as const)
              .end(),
            updated_at: at,
          }))
          .where("submission_id", "=", id)
          .where("role", "=", role)
          .execute();
      });
    }
  }
}

/**
 * A bulk update: one statement sets a whole group to one stage and both examiners to one state,
 * another writes every record's events. Two of these run at once on two groups, each stepping the
 * other way, so each transaction takes away from the values the other adds to.
 */
async function bulkMoves(db: Db, ids: number[], direction: 1 | -1): Promise<void> {
  for (let round = 0; round < ROUNDS; round += 1) {
    const stage = STAGES[(round * direction + STAGES.length * ROUNDS) % STAGES.length] ?? null;
    const state =
      EXAMINER_VALUES[
        (round * direction + EXAMINER_VALUES.length * ROUNDS) % EXAMINER_VALUES.length
      ] ?? null;
    await db.transaction().execute(async (trx) => {
      const at = nowIso();
      await trx
        .updateTable("submissions")
        .set({
          sgs_stage: stage,
          internal_examiner: state,
          external_examiner: state,
          updated_at: at,
        })
        .where("id", "in", ids)
        .execute();
      await trx
        .insertInto("submission_events")
        .values(
          ids.flatMap((id) =>
            (["sgsStage", "internalExaminer", "externalExaminer"] as const).map((field) => ({
              submission_id: id,
              actor_user_id: null,
              at,
              field,
              from_value: null,
              to_value: field === "sgsStage" ? stage : state,
              kind: "bulk",
              confirmed_out_of_order: 0,
            })),
          ),
        )
        .execute();
    });
  }
}

async function countEvents(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom("submission_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Plain objects without zero entries, so kept and recounted figures compare with toEqual. */
function plain(counts: DashboardCounts): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(counts).map(([figure, values]) => [
      figure,
      Object.fromEntries([...values].filter(([, n]) => n !== 0).sort()),
    ]),
  );
}

it("keeps exact counts, waits and wait totals, without a deadlock, under concurrent writers moving records both ways", async () => {
  const { db } = database;
  const at = "2025-07-01T09:00:00.000Z";
  const ids: number[] = [];
  for (let i = 0; i < 24; i += 1) {
    const submission = await makeSubmission(db, {
      sgsStage: "sent_to_examiners",
      internalExaminer: "awaiting",
      externalExaminer: i % 2 === 0 ? "received" : null,
    });
    ids.push(submission.id);
  }
  const examiner = await db
    .insertInto("examiners")
    .values({
      name: "Dr. Concurrent",
      email: "concurrent@uni.test",
      institution: "KNUST",
      kind: "internal",
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Half the records get a linked examination per role, so the writers' moves change "linked".
  await db
    .insertInto("examinations")
    .values(
      ids
        .filter((_, i) => i % 2 === 0)
        .flatMap((id) =>
          (["internal", "external"] as const).map((role) => ({
            submission_id: id,
            examiner_id: examiner.id,
            role,
            state: "sent" as const,
            nominated_by: null,
            nominated_at: at,
            sent_at: at,
            due_on: "2025-08-12",
            created_at: at,
            updated_at: at,
          })),
        ),
    )
    .execute();

  const eventsBefore = await countEvents(db);
  const shared = ids.slice(0, 12);
  const groupA = ids.slice(12, 18);
  const groupB = ids.slice(18, 24);
  let done = false;
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      await countDashboardFigures(db);
      await readExaminerWaits(db);
      await countWaitingReports(db, "internal", nowIso());
      // Folding while writers append: its delete must take only committed rows, once.
      if (database.kind === "postgres") {
        await compactDashboardCounts(db);
        await compactWaitingReportTotals(db);
      }
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const results = await Promise.allSettled([
    moveStages(writers[0] as Db, shared, 1),
    moveStages(writers[1] as Db, [...shared].reverse(), -1),
    moveExaminers(writers[2] as Db, shared, "internal", 1),
    moveExaminers(writers[3] as Db, [...shared].reverse(), "external", -1),
    bulkMoves(writers[4] as Db, groupA, 1),
    bulkMoves(writers[5] as Db, groupB, -1),
  ]);
  done = true;
  await reader;

  const failures = results.flatMap((r) =>
    r.status === "rejected"
      ? [r.reason instanceof Error ? r.reason.message : String(r.reason)]
      : [],
  );
  expect(failures).toEqual([]);
  expect(reads).toBeGreaterThan(0);
  expect(plain(await countDashboardFigures(db))).toEqual(plain(await recountDashboardFigures(db)));
  const waits = await readExaminerWaits(db);
  expect(waits).toEqual(await recomputeExaminerWaits(db));
  const totals = await readWaitingReportTotals(db);
  expect(totals).toEqual(await recountWaitingReportTotals(db));
  expect(totals.internal + totals.external).toBeGreaterThan(0);
  // The overdue totals (kept total less the recent waits) equal a fresh count, for a limit that
  // splits the waits (the writers' own times) and one past all of them.
  const times = waits.map((w) => w.since).sort();
  for (const before of [times[Math.floor(times.length / 2)] ?? "", "2999-01-01T00:00:00.000Z"]) {
    for (const role of ["internal", "external"] as const) {
      expect(await countWaitingReports(db, role, before)).toBe(
        waits.filter((w) => w.role === role && w.linked === 0 && w.since < before).length,
      );
    }
  }
  // Every move landed: one event per record moved.
  expect((await countEvents(db)) - eventsBefore).toBe(
    4 * ROUNDS * shared.length + 2 * ROUNDS * 3 * groupA.length,
  );
}, 120_000);

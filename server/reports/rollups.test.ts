import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  PROGRAMMES,
  SGS,
  generateRecord,
  insertExaminers,
  seeded,
} from "../../testing/report-history.js";
import type { Db } from "../db/database.js";
import { rebuildReportRollups, refreshReportRollups } from "../db/report-rollups.js";
import { insertSubmissionEvents } from "../submissions/repository.js";

/**
 * The rollups kept as events happen (migration 019) must always equal a full recomputation from
 * the history: after random stage moves (forward, skipping, back), edits of the programme,
 * changed examination dates, outcomes released and records deleted, on SQLite and PostgreSQL.
 */

const NOW = Date.parse("2026-01-15T12:00:00.000Z");
const START = Date.parse("2024-01-01T00:00:00.000Z");

let t: TestApp;
let ids: number[] = [];
let examiners: number[] = [];
/** Records without an examination yet: the "typed" operation types their states mostly. */
const recent: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  examiners = await insertExaminers(t.db, 3);
  const rng = seeded(7);
  for (let i = 0; i < 30; i += 1) {
    ids.push((await generateRecord(t.db, rng, examiners, { start: START, now: NOW })).id);
  }
  // Records of the last weeks, not yet with the examiners: where a state typed by hand waits.
  for (let i = 0; i < 10; i += 1) {
    const start = NOW - 40 * 86_400_000;
    const record = await generateRecord(t.db, rng, examiners, {
      start,
      now: NOW - 20 * 86_400_000,
    });
    ids.push(record.id);
    if (record.examinations.length === 0) recent.push(record.id);
  }
  expect(recent.length).toBeGreaterThan(3);
}, 120_000);
afterAll(async () => {
  await t.close();
});

type Row = [string, number, string, string, string, number, number];

/** The rollups as the readers see them: per key, the sum of its rows, zeros left out. */
async function snapshot(
  db: Db,
): Promise<{ rollups: Row[]; journeys: string[]; open: string[]; openItems: string[] }> {
  const rows = await db
    .selectFrom("report_rollups")
    .select([
      "programme",
      "cohort",
      "month",
      "figure",
      "subject",
      "days",
      (eb) => eb.fn.sum<number>("n").as("n"),
    ])
    .groupBy(["programme", "cohort", "month", "figure", "subject", "days"])
    .having(sql`sum(n)`, "<>", 0)
    .execute();
  const rollups = rows
    .map(
      (r): Row => [
        r.programme,
        Number(r.cohort),
        r.month,
        r.figure,
        r.subject,
        Number(r.days),
        Number(r.n),
      ],
    )
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const journeys = (
    await db.selectFrom("report_journeys").selectAll().orderBy("submission_id").execute()
  ).map((j) => `${j.submission_id}|${j.programme}|${Number(j.cohort)}|${j.facts}`);
  // The open reports (migration 022): their rollups as summed rows, and the items per record.
  const open = (
    await db
      .selectFrom("report_open_rollups")
      .select([
        "programme",
        "cohort",
        "kind",
        "examiner_id",
        "day",
        (eb) => eb.fn.sum<number>("n").as("n"),
      ])
      .groupBy(["programme", "cohort", "kind", "examiner_id", "day"])
      .having(sql`sum(n)`, "<>", 0)
      .execute()
  )
    .map(
      (r) =>
        `${r.programme}|${Number(r.cohort)}|${r.kind}|${r.examiner_id}|${r.day}|${Number(r.n)}`,
    )
    .sort();
  const openItems = (await db.selectFrom("report_open_items").selectAll().execute())
    .map(
      (i) =>
        `${i.submission_id}|${i.kind}|${i.role}|${i.examination_id}|${i.examiner_id}|${i.programme}|${Number(i.cohort)}|${i.day}`,
    )
    .sort();
  return { rollups, journeys, open, openItems };
}

const operation = fc.oneof(
  fc.record({
    op: fc.constant("move" as const),
    record: fc.nat(),
    to: fc.integer({ min: -1, max: 3 }),
    day: fc.integer({ min: 0, max: 700 }),
  }),
  fc.record({
    op: fc.constant("programme" as const),
    record: fc.nat(),
    programme: fc.constantFrom(...PROGRAMMES),
    day: fc.integer({ min: 0, max: 700 }),
  }),
  fc.record({
    op: fc.constant("report" as const),
    record: fc.nat(),
    day: fc.integer({ min: 0, max: 700 }),
  }),
  fc.record({
    op: fc.constant("outcome" as const),
    record: fc.nat(),
    decision: fc.constantFrom("pass", "minor_corrections", "fail"),
    day: fc.integer({ min: 0, max: 700 }),
  }),
  fc.record({ op: fc.constant("delete" as const), record: fc.nat() }),
  fc.record({
    op: fc.constant("typed" as const),
    record: fc.nat(),
    role: fc.constantFrom("internal" as const, "external" as const),
    state: fc.constantFrom("awaiting", "received", "report_submitted", null),
    day: fc.integer({ min: 0, max: 700 }),
  }),
  fc.record({
    op: fc.constant("due" as const),
    record: fc.nat(),
    day: fc.integer({ min: 0, max: 800 }),
  }),
  fc.record({
    op: fc.constant("send" as const),
    record: fc.nat(),
    role: fc.constantFrom("internal" as const, "external" as const),
    examiner: fc.nat(),
    day: fc.integer({ min: 0, max: 700 }),
  }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

function dayAt(day: number): string {
  return new Date(START + day * 86_400_000 + 3_600_000).toISOString();
}

async function event(
  id: number,
  at: string,
  field: string,
  from: string | null,
  to: string | null,
  kind: string,
) {
  await insertSubmissionEvents(t.db, [
    { submissionId: id, actorUserId: null, at, field, from, to, kind, confirmedOutOfOrder: false },
  ]);
}

/** Applies one operation as the application would: the change and its event, in one transaction. */
async function apply(op: Operation): Promise<void> {
  if (ids.length === 0) return;
  const id = ids[op.record % ids.length] ?? 0;
  switch (op.op) {
    case "move": {
      const row = await t.db
        .selectFrom("submissions")
        .select("sgs_stage")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const to = op.to < 0 ? null : (SGS[op.to] ?? null);
      await t.db.transaction().execute(async (trx) => {
        await trx.updateTable("submissions").set({ sgs_stage: to }).where("id", "=", id).execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: id,
            actorUserId: null,
            at: dayAt(op.day),
            field: "sgsStage",
            from: row.sgs_stage,
            to,
            kind: "edit",
            confirmedOutOfOrder: true,
          },
        ]);
      });
      return;
    }
    case "programme": {
      const row = await t.db
        .selectFrom("submissions")
        .select("programme")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable("submissions")
        .set({ programme: op.programme })
        .where("id", "=", id)
        .execute();
      await event(id, dayAt(op.day), "programme", row.programme, op.programme, "edit");
      return;
    }
    case "report": {
      const x = await t.db
        .selectFrom("examinations")
        .select(["id", "role", "sent_at"])
        .where("submission_id", "=", id)
        // The current examination: a replaced one (the "send" operation) stays history.
        .where("state", "<>", "replaced")
        .executeTakeFirst();
      if (!x) return;
      const at = dayAt(op.day);
      await t.db
        .updateTable("examinations")
        .set({ received_at: at, report_uploaded_at: at, state: "report_submitted" })
        .where("id", "=", x.id)
        .execute();
      await event(id, at, `examination.${x.role}`, "sent", "report_submitted", "report");
      return;
    }
    case "outcome": {
      const at = dayAt(op.day);
      await t.db.deleteFrom("examination_outcomes").where("submission_id", "=", id).execute();
      await t.db
        .insertInto("examination_outcomes")
        .values({
          submission_id: id,
          decision: op.decision,
          corrections: null,
          released_by: null,
          released_at: at,
          thesis_version_at_release: null,
          corrections_approved_at: op.decision === "minor_corrections" ? dayAt(op.day + 30) : null,
        })
        .execute();
      await event(id, at, "examination.outcome", null, op.decision, "outcome");
      return;
    }
    case "typed": {
      // Mostly a record without a link (where a typed state waits), now and then any record.
      const mine = recent.filter((r) => ids.includes(r));
      const target =
        op.record % 3 === 0 || mine.length === 0 ? id : (mine[op.record % mine.length] ?? id);
      // A state typed by hand: the record's field and its event (examiner_waits follows by the
      // triggers of migration 009; the open reports by the refresh).
      const column = op.role === "internal" ? "internal_examiner" : "external_examiner";
      const row = await t.db
        .selectFrom("submissions")
        .select([column])
        .where("id", "=", target)
        .executeTakeFirstOrThrow();
      const from = op.role === "internal" ? row.internal_examiner : row.external_examiner;
      await t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("submissions")
          .set({ [column]: op.state })
          .where("id", "=", target)
          .execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: target,
            actorUserId: null,
            at: dayAt(op.day),
            field: op.role === "internal" ? "internalExaminer" : "externalExaminer",
            from: from ?? null,
            to: op.state,
            kind: "edit",
            confirmedOutOfOrder: false,
          },
        ]);
      });
      return;
    }
    case "due": {
      const x = await t.db
        .selectFrom("examinations")
        .select(["id", "role", "due_on"])
        .where("submission_id", "=", id)
        .where("state", "in", ["sent", "received"])
        .executeTakeFirst();
      if (!x) return;
      const dueOn = dayAt(op.day).slice(0, 10);
      await t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("examinations")
          .set({ due_on: dueOn })
          .where("id", "=", x.id)
          .execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: id,
            actorUserId: null,
            at: dayAt(op.day),
            field: `examination.${x.role}`,
            from: x.due_on,
            to: dueOn,
            kind: "due_date",
            confirmedOutOfOrder: false,
          },
        ]);
      });
      return;
    }
    case "send": {
      // A new link: the current examination of the role (if any) is replaced, a new one sent.
      const at = dayAt(op.day);
      const examinerId = examiners[op.examiner % examiners.length] ?? 0;
      await t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("examinations")
          .set({ state: "replaced" })
          .where("submission_id", "=", id)
          .where("role", "=", op.role)
          .where("state", "<>", "replaced")
          .execute();
        await trx
          .insertInto("examinations")
          .values({
            submission_id: id,
            examiner_id: examinerId,
            role: op.role,
            state: "sent",
            nominated_by: null,
            nominated_at: at,
            sent_at: at,
            due_on: dayAt(op.day + 42).slice(0, 10),
            created_at: at,
            updated_at: at,
          })
          .execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: id,
            actorUserId: null,
            at,
            field: `examination.${op.role}`,
            from: "nominated",
            to: "sent",
            kind: "send",
            confirmedOutOfOrder: false,
          },
        ]);
      });
      return;
    }
    case "delete": {
      // No screen deletes a record today; a deletion takes its facts back with refreshReportRollups.
      await t.db.transaction().execute(async (trx) => {
        await trx.deleteFrom("submission_events").where("submission_id", "=", id).execute();
        await trx.deleteFrom("examination_outcomes").where("submission_id", "=", id).execute();
        await trx.deleteFrom("examinations").where("submission_id", "=", id).execute();
        await trx.deleteFrom("submissions").where("id", "=", id).execute();
        await refreshReportRollups(trx, [id]);
      });
      ids = ids.filter((other) => other !== id);
      return;
    }
  }
}

describe("the Reports rollups", () => {
  it("are filled by the history written and equal a recomputation from the start", async () => {
    const kept = await snapshot(t.db);
    expect(kept.rollups.length).toBeGreaterThan(50);
    // Not vacuous: open links were written, and counted under four combinations and two examiners.
    expect(kept.openItems.length).toBeGreaterThan(0);
    expect(kept.open.length).toBeGreaterThan(kept.openItems.length);
    expect(kept.journeys.length).toBe(ids.length);
    await rebuildReportRollups(t.db);
    expect(await snapshot(t.db)).toEqual(kept);
  });

  it("equal a full recomputation after random edits, stage reversals and deletions", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const op of ops) await apply(op);
        const kept = await snapshot(t.db);
        for (const item of kept.openItems) seen.add(item.split("|")[1] ?? "");
        await rebuildReportRollups(t.db);
        expect(await snapshot(t.db)).toEqual(kept);
      }),
      { numRuns: 15, seed: 25 },
    );
    expect(ids.length).toBeGreaterThan(0);
    // The edits reached the open reports: typed states and links were both counted on the way.
    expect([...seen].sort()).toEqual(["link", "typed"]);
  }, 300_000);

  it("stay exact under concurrent writers moving records both ways", async () => {
    const writers = ids.slice(0, 8).map((id, i) =>
      t.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("submissions")
          .select("sgs_stage")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        const to = SGS[i % 2 === 0 ? 0 : 3] ?? null;
        await trx.updateTable("submissions").set({ sgs_stage: to }).where("id", "=", id).execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: id,
            actorUserId: null,
            at: dayAt(650 + i),
            field: "sgsStage",
            from: row.sgs_stage,
            to,
            kind: "edit",
            confirmedOutOfOrder: true,
          },
        ]);
      }),
    );
    await Promise.all(writers);
    const kept = await snapshot(t.db);
    await rebuildReportRollups(t.db);
    expect(await snapshot(t.db)).toEqual(kept);
  });

  it("a change that is not counted (the examiner's reminder) leaves them as they were", async () => {
    const before = await snapshot(t.db);
    const id = ids[0] ?? 0;
    await event(id, dayAt(10), "examination.internal", null, null, "remind");
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("a move back is taken from the stage's figures and counted again", async () => {
    const id = ids[0] ?? 0;
    await t.db
      .updateTable("submissions")
      .set({ sgs_stage: "sent_to_department" })
      .where("id", "=", id)
      .execute();
    const row = await t.db
      .selectFrom("report_journeys")
      .select("facts")
      .where("submission_id", "=", id)
      .executeTakeFirstOrThrow();
    await event(
      id,
      "2025-12-20T10:00:00.000Z",
      "sgsStage",
      "nominations_ready",
      "sent_to_department",
      "reverse",
    );
    const after = await t.db
      .selectFrom("report_journeys")
      .select("facts")
      .where("submission_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(after.facts).not.toBe(row.facts);
    expect(after.facts).toContain('"f":"entered","s":"sent_to_department","m":"2025-12"');
  });
});

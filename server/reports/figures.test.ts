import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Distribution, PeriodFigures, ReportQueryInput } from "../../common/reports.js";
import { reportQuerySchema } from "../../common/reports.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import {
  PROGRAMMES,
  generateRecord,
  insertExaminers,
  seeded,
  type GeneratedRecord,
} from "../../testing/report-history.js";
import { periodRanges } from "./repository.js";
import { insertSubmissionEvents } from "../submissions/repository.js";
import { lateReports, reportFigures } from "./service.js";

/**
 * The Reports figures over a generated history (issue 22): every expected count, median and
 * percentile is computed here from the generator's own account of what it wrote, and compared
 * with what the service answers from the rollups, on SQLite and PostgreSQL.
 */

const NOW = new Date("2026-01-15T12:00:00.000Z");
const START = Date.parse("2024-01-01T00:00:00.000Z");
const SETTINGS = { reportOverdueDays: 60 };

let t: TestApp;
let admin: TestUser;
let student: TestUser;
const records: GeneratedRecord[] = [];
let examinerIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student");
  examinerIds = await insertExaminers(t.db, 4);
  const rng = seeded(22);
  for (let i = 0; i < 90; i += 1) {
    records.push(
      await generateRecord(t.db, rng, examinerIds, { start: START, now: NOW.getTime() }),
    );
  }
}, 120_000);
afterAll(async () => {
  await t.close();
});

// ---------------------------------------------------------------------------------------------
// The expected figures, computed from the generator's account

function days(from: string, to: string): number {
  return Math.round((Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / 86_400_000);
}

/** Nearest rank, from a plain sorted list (not the service's histogram walk). */
function expectedDistribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0 ? null : (sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? null);
  return { count: sorted.length, median: at(50), p75: at(75), p90: at(90) };
}

function inPeriod(at: string | null, from: string, to: string): at is string {
  return at !== null && at.slice(0, 7) >= from && at.slice(0, 7) <= to;
}

interface Scope {
  programme?: string;
  cohort?: number;
}

function chosen(scope: Scope): GeneratedRecord[] {
  return records.filter(
    (r) =>
      (scope.programme === undefined || r.programme === scope.programme) &&
      (scope.cohort === undefined || Number(r.createdAt.slice(0, 4)) === scope.cohort),
  );
}

function expectedFigures(scope: Scope, from: string, to: string) {
  const rs = chosen(scope);
  const stages: Record<string, { days: number[]; unknown: number }> = {};
  for (const stage of [
    "awaiting_review",
    "sent_to_department",
    "nominations_ready",
    "sent_to_examiners",
    "corrections",
  ]) {
    stages[stage] = { days: [], unknown: 0 };
  }
  const span: number[] = [];
  let spanUnknown = 0;
  const legs: Record<string, number[]> = {};
  const perExaminer = new Map<number, number[]>();
  const outcomes: Record<string, number> = {};
  const throughput = new Map<string, { entered: number; left: number }>();
  const flow = (month: string, stage: string, what: "entered" | "left") => {
    const key = `${month}|${stage}`;
    const row = throughput.get(key) ?? { entered: 0, left: 0 };
    row[what] += 1;
    throughput.set(key, row);
  };
  let correctionsPending = 0;
  for (const r of rs) {
    for (const v of r.visits) {
      const figure = stages[v.stage];
      if (!figure) throw new Error(`unexpected stage ${v.stage}`);
      if (inPeriod(v.start, from, to)) flow(v.start.slice(0, 7), v.stage, "entered");
      if (inPeriod(v.end, from, to)) {
        flow(v.end.slice(0, 7), v.stage, "left");
        if (v.start === null) figure.unknown += 1;
        else figure.days.push(days(v.start, v.end));
      }
    }
    if (r.outcome) {
      const { decision, releasedAt, approvedAt } = r.outcome;
      const corrections = decision === "minor_corrections" || decision === "major_corrections";
      if (corrections && approvedAt === null) correctionsPending += 1;
      if (inPeriod(releasedAt, from, to)) {
        outcomes[decision] = (outcomes[decision] ?? 0) + 1;
        if (r.firstUpload === null) spanUnknown += 1;
        else span.push(days(r.firstUpload, releasedAt));
        if (corrections) flow(releasedAt.slice(0, 7), "corrections", "entered");
      }
      if (corrections && inPeriod(approvedAt, from, to)) {
        flow(approvedAt.slice(0, 7), "corrections", "left");
        stages.corrections?.days.push(days(releasedAt, approvedAt));
      }
    }
    for (const x of r.examinations) {
      const push = (leg: string, d: number) => {
        const key = `${x.role}:${leg}`;
        (legs[key] ??= []).push(d);
      };
      if (inPeriod(x.receivedAt, from, to)) push("link_to_download", days(x.sentAt, x.receivedAt));
      if (x.receivedAt !== null && inPeriod(x.reportAt, from, to)) {
        push("download_to_report", days(x.receivedAt, x.reportAt));
      }
      if (inPeriod(x.reportAt, from, to)) {
        push("link_to_report", days(x.sentAt, x.reportAt));
        const list = perExaminer.get(x.examinerId) ?? [];
        list.push(days(x.sentAt, x.reportAt));
        perExaminer.set(x.examinerId, list);
      }
    }
  }
  return { stages, span, spanUnknown, legs, perExaminer, outcomes, throughput, correctionsPending };
}

function compare(actual: PeriodFigures, scope: Scope) {
  const expected = expectedFigures(scope, actual.from, actual.to);
  for (const figure of actual.stages) {
    const want = expected.stages[figure.stage];
    expect(figure.days, figure.stage).toEqual(expectedDistribution(want?.days ?? []));
    expect(figure.unknownHistory, figure.stage).toBe(want?.unknown ?? 0);
  }
  expect(actual.total.days).toEqual(expectedDistribution(expected.span));
  expect(actual.total.unknownHistory).toBe(expected.spanUnknown);
  for (const kind of actual.turnaround) {
    for (const leg of ["link_to_download", "download_to_report", "link_to_report"] as const) {
      expect(kind.legs[leg], `${kind.kind} ${leg}`).toEqual(
        expectedDistribution(expected.legs[`${kind.kind}:${leg}`] ?? []),
      );
    }
  }
  for (const examiner of actual.examiners.items) {
    expect(examiner.linkToReport).toEqual(
      expectedDistribution(expected.perExaminer.get(examiner.examinerId) ?? []),
    );
    expect(examiner.examined).toBe(expected.perExaminer.get(examiner.examinerId)?.length ?? 0);
  }
  for (const { decision, count } of actual.outcomes.counts) {
    expect(count, decision).toBe(expected.outcomes[decision] ?? 0);
  }
  expect(actual.outcomes.correctionsToApproval).toEqual(actual.stages[4]?.days);
  expect(actual.outcomes.correctionsPending).toBe(expected.correctionsPending);
  for (const row of actual.throughput) {
    const want = expected.throughput.get(`${row.month}|${row.stage}`) ?? { entered: 0, left: 0 };
    expect({ entered: row.entered, left: row.left }, `${row.month} ${row.stage}`).toEqual(want);
  }
  // Every expected flow falls on a row of the answer.
  const listed = new Set(actual.throughput.map((row) => `${row.month}|${row.stage}`));
  for (const key of expected.throughput.keys()) expect(listed.has(key), key).toBe(true);
  return expected;
}

function query(input: ReportQueryInput) {
  return reportQuerySchema.parse(input);
}

describe("the Reports figures from a generated history", () => {
  it("the history has what the figures need: known and unknown histories, reversals, outcomes", () => {
    expect(records.some((r) => !r.known && r.visits.some((v) => v.start === null && v.end))).toBe(
      true,
    );
    expect(
      records.some((r) => r.visits.filter((v) => v.stage === "sent_to_department").length > 1),
    ).toBe(true);
    expect(records.filter((r) => r.outcome).length).toBeGreaterThan(5);
    expect(records.some((r) => r.outcome?.approvedAt)).toBe(true);
  });

  it("every figure of the whole history equals the one computed from the events written", async () => {
    const figures = await reportFigures(
      t.db,
      query({ from: "2024-01", to: "2026-01" }),
      NOW,
      SETTINGS,
    );
    const expected = compare(figures.current, {});
    expect(figures.previous).toBeNull();
    // Not vacuous: the history filled the figures.
    expect(figures.current.stages[0]?.days.count).toBeGreaterThan(10);
    expect(figures.current.stages.some((s) => s.unknownHistory > 0)).toBe(true);
    expect(figures.current.total.days.count).toBe(expected.span.length);
    expect(figures.current.examiners.total).toBe(examinerIds.length);
  });

  it("filters by programme and by cohort, each and both", async () => {
    const scopes: Scope[] = [
      { programme: PROGRAMMES[0] },
      { cohort: 2024 },
      { programme: PROGRAMMES[1], cohort: 2025 },
    ];
    for (const scope of scopes) {
      const figures = await reportFigures(
        t.db,
        query({
          from: "2024-01",
          to: "2026-01",
          programme: scope.programme,
          cohort: scope.cohort === undefined ? undefined : String(scope.cohort),
        }),
        NOW,
        SETTINGS,
      );
      expect(figures.filters).toEqual({
        programme: scope.programme ?? null,
        cohort: scope.cohort ?? null,
      });
      compare(figures.current, scope);
      const today = NOW.toISOString().slice(0, 10);
      const late = chosen(scope).flatMap((r) =>
        r.examinations.filter((x) => x.reportAt === null && x.dueOn < today),
      );
      expect(figures.late.total).toBe(late.length);
      for (const item of figures.late.items) {
        if (scope.programme) expect(item.programme).toBe(scope.programme);
      }
    }
  });

  it("a period and the same period a year earlier", async () => {
    const figures = await reportFigures(
      t.db,
      query({ from: "2025-01", to: "2025-09", compare: "true" }),
      NOW,
      SETTINGS,
    );
    expect(figures.current.from).toBe("2025-01");
    expect(figures.previous?.from).toBe("2024-01");
    expect(figures.previous?.to).toBe("2024-09");
    compare(figures.current, {});
    if (!figures.previous) throw new Error("no previous period");
    compare(figures.previous, {});
    expect(figures.current.throughput.length).toBe(9 * 5);
  });

  it("without a period, the twelve months ending with the current month", async () => {
    const figures = await reportFigures(t.db, query({}), NOW, SETTINGS);
    expect(figures.current.from).toBe("2025-02");
    expect(figures.current.to).toBe("2026-01");
    compare(figures.current, {});
  });

  it("late reports now: links past their due date, most days late first", async () => {
    const figures = await reportFigures(t.db, query({}), NOW, SETTINGS);
    const today = NOW.toISOString().slice(0, 10);
    const late = records.flatMap((r) =>
      r.examinations.filter((x) => x.reportAt === null && x.dueOn < today),
    );
    expect(figures.late.total).toBe(late.length);
    expect(figures.late.items.every((item) => item.knownBy === "link_due_date")).toBe(true);
    const daysLate = figures.late.items.map((item) => item.daysLate);
    expect(daysLate).toEqual([...daysLate].sort((a, b) => b - a));
    for (const item of figures.late.items) expect(item.daysLate).toBeGreaterThan(0);
    expect(late.length).toBeGreaterThan(0);
  });
});

describe("the period read as whole years and months", () => {
  it("reads whole years from yearly rows and the months around them from monthly rows", () => {
    expect(periodRanges("2023-10", "2026-02")).toEqual([
      { yearly: false, from: "2023-10", to: "2023-12", sign: 1 },
      { yearly: true, from: "2024-00", to: "2025-00", sign: 1 },
      { yearly: false, from: "2026-01", to: "2026-02", sign: 1 },
    ]);
    expect(periodRanges("2024-01", "2024-12")).toEqual([
      { yearly: true, from: "2024-00", to: "2024-00", sign: 1 },
    ]);
    expect(periodRanges("2025-03", "2025-05")).toEqual([
      { yearly: false, from: "2025-03", to: "2025-05", sign: 1 },
    ]);
  });

  it("reads more than half a year as the year less the months outside the period", () => {
    // The page's default: the twelve months ending with the current one.
    expect(periodRanges("2025-02", "2026-01")).toEqual([
      { yearly: true, from: "2025-00", to: "2025-00", sign: 1 },
      { yearly: false, from: "2025-01", to: "2025-01", sign: -1 },
      { yearly: false, from: "2026-01", to: "2026-01", sign: 1 },
    ]);
    expect(periodRanges("2023-05", "2026-09")).toEqual([
      { yearly: true, from: "2023-00", to: "2023-00", sign: 1 },
      { yearly: false, from: "2023-01", to: "2023-04", sign: -1 },
      { yearly: true, from: "2024-00", to: "2025-00", sign: 1 },
      { yearly: true, from: "2026-00", to: "2026-00", sign: 1 },
      { yearly: false, from: "2026-10", to: "2026-12", sign: -1 },
    ]);
    expect(periodRanges("2025-02", "2025-11")).toEqual([
      { yearly: true, from: "2025-00", to: "2025-00", sign: 1 },
      { yearly: false, from: "2025-01", to: "2025-01", sign: -1 },
      { yearly: false, from: "2025-12", to: "2025-12", sign: -1 },
    ]);
  });
});

describe("GET /api/admin/reports", () => {
  it("answers an administrator with the figures", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/reports?from=2024-01&to=2026-01&compare=true",
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.current.from).toBe("2024-01");
    expect(body.previous.to).toBe("2025-01");
    expect(body.current.stages).toHaveLength(5);
  });

  it("refuses a student and a visitor", async () => {
    const asStudent = await t.app.inject({
      method: "GET",
      url: "/api/admin/reports",
      headers: student.headers,
    });
    expect(asStudent.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/admin/reports" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("names the field and why when the query is wrong", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/reports?from=2025-13&to=2024-01&cohort=abc",
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(400);
    const text = res.body;
    expect(text).toContain("from");
    expect(text).toContain("must be a month (YYYY-MM)");
    expect(text).toContain("cohort");
    expect(text).not.toContain("    at ");
  });

  it("refuses a period that ends before it starts", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/reports?from=2025-06&to=2025-01",
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("must not be before from");
  });
});

describe("the late counts with states typed by hand (migration 022's rollups)", () => {
  const today = NOW.toISOString().slice(0, 10);
  // Typed more than 60 days before today is late (the day typed + 60 is before today).
  const typed: { id: number; programme: string; cohort: number; at: string }[] = [];

  beforeAll(async () => {
    // Records of the last weeks, not yet with the examiners: their states are typed by hand.
    const rng = seeded(2022);
    const bare: GeneratedRecord[] = [];
    for (let i = 0; i < 12; i += 1) {
      const r = await generateRecord(t.db, rng, examinerIds, {
        start: NOW.getTime() - 40 * 86_400_000,
        now: NOW.getTime() - 20 * 86_400_000,
        programme: PROGRAMMES[i % PROGRAMMES.length],
      });
      if (r.examinations.length === 0) bare.push(r);
    }
    for (const [i, r] of bare.entries()) {
      // Days before today: a spread across the limit (60), both sides of it.
      const at = new Date(NOW.getTime() - (20 + i * 9) * 86_400_000).toISOString();
      await t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("submissions")
          .set({ internal_examiner: i % 2 === 0 ? "awaiting" : "received" })
          .where("id", "=", r.id)
          .execute();
        await insertSubmissionEvents(trx, [
          {
            submissionId: r.id,
            actorUserId: null,
            at,
            field: "internalExaminer",
            from: null,
            to: i % 2 === 0 ? "awaiting" : "received",
            kind: "edit",
            confirmedOutOfOrder: false,
          },
        ]);
      });
      typed.push({ id: r.id, programme: r.programme, cohort: Number(r.createdAt.slice(0, 4)), at });
    }
  });

  /** The late reports of a scope from the raw rows: open examinations and the typed states. */
  async function expectedLate(scope: Scope) {
    const rows = await t.db
      .selectFrom("examinations as e")
      .innerJoin("submissions as s", "s.id", "e.submission_id")
      .select([
        "e.submission_id",
        "e.role",
        "e.due_on",
        "e.examiner_id",
        "s.programme",
        "s.created_at",
      ])
      .where("e.state", "in", ["sent", "received"])
      .execute();
    const inScope = (programme: string, cohort: number) =>
      (scope.programme === undefined || programme === scope.programme) &&
      (scope.cohort === undefined || cohort === scope.cohort);
    const linked = rows
      .filter((x) => inScope(x.programme, Number(x.created_at.slice(0, 4))))
      .map((x) => ({ ...x, daysLate: x.due_on === null ? 0 : days(x.due_on, today) }));
    const waits = typed
      .filter((w) => inScope(w.programme, w.cohort))
      .map((w) => ({ ...w, daysLate: days(w.at, today) - 60 }));
    return {
      linked,
      late: [
        ...linked
          .filter((x) => x.daysLate > 0)
          .map((x) => ({
            id: x.submission_id,
            role: x.role,
            daysLate: x.daysLate,
            knownBy: "link_due_date",
          })),
        ...waits
          .filter((w) => w.daysLate > 0)
          .map((w) => ({
            id: w.id,
            role: "internal",
            daysLate: w.daysLate,
            knownBy: "typed_state",
          })),
      ].sort(
        (a, b) =>
          b.daysLate - a.daysLate ||
          a.id - b.id ||
          a.role.localeCompare(b.role) ||
          a.knownBy.localeCompare(b.knownBy),
      ),
    };
  }

  it("counts and lists links and typed states past due, per scope, as the raw rows say", async () => {
    expect(typed.length).toBeGreaterThan(6);
    const scopes: Scope[] = [
      {},
      { programme: PROGRAMMES[0] },
      { cohort: 2024 },
      { programme: PROGRAMMES[2], cohort: 2025 },
    ];
    let typedSeen = 0;
    for (const scope of scopes) {
      const expected = await expectedLate(scope);
      for (const limit of [3, 1000]) {
        const late = await lateReports(t.db, scope, NOW, SETTINGS, limit);
        expect(late.total).toBe(expected.late.length);
        expect(
          late.items.map((x) => ({
            id: x.submissionId,
            role: x.role,
            daysLate: x.daysLate,
            knownBy: x.knownBy,
          })),
        ).toEqual(expected.late.slice(0, limit));
        typedSeen += late.items.filter((x) => x.knownBy === "typed_state").length;
      }
      // Each examiner's open links and those late now, through the page's figures.
      const figures = await reportFigures(
        t.db,
        query({
          programme: scope.programme,
          cohort: scope.cohort === undefined ? undefined : String(scope.cohort),
        }),
        NOW,
        SETTINGS,
      );
      for (const x of figures.current.examiners.items) {
        const mine = expected.linked.filter((row) => row.examiner_id === x.examinerId);
        expect(x.inProgress).toBe(mine.length);
        expect(x.lateNow).toBe(mine.filter((row) => row.daysLate > 0).length);
      }
    }
    expect(typedSeen).toBeGreaterThan(0);
  });

  it("a link sent later follows the record instead of its typed state", async () => {
    // A typed state already late: its record gets a link, due on another day.
    const first = typed.find((w) => days(w.at, today) - 60 > 0);
    if (!first) throw new Error("no late typed state");
    const before = await lateReports(t.db, {}, NOW, SETTINGS, 1000);
    const at = "2025-10-01T09:00:00.000Z";
    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("examinations")
        .values({
          submission_id: first.id,
          examiner_id: examinerIds[0] ?? 0,
          role: "internal",
          state: "sent",
          nominated_by: null,
          nominated_at: at,
          sent_at: at,
          due_on: "2025-11-12",
          created_at: at,
          updated_at: at,
        })
        .execute();
      await insertSubmissionEvents(trx, [
        {
          submissionId: first.id,
          actorUserId: null,
          at,
          field: "examination.internal",
          from: "nominated",
          to: "sent",
          kind: "send",
          confirmedOutOfOrder: false,
        },
      ]);
    });
    typed.splice(typed.indexOf(first), 1);
    const expected = await expectedLate({});
    const after = await lateReports(t.db, {}, NOW, SETTINGS, 1000);
    expect(after.total).toBe(expected.late.length);
    const mine = after.items.filter((x) => x.submissionId === first.id);
    expect(mine.map((x) => [x.knownBy, x.dueOn, x.daysLate])).toEqual([
      ["link_due_date", "2025-11-12", days("2025-11-12", today)],
    ]);
    expect(
      before.items.some((x) => x.submissionId === first.id && x.knownBy === "typed_state"),
    ).toBe(true);
  });
});

import { sql, type Kysely, type Transaction } from "kysely";
import { dialectOf } from "./dialect.js";
import type { Database, ReportOpenItemsTable } from "./schema.js";

/**
 * database.ts's Executor, spelled out: database.ts lists the migrations, and migration 019 computes
 * the first rollups with this module, so importing database.ts here would make a circle.
 */
type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The Reports figures' rollups (migration 019, docs/decisions/025-report-figures.md): what each
 * record's history gives the figures ("facts"), and the counts per figure, programme, cohort,
 * month and whole days kept from them. `refreshReportRollups` runs in the transaction that writes a
 * record's timeline events (insertSubmissionEvents), so the figures change with the history;
 * `rebuildReportRollups` computes them all again from the history (the migration, and the tests'
 * check that the kept counts equal a full recomputation).
 *
 * This module sits in db/ (the bottom row) because submissions/' repository calls it and it reads
 * only tables: it imports nothing of the folders above.
 */

/**
 * One thing a record's history gives a figure:
 * - f: the figure ("stage", "stage_unknown", "span", "span_unknown", "leg", "examiner", "outcome",
 *   "entered", "left");
 * - s: its subject (a stage, "internal:link_to_report", an examiner's id, a decision; "" for the
 *   span);
 * - m: the month it ends in (YYYY-MM, UTC);
 * - d: whole days, or -1 for a figure that counts without a duration.
 */
export interface ReportFact {
  f: string;
  s: string;
  m: string;
  d: number;
}

/** The prefix of a figure counted per year (its month is "YYYY-00"). */
export const YEARLY = "y.";

/** Rollups of every programme use this programme, of every cohort this cohort. */
export const ALL_PROGRAMMES = "";
export const ALL_COHORTS = 0;

const SGS = ["awaiting_review", "sent_to_department", "nominations_ready", "sent_to_examiners"];
const DOCUMENT_FIELDS = [
  "documents.thesis",
  "documents.turnitinReport",
  "documents.supervisorForm",
  "documents.statementOfResult",
  "documents.financialClearance",
];
const DOCUMENT_COLUMNS = [
  "thesis_submitted",
  "turnitin_report_submitted",
  "supervisor_form_submitted",
  "statement_of_result_submitted",
  "financial_clearance_submitted",
] as const;
const CORRECTIONS = ["minor_corrections", "major_corrections"];

export interface JourneyEvent {
  id: number;
  at: string;
  field: string;
  from: string | null;
  to: string | null;
  kind: string;
}

/** What one record's facts are computed from. */
export interface JourneyInput {
  createdAt: string;
  /** The record's stage now. */
  sgsStage: string | null;
  /** Whether each checklist item is submitted now, in DOCUMENT_FIELDS order. */
  documentsNow: boolean[];
  /** Its timeline events (any order). */
  events: JourneyEvent[];
  outcome: { decision: string; releasedAt: string; approvedAt: string | null } | null;
  examinations: {
    examinerId: number;
    role: string;
    sentAt: string | null;
    receivedAt: string | null;
    reportAt: string | null;
  }[];
}

/** Whole days from one ISO time to another: the difference of their UTC dates (never below 0). */
export function wholeDays(from: string, to: string): number {
  const days = (Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / 86_400_000;
  return Math.max(0, Math.round(days));
}

function month(at: string): string {
  return at.slice(0, 7);
}

/** The facts of one record's history (the definitions are in common/reports.ts). */
export function journeyFacts(input: JourneyInput): ReportFact[] {
  const facts: ReportFact[] = [];
  const events = [...input.events].sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id,
  );
  const created = events.find((e) => e.field === "submission" && e.kind === "create");
  // Known history: created here, so its first values have a start (the create event).
  const createdAt = created ? created.at : null;

  // The SGS stages: each visit from its entry to the next change of stage.
  const stageEvents = events.filter((e) => e.field === "sgsStage");
  let stage = stageEvents.length > 0 ? (stageEvents[0]?.from ?? null) : input.sgsStage;
  let since: string | null = createdAt;
  if (stage !== null && SGS.includes(stage) && since !== null) {
    facts.push({ f: "entered", s: stage, m: month(since), d: -1 });
  }
  const leave = (end: string) => {
    if (stage === null || !SGS.includes(stage)) return;
    facts.push({ f: "left", s: stage, m: month(end), d: -1 });
    facts.push(
      since === null
        ? { f: "stage_unknown", s: stage, m: month(end), d: -1 }
        : { f: "stage", s: stage, m: month(end), d: wholeDays(since, end) },
    );
  };
  for (const event of stageEvents) {
    leave(event.at);
    stage = event.to;
    since = event.at;
    if (stage !== null && SGS.includes(stage)) {
      facts.push({ f: "entered", s: stage, m: month(since), d: -1 });
    }
  }
  const outcome = input.outcome;
  if (outcome && stage === "sent_to_examiners" && (since === null || outcome.releasedAt >= since)) {
    leave(outcome.releasedAt);
  }

  if (outcome) {
    facts.push({ f: "outcome", s: outcome.decision, m: month(outcome.releasedAt), d: -1 });
    if (CORRECTIONS.includes(outcome.decision)) {
      facts.push({ f: "entered", s: "corrections", m: month(outcome.releasedAt), d: -1 });
      if (outcome.approvedAt !== null) {
        facts.push({ f: "left", s: "corrections", m: month(outcome.approvedAt), d: -1 });
        facts.push({
          f: "stage",
          s: "corrections",
          m: month(outcome.approvedAt),
          d: wholeDays(outcome.releasedAt, outcome.approvedAt),
        });
      }
    }
    // The whole span: from the first upload (a checklist item first set) to the outcome.
    const firstUpload = firstUploadOf(input, events, createdAt);
    facts.push(
      firstUpload === null
        ? { f: "span_unknown", s: "", m: month(outcome.releasedAt), d: -1 }
        : {
            f: "span",
            s: "",
            m: month(outcome.releasedAt),
            d: wholeDays(firstUpload, outcome.releasedAt),
          },
    );
  }

  for (const x of input.examinations) {
    if (x.sentAt !== null && x.receivedAt !== null) {
      facts.push({
        f: "leg",
        s: `${x.role}:link_to_download`,
        m: month(x.receivedAt),
        d: wholeDays(x.sentAt, x.receivedAt),
      });
    }
    if (x.receivedAt !== null && x.reportAt !== null) {
      facts.push({
        f: "leg",
        s: `${x.role}:download_to_report`,
        m: month(x.reportAt),
        d: wholeDays(x.receivedAt, x.reportAt),
      });
    }
    if (x.sentAt !== null && x.reportAt !== null) {
      const d = wholeDays(x.sentAt, x.reportAt);
      facts.push({ f: "leg", s: `${x.role}:link_to_report`, m: month(x.reportAt), d });
      facts.push({ f: "examiner", s: String(x.examinerId), m: month(x.reportAt), d });
    }
  }
  return facts;
}

/**
 * When the record's first checklist item was set: the create event's time if it arrived with one
 * (known history), the first event setting an item otherwise; null when unknown (it arrived by
 * import with an item already set, or no item was ever set).
 */
function firstUploadOf(
  input: JourneyInput,
  events: JourneyEvent[],
  createdAt: string | null,
): string | null {
  const hadAtStart = DOCUMENT_FIELDS.some((field, i) => {
    const first = events.find((e) => e.field === field);
    return first ? first.from !== null : (input.documentsNow[i] ?? false);
  });
  if (hadAtStart) return createdAt;
  const firstSet = events.find((e) => DOCUMENT_FIELDS.includes(e.field) && e.to !== null);
  return firstSet ? firstSet.at : null;
}

// ---------------------------------------------------------------------------------------------
// Keeping the rollups

interface Journey {
  programme: string;
  cohort: number;
  facts: string;
}

const CHUNK = 500;

/** Loads what the facts of these records are computed from; a removed record has no entry. */
async function loadJourneys(db: Executor, ids: number[]): Promise<Map<number, Journey>> {
  const journeys = new Map<number, Journey>();
  if (ids.length === 0) return journeys;
  const [submissions, events, outcomes, examinations] = await Promise.all([
    db
      .selectFrom("submissions")
      .select(["id", "programme", "created_at", "sgs_stage", ...DOCUMENT_COLUMNS])
      .where("id", "in", ids)
      .execute(),
    db
      .selectFrom("submission_events")
      .select(["id", "submission_id", "at", "field", "from_value", "to_value", "kind"])
      .where("submission_id", "in", ids)
      .where((eb) =>
        eb.or([
          eb("field", "=", "submission"),
          eb("field", "=", "sgsStage"),
          eb("field", "in", DOCUMENT_FIELDS),
        ]),
      )
      .execute(),
    db
      .selectFrom("examination_outcomes")
      .select(["submission_id", "decision", "released_at", "corrections_approved_at"])
      .where("submission_id", "in", ids)
      .execute(),
    db
      .selectFrom("examinations")
      .select([
        "submission_id",
        "examiner_id",
        "role",
        "sent_at",
        "received_at",
        "report_uploaded_at",
      ])
      .where("submission_id", "in", ids)
      .execute(),
  ]);
  const eventsOf = groupBy(events, (e) => e.submission_id);
  const examinationsOf = groupBy(examinations, (x) => x.submission_id);
  const outcomeOf = new Map(outcomes.map((o) => [o.submission_id, o]));
  for (const s of submissions) {
    const outcome = outcomeOf.get(s.id);
    const facts = journeyFacts({
      createdAt: s.created_at,
      sgsStage: s.sgs_stage,
      documentsNow: DOCUMENT_COLUMNS.map((column) => Number(s[column]) === 1),
      events: (eventsOf.get(s.id) ?? []).map((e) => ({
        id: Number(e.id),
        at: e.at,
        field: e.field,
        from: e.from_value,
        to: e.to_value,
        kind: e.kind,
      })),
      outcome: outcome
        ? {
            decision: outcome.decision,
            releasedAt: outcome.released_at,
            approvedAt: outcome.corrections_approved_at,
          }
        : null,
      examinations: (examinationsOf.get(s.id) ?? []).map((x) => ({
        examinerId: x.examiner_id,
        role: x.role,
        sentAt: x.sent_at,
        receivedAt: x.received_at,
        reportAt: x.report_uploaded_at,
      })),
    });
    journeys.set(s.id, {
      programme: s.programme,
      cohort: Number(s.created_at.slice(0, 4)),
      facts: JSON.stringify(facts),
    });
  }
  return journeys;
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** Adds (sign 1) or takes back (sign -1) a journey's facts, under all four combinations. */
function count(deltas: Map<string, number>, journey: Journey, sign: number): void {
  const facts = JSON.parse(journey.facts) as ReportFact[];
  const combos: [string, number][] = [
    [journey.programme, journey.cohort],
    [journey.programme, ALL_COHORTS],
    [ALL_PROGRAMMES, journey.cohort],
    [ALL_PROGRAMMES, ALL_COHORTS],
  ];
  for (const fact of facts) {
    // A duration is also counted under its year ("y." figures, month "YYYY-00"), so a long period
    // reads a row per year and day instead of twelve (readers: server/reports/repository.ts).
    const yearly = fact.d >= 0 || fact.f === "outcome" || fact.f.endsWith("_unknown");
    for (const [programme, cohort] of combos) {
      const key = JSON.stringify([programme, cohort, fact.m, fact.f, fact.s, fact.d]);
      deltas.set(key, (deltas.get(key) ?? 0) + sign);
      if (yearly) {
        const year = JSON.stringify([
          programme,
          cohort,
          `${fact.m.slice(0, 4)}-00`,
          `${YEARLY}${fact.f}`,
          fact.s,
          fact.d,
        ]);
        deltas.set(year, (deltas.get(year) ?? 0) + sign);
      }
    }
  }
}

/** Writes the counts' changes: SQLite adds to one row per key, PostgreSQL appends them. */
async function applyDeltas(db: Executor, deltas: Map<string, number>): Promise<void> {
  // Sorted, so two writers touching the same keys always take them in the same order.
  const rows = [...deltas]
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, n]) => {
      const [programme, cohort, m, figure, subject, days] = JSON.parse(key) as [
        string,
        number,
        string,
        string,
        string,
        number,
      ];
      return { programme, cohort, month: m, figure, subject, days, n };
    });
  const postgres = dialectOf(db) === "postgres";
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    if (postgres) {
      await db.insertInto("report_rollups").values(chunk).execute();
    } else {
      await db
        .insertInto("report_rollups")
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(["programme", "cohort", "month", "figure", "subject", "days"])
            .doUpdateSet({ n: sql<number>`report_rollups.n + excluded.n` }),
        )
        .execute();
    }
  }
}

/**
 * Computes these records' facts again from their history and moves the rollups by the difference
 * (a removed record's facts are taken back). Runs in the caller's transaction.
 */
export async function refreshReportRollups(db: Executor, submissionIds: number[]): Promise<void> {
  const ids = [...new Set(submissionIds)].sort((a, b) => a - b);
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const [old, fresh] = await Promise.all([
      db
        .selectFrom("report_journeys")
        .select(["submission_id", "programme", "cohort", "facts"])
        .where("submission_id", "in", chunk)
        .execute(),
      loadJourneys(db, chunk),
    ]);
    const deltas = new Map<string, number>();
    const changed: number[] = [];
    const oldOf = new Map(old.map((row) => [row.submission_id, row]));
    for (const id of chunk) {
      const before = oldOf.get(id);
      const after = fresh.get(id);
      if (
        before &&
        after &&
        before.facts === after.facts &&
        before.programme === after.programme &&
        Number(before.cohort) === after.cohort
      ) {
        continue;
      }
      if (before) count(deltas, { ...before, cohort: Number(before.cohort) }, -1);
      if (after) count(deltas, after, 1);
      changed.push(id);
    }
    await refreshOpenItems(db, chunk);
    if (changed.length === 0) continue;
    await db.deleteFrom("report_journeys").where("submission_id", "in", changed).execute();
    const rows = changed.flatMap((id) => {
      const after = fresh.get(id);
      return after ? [{ submission_id: id, ...after }] : [];
    });
    if (rows.length > 0) await db.insertInto("report_journeys").values(rows).execute();
    await applyDeltas(db, deltas);
  }
}

/** Every record's facts, its open reports and both rollups computed again from the data. */
export async function rebuildReportRollups(db: Executor): Promise<void> {
  await rebuildJourneyRollups(db);
  await fillOpenRollups(db);
}

/**
 * Every record's facts and report_rollups computed again from the whole history (migration 019
 * runs this alone: the open reports' tables come with migration 022).
 */
export async function rebuildJourneyRollups(db: Executor): Promise<void> {
  await db.deleteFrom("report_rollups").execute();
  await db.deleteFrom("report_journeys").execute();
  let after = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom("submissions")
        .select("id")
        .where("id", ">", after)
        .orderBy("id")
        .limit(CHUNK * 10)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) break;
    after = ids[ids.length - 1] ?? after;
    // The counts of ten chunks added up before they are written: records share most keys.
    const deltas = new Map<string, number>();
    for (let start = 0; start < ids.length; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      const journeys = await loadJourneys(db, chunk);
      for (const journey of journeys.values()) count(deltas, journey, 1);
      const rows = [...journeys].map(([id, journey]) => ({ submission_id: id, ...journey }));
      if (rows.length > 0) await db.insertInto("report_journeys").values(rows).execute();
    }
    await applyDeltas(db, deltas);
  }
  if (dialectOf(db) === "postgres") await sql`select compact_report_rollups()`.execute(db);
}

/** Folds PostgreSQL's appended changes into one row per key (nothing to do on SQLite). */
export async function compactReportRollups(db: Executor): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`select compact_report_rollups()`.execute(db);
    await sql`select compact_report_open_rollups()`.execute(db);
  }
}

// ---------------------------------------------------------------------------------------------
// The open reports (migration 022): what the late counts, the late list and the examiners' open
// links are read from, so a programme or cohort never makes a read look up every open
// examination's record.

/** An open link without a due date is never late: it sorts after every real day. */
export const NO_DUE_DAY = "9999-12-31";

/** An open report as report_open_items keeps it, without its record's id (the map's key). */
type OpenItem = Omit<ReportOpenItemsTable, "submission_id">;

function itemKey(item: OpenItem): string {
  return JSON.stringify([
    item.kind,
    item.role,
    item.examination_id,
    item.examiner_id,
    item.programme,
    item.cohort,
    item.day,
  ]);
}

/**
 * The open reports of these records now: their examinations out with a link and no report
 * (state "sent" or "received") and their typed waits without a link (examiner_waits, kept by
 * migration 009's triggers, so current by the time the caller's events are written).
 */
async function loadOpenItems(db: Executor, ids: number[]): Promise<Map<number, OpenItem[]>> {
  const items = new Map<number, OpenItem[]>();
  if (ids.length === 0) return items;
  const [submissions, links, waits] = await Promise.all([
    db
      .selectFrom("submissions")
      .select(["id", "programme", "created_at"])
      .where("id", "in", ids)
      .execute(),
    db
      .selectFrom("examinations")
      .select(["id", "submission_id", "role", "examiner_id", "due_on"])
      .where("submission_id", "in", ids)
      .where("state", "in", ["sent", "received"])
      .execute(),
    db
      .selectFrom("examiner_waits")
      .select(["submission_id", "role", "since"])
      .where("submission_id", "in", ids)
      .where("linked", "=", 0)
      .execute(),
  ]);
  const recordOf = new Map(
    submissions.map((s) => [
      s.id,
      { programme: s.programme, cohort: Number(s.created_at.slice(0, 4)) },
    ]),
  );
  const add = (id: number, item: Omit<OpenItem, "programme" | "cohort">) => {
    const record = recordOf.get(id);
    if (!record) return;
    const list = items.get(id) ?? [];
    list.push({ ...item, ...record });
    items.set(id, list);
  };
  for (const x of links) {
    add(x.submission_id, {
      kind: "link",
      role: x.role,
      examination_id: x.id,
      examiner_id: x.examiner_id,
      day: x.due_on ?? NO_DUE_DAY,
    });
  }
  for (const w of waits) {
    add(w.submission_id, {
      kind: "typed",
      role: w.role,
      examination_id: 0,
      examiner_id: 0,
      day: w.since.slice(0, 10),
    });
  }
  return items;
}

/**
 * Adds (sign 1) or takes back (sign -1) an open report under the four combinations of programme
 * and cohort; a link is counted for its examiner and for every examiner (examiner 0).
 */
function countOpen(deltas: Map<string, number>, item: OpenItem, sign: number): void {
  const examiners = item.kind === "link" ? [item.examiner_id, 0] : [0];
  for (const [programme, cohort] of [
    [item.programme, item.cohort],
    [item.programme, ALL_COHORTS],
    [ALL_PROGRAMMES, item.cohort],
    [ALL_PROGRAMMES, ALL_COHORTS],
  ] as const) {
    for (const examiner of examiners) {
      const key = JSON.stringify([programme, cohort, item.kind, examiner, item.day]);
      deltas.set(key, (deltas.get(key) ?? 0) + sign);
    }
  }
}

/** The open reports of these records compared with the kept ones; the rollups move by the change. */
async function refreshOpenItems(db: Executor, ids: number[]): Promise<void> {
  const [kept, fresh] = await Promise.all([
    db
      .selectFrom("report_open_items")
      .select([
        "submission_id",
        "kind",
        "role",
        "examination_id",
        "examiner_id",
        "programme",
        "cohort",
        "day",
      ])
      .where("submission_id", "in", ids)
      .execute(),
    loadOpenItems(db, ids),
  ]);
  const keptOf = new Map<number, OpenItem[]>();
  for (const row of kept) {
    const list = keptOf.get(row.submission_id) ?? [];
    list.push({ ...row, cohort: Number(row.cohort) });
    keptOf.set(row.submission_id, list);
  }
  const signature = (items: OpenItem[] | undefined) => (items ?? []).map(itemKey).sort().join("\n");
  const deltas = new Map<string, number>();
  const changed: number[] = [];
  for (const id of ids) {
    const before = keptOf.get(id);
    const after = fresh.get(id);
    if (signature(before) === signature(after)) continue;
    for (const item of before ?? []) countOpen(deltas, item, -1);
    for (const item of after ?? []) countOpen(deltas, item, 1);
    changed.push(id);
  }
  if (changed.length === 0) return;
  await db.deleteFrom("report_open_items").where("submission_id", "in", changed).execute();
  const rows = changed.flatMap((id) =>
    (fresh.get(id) ?? []).map((item) => ({ submission_id: id, ...item })),
  );
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto("report_open_items")
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
  const changes = [...deltas]
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, n]) => {
      const [programme, cohort, kind, examinerId, day] = JSON.parse(key) as [
        string,
        number,
        "link" | "typed",
        number,
        string,
      ];
      return { programme, cohort, kind, examiner_id: examinerId, day, n };
    });
  const postgres = dialectOf(db) === "postgres";
  for (let start = 0; start < changes.length; start += CHUNK) {
    const chunk = changes.slice(start, start + CHUNK);
    if (postgres) {
      await db.insertInto("report_open_rollups").values(chunk).execute();
    } else {
      await db
        .insertInto("report_open_rollups")
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(["programme", "cohort", "kind", "examiner_id", "day"])
            .doUpdateSet({ n: sql<number>`report_open_rollups.n + excluded.n` }),
        )
        .execute();
    }
  }
}

/**
 * The open reports and their rollups computed again from the examinations and the typed waits, in
 * two set-based statements (migration 022's fill at a million records, and the rebuild).
 */
export async function fillOpenRollups(db: Executor): Promise<void> {
  await db.deleteFrom("report_open_rollups").execute();
  await db.deleteFrom("report_open_items").execute();
  await sql`insert into report_open_items
      (submission_id, kind, role, examination_id, examiner_id, programme, cohort, day)
    select e.submission_id, 'link', e.role, e.id, e.examiner_id, s.programme,
      cast(substr(s.created_at, 1, 4) as integer), coalesce(e.due_on, ${NO_DUE_DAY})
    from examinations e join submissions s on s.id = e.submission_id
    where e.state in ('sent', 'received')
    union all
    select w.submission_id, 'typed', w.role, 0, 0, s.programme,
      cast(substr(s.created_at, 1, 4) as integer), substr(w.since, 1, 10)
    from examiner_waits w join submissions s on s.id = w.submission_id
    where w.linked = 0`.execute(db);
  // Each item under the four combinations of programme and cohort (p, c: 1 keeps its own, 0
  // every); a link under its examiner and every examiner (x), a typed wait once (examiner 0).
  await sql`insert into report_open_rollups (programme, cohort, kind, examiner_id, day, n)
    select case when k.p = 1 then i.programme else ${ALL_PROGRAMMES} end,
      case when k.c = 1 then i.cohort else ${ALL_COHORTS} end,
      i.kind, case when k.x = 1 then i.examiner_id else 0 end, i.day, count(*)
    from report_open_items i
    cross join (
      select 1 as p, 1 as c, 1 as x union all select 1, 0, 1 union all select 0, 1, 1
      union all select 0, 0, 1 union all select 1, 1, 0 union all select 1, 0, 0
      union all select 0, 1, 0 union all select 0, 0, 0
    ) k
    where k.x = 1 or i.kind = 'link'
    group by 1, 2, 3, 4, 5`.execute(db);
}

import type { Db } from "../server/db/database.js";
import { insertSubmission, insertSubmissionEvents } from "../server/submissions/repository.js";
import { submissionFields } from "./factories.js";

/**
 * A generated history for the Reports tests (issue 22): records created by hand or by import,
 * their checklist, their stage moves (some moved back and forward again), examinations with their
 * dates, outcomes and corrections, every time chosen by the generator (a controllable clock), not
 * by the machine's. Written through the repository functions the application writes with
 * (insertSubmission, insertSubmissionEvents), so the rollups are kept as in production.
 *
 * The generator also keeps its own account of what it wrote (`GeneratedRecord`): the tests compute
 * every expected figure from that account, never from the application's code.
 */

export const PROGRAMMES = ["MPhil Economics", "MSc Computer Science", "PhD Chemistry"];
export const SGS = [
  "awaiting_review",
  "sent_to_department",
  "nominations_ready",
  "sent_to_examiners",
] as const;
const DOC_COLUMNS = [
  ["thesis", "thesis_submitted"],
  ["turnitinReport", "turnitin_report_submitted"],
  ["supervisorForm", "supervisor_form_submitted"],
  ["statementOfResult", "statement_of_result_submitted"],
  ["financialClearance", "financial_clearance_submitted"],
] as const;
const DECISIONS = ["pass", "minor_corrections", "major_corrections", "resubmit", "fail"] as const;

export interface Visit {
  stage: string;
  /** null: the record held the stage when it was imported. */
  start: string | null;
  end: string | null;
}

export interface GeneratedExamination {
  examinerId: number;
  role: "internal" | "external";
  sentAt: string;
  receivedAt: string | null;
  reportAt: string | null;
  dueOn: string;
}

export interface GeneratedRecord {
  id: number;
  programme: string;
  createdAt: string;
  known: boolean;
  visits: Visit[];
  /** The first checklist item set; null when it was set before the import (unknown). */
  firstUpload: string | null;
  examinations: GeneratedExamination[];
  outcome: { decision: string; releasedAt: string; approvedAt: string | null } | null;
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export async function insertExaminers(db: Db, count: number): Promise<number[]> {
  const at = "2023-01-01T00:00:00.000Z";
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const row = await db
      .insertInto("examiners")
      .values({
        name: `Dr. Kofi Mensah ${String(i + 1).padStart(2, "0")}`,
        email: `kofi.mensah${i + 1}-${Math.random().toString(36).slice(2)}@uni.test`,
        institution: "KNUST",
        kind: i % 2 === 0 ? "internal" : "external",
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

async function event(
  db: Db,
  submissionId: number,
  at: string,
  field: string,
  from: string | null,
  to: string | null,
  kind: string,
) {
  await insertSubmissionEvents(db, [
    { submissionId, actorUserId: null, at, field, from, to, kind, confirmedOutOfOrder: false },
  ]);
}

/**
 * Writes one record's whole history, every time from `start` on and before `now`, and returns the
 * generator's account of it.
 */
export async function generateRecord(
  db: Db,
  rng: () => number,
  examinerIds: number[],
  options: { start: number; now: number; programme?: string },
): Promise<GeneratedRecord> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rng() * values.length)] as T;
  const days = (max: number) => Math.floor(rng() * max) * DAY + Math.floor(rng() * DAY);
  const programme = options.programme ?? pick(PROGRAMMES);
  const known = rng() < 0.7;
  let clock = options.start + Math.floor(rng() * (options.now - options.start) * 0.6);
  const createdAt = iso(clock);
  const initialStageIndex = known ? -1 : Math.floor(rng() * 5) - 1; // -1: no stage yet
  const initialStage = initialStageIndex >= 0 ? (SGS[initialStageIndex] ?? null) : null;
  const fields = submissionFields({ programme, sgsStage: initialStage });
  if (!known) {
    for (const [item] of DOC_COLUMNS) {
      fields.documents[item] = { submitted: true, receivedOn: null };
    }
  }
  const created = await insertSubmission(db, fields, createdAt);
  const id = created.id;
  await event(
    db,
    id,
    createdAt,
    "submission",
    null,
    created.indexNumber,
    known ? "create" : "import",
  );
  const record: GeneratedRecord = {
    id,
    programme,
    createdAt,
    known,
    visits: initialStage ? [{ stage: initialStage, start: null, end: null }] : [],
    firstUpload: null,
    examinations: [],
    outcome: null,
  };
  const later = (max: number): string | null => {
    const next = clock + days(max);
    if (next >= options.now) return null;
    clock = next;
    return iso(clock);
  };

  if (known) {
    for (const [item, column] of DOC_COLUMNS) {
      const at = later(6);
      if (at === null) return record;
      await db
        .updateTable("submissions")
        .set({ [column]: 1 })
        .where("id", "=", id)
        .execute();
      await event(db, id, at, `documents.${item}`, null, "submitted", "edit");
      record.firstUpload ??= at;
    }
  }

  let stageIndex = initialStageIndex;
  const moveTo = async (to: number, at: string) => {
    const from = stageIndex >= 0 ? (SGS[stageIndex] ?? null) : null;
    const toStage = SGS[to] ?? null;
    await db.updateTable("submissions").set({ sgs_stage: toStage }).where("id", "=", id).execute();
    const kind = to === stageIndex + 1 ? "next" : to > stageIndex ? "skip" : "reverse";
    await event(db, id, at, "sgsStage", from, toStage, kind);
    const open = record.visits[record.visits.length - 1];
    if (open && open.end === null) open.end = at;
    if (toStage) record.visits.push({ stage: toStage, start: at, end: null });
    stageIndex = to;
  };
  let reversals = 0;
  while (stageIndex < SGS.length - 1) {
    const at = later(40);
    if (at === null) return record;
    if (stageIndex >= 1 && reversals < 2 && rng() < 0.2) {
      reversals += 1;
      await moveTo(stageIndex - 1, at);
    } else {
      await moveTo(stageIndex + 1, at);
    }
  }

  // With the examiners.
  const reports: string[] = [];
  for (const role of ["internal", "external"] as const) {
    const sentAt = later(5);
    if (sentAt === null) break;
    const dueOn = iso(Date.parse(sentAt) + 30 * DAY).slice(0, 10);
    const examination: GeneratedExamination = {
      examinerId: pick(examinerIds),
      role,
      sentAt,
      receivedAt: null,
      reportAt: null,
      dueOn,
    };
    const receivedMs = Date.parse(sentAt) + days(10);
    if (receivedMs < options.now && rng() < 0.9) {
      examination.receivedAt = iso(receivedMs);
      const reportMs = receivedMs + days(60);
      if (reportMs < options.now && rng() < 0.85) {
        examination.reportAt = iso(reportMs);
        reports.push(examination.reportAt);
      }
    }
    record.examinations.push(examination);
    const state = examination.reportAt
      ? "report_submitted"
      : examination.receivedAt
        ? "received"
        : "sent";
    await db
      .insertInto("examinations")
      .values({
        submission_id: id,
        examiner_id: examination.examinerId,
        role,
        state,
        nominated_by: null,
        nominated_at: sentAt,
        sent_at: sentAt,
        due_on: dueOn,
        received_at: examination.receivedAt,
        report_uploaded_at: examination.reportAt,
        created_at: sentAt,
        updated_at: sentAt,
      })
      .execute();
    await event(db, id, sentAt, `examination.${role}`, "nominated", state, "send");
  }
  if (reports.length < 2) return record;
  clock = Math.max(...reports.map((r) => Date.parse(r)));
  const releasedAt = later(20);
  if (releasedAt === null) return record;
  const decision = pick(DECISIONS);
  await db
    .insertInto("examination_outcomes")
    .values({
      submission_id: id,
      decision,
      corrections: null,
      released_by: null,
      released_at: releasedAt,
      thesis_version_at_release: null,
    })
    .execute();
  await event(db, id, releasedAt, "examination.outcome", null, decision, "outcome");
  const open = record.visits[record.visits.length - 1];
  if (open && open.end === null && open.stage === "sent_to_examiners") open.end = releasedAt;
  record.outcome = { decision, releasedAt, approvedAt: null };
  if (decision === "minor_corrections" || decision === "major_corrections") {
    const approvedAt = later(90);
    if (approvedAt !== null) {
      await db
        .updateTable("examination_outcomes")
        .set({ corrections_approved_at: approvedAt })
        .where("submission_id", "=", id)
        .execute();
      await event(db, id, approvedAt, "examination.outcome", decision, "approved", "corrections");
      record.outcome.approvedAt = approvedAt;
    }
  }
  return record;
}

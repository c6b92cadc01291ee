// Generated submissions for the benchmarks (scripts/bench.ts, scripts/bench-load.ts): names
// recombined from the sample list's, so a three-letter term such as "ama" hits thousands of rows in
// 100,000, as it would on a real campus. Seeded: every run loads the same rows.
import { sql } from "kysely";
import { emptyDocuments, type SubmissionFields } from "../common/submission.js";
import {
  DOCUMENTS,
  EXAMINER_STATES,
  SGS_STAGES,
  type ExaminerState,
  type SgsStage,
} from "../common/workflow.js";
import type { Db } from "../server/db/database.js";
import { insertSubmissions } from "../server/submissions/repository.js";
import { generateSampleSubmissions } from "./sample-data-generator.js";

export interface GeneratedSubmission {
  fields: SubmissionFields;
  createdAt: string;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
}

export function generateSubmissions(count: number, now: Date): GeneratedSubmission[] {
  const random = mulberry32(0xbe7c4);
  const sample = generateSampleSubmissions();
  const firstNames = [...new Set(sample.map((r) => r.StudentName.split(" ")[0] ?? "Ama"))];
  const surnames = [...new Set(sample.map((r) => r.StudentName.split(" ").at(-1) ?? "Mensah"))];
  const programmes = [...new Set(sample.map((r) => r.Programme))];
  const taken = new Set<string>();
  const spanMs = 3 * 365 * 24 * 3600 * 1000;
  const out: GeneratedSubmission[] = [];
  for (let i = 0; i < count; i += 1) {
    let indexNumber: string;
    do {
      indexNumber =
        String(10 + Math.floor(random() * 11)) +
        String(Math.floor(random() * 1e6)).padStart(6, "0");
    } while (taken.has(indexNumber));
    taken.add(indexNumber);
    const stage: SgsStage | null = random() < 0.2 ? null : pick(random, SGS_STAGES);
    const examiner = (): ExaminerState | null =>
      stage === "sent_to_examiners" && random() < 0.9 ? pick(random, EXAMINER_STATES) : null;
    const documents = emptyDocuments();
    for (const item of DOCUMENTS) {
      if (stage !== null || random() < 0.6) documents[item] = { submitted: true, receivedOn: null };
    }
    const middle = random() < 0.2 ? ` ${pick(random, firstNames)}` : "";
    out.push({
      fields: {
        studentName: `${pick(random, firstNames)}${middle} ${pick(random, surnames)}`,
        indexNumber,
        programme: pick(random, programmes),
        contact: `024 ${String(Math.floor(random() * 1e7)).padStart(7, "0")}`,
        studentEmail: null,
        documents,
        sgsStage: stage,
        internalExaminer: examiner(),
        externalExaminer: examiner(),
        thesisStatus: null,
        effectiveDate: null,
      },
      createdAt: new Date(now.getTime() - Math.floor(random() * spanMs)).toISOString(),
    });
  }
  return out;
}

export async function loadSubmissions(db: Db, rows: GeneratedSubmission[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += 2000) {
      const chunk = rows.slice(start, start + 2000);
      // One creation time per chunk keeps the repository's batch insert; the spread stays wide.
      await insertSubmissions(
        trx,
        chunk.map((r) => r.fields),
        chunk[0]?.createdAt ?? new Date().toISOString(),
      );
    }
  });
  // Fresh statistics, as autovacuum (PostgreSQL) or `PRAGMA optimize` (SQLite) would keep them.
  await sql`analyze`.execute(db);
}

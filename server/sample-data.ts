import fs from "node:fs";
import { fromSubmissionRecord, type SubmissionRecord } from "../common/submission.js";
import { resolveFromRoot } from "./paths.js";
import { resetIdSequence } from "./db/dialect.js";
import type { Db } from "./db/database.js";
import { countSubmissions, insertSubmission } from "./submissions/repository.js";

const FIXTURE = "server/db/sample-data/submissions.json";

export function readSampleRecords(): SubmissionRecord[] {
  return JSON.parse(fs.readFileSync(resolveFromRoot(FIXTURE), "utf8")) as SubmissionRecord[];
}

/**
 * Loads the built-in sample list into an empty database, in one transaction, keeping the
 * prototype's ids. A database that already holds submissions is left alone, so loading twice is a
 * no-op. Creation times are spread over the months before `now` (id 1 oldest) so the dashboard's
 * monthly figures have something honest to show.
 */
export async function loadSampleData(db: Db, now: Date = new Date()): Promise<number> {
  if ((await countSubmissions(db)) > 0) return 0;
  const records = readSampleRecords();
  const monthsBack = 18;
  const spanMs = monthsBack * 30 * 24 * 3600 * 1000;
  const lastId = Math.max(...records.map((r) => r.idNo ?? 0));

  await db.transaction().execute(async (trx) => {
    for (const record of records) {
      const parsed = fromSubmissionRecord(record);
      if (!parsed.ok) {
        const problem = parsed.problems.map((p) => `${p.column} ${p.reason}`).join(", ");
        throw new Error(`Sample record ${record.idNo ?? "?"} is invalid: ${problem}`);
      }
      const id = record.idNo ?? 0;
      const createdAt = new Date(now.getTime() - spanMs + Math.round((spanMs * id) / (lastId + 1)));
      await insertSubmission(trx, parsed.fields, createdAt.toISOString(), id);
    }
    await resetIdSequence(trx, "submissions");
  });
  return records.length;
}

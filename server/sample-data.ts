import fs from "node:fs";
import {
  DEFAULT_EXAMINER_LINK_DAYS,
  DEFAULT_REPORT_DUE_DAYS,
} from "../common/examiners-constants.js";
import {
  fromSubmissionRecord,
  type SubmissionFields,
  type SubmissionRecord,
} from "../common/submission.js";
import { createStorage } from "./files/create-storage.js";
import { resolveFromRoot } from "./paths.js";
import { resetIdSequence } from "./db/dialect.js";
import type { Db } from "./db/database.js";
import { countSubmissions, insertSubmission } from "./submissions/repository.js";
import {
  applyJourney,
  checkJourneyEnd,
  insertSamplePublicationSettings,
  insertSampleExaminers,
  journeyStart,
  readSampleJourneys,
  sampleFiles,
  storeSampleFiles,
  type SampleContext,
} from "./sample-journeys.js";

export type { SampleContext } from "./sample-journeys.js";

const FIXTURE = "server/db/sample-data/submissions.json";

export function readSampleRecords(): SubmissionRecord[] {
  return JSON.parse(fs.readFileSync(resolveFromRoot(FIXTURE), "utf8")) as SubmissionRecord[];
}

function parseRecord(record: SubmissionRecord): SubmissionFields {
  const parsed = fromSubmissionRecord(record);
  if (!parsed.ok) {
    const problem = parsed.problems.map((p) => `${p.column} ${p.reason}`).join(", ");
    throw new Error(`Sample record ${record.idNo ?? "?"} is invalid: ${problem}`);
  }
  return parsed.fields;
}

/**
 * Loads the built-in sample list into an empty database, in one transaction, keeping the
 * prototype's ids. A database that already holds submissions is left alone, so loading twice is a
 * no-op. Creation times are spread over the months before `now` (id 1 oldest) so the dashboard's
 * monthly figures have something honest to show.
 *
 * A few records carry a journey (sample-journeys.ts): uploads, reviews, examiners invited by
 * link, reports, outcomes, replayed in the same transaction so that a newcomer who signs up with
 * one of their index numbers finds a student in that state. Their PDFs are written to the file
 * store first, as every upload is: if the transaction fails, they are files without rows, never
 * served and swept later.
 */
export async function loadSampleData(
  db: Db,
  ctx: SampleContext,
  now: Date = new Date(),
): Promise<number> {
  if ((await countSubmissions(db)) > 0) return 0;
  const records = readSampleRecords();
  const { examiners, journeys } = readSampleJourneys();
  const monthsBack = 18;
  const spanMs = monthsBack * 30 * 24 * 3600 * 1000;
  const lastId = Math.max(...records.map((r) => r.idNo ?? 0));

  const byIndexNumber = new Map(records.map((r) => [r.IndexNumber ?? "", r]));
  const recordOf = (indexNumber: string) => {
    const record = byIndexNumber.get(indexNumber);
    if (!record) throw new Error(`A sample journey names ${indexNumber}, not in the sample list`);
    return { record, fields: parseRecord(record) };
  };
  const files = sampleFiles(journeys, (indexNumber) => recordOf(indexNumber).fields);
  await storeSampleFiles(ctx.storage, files.values());

  const journeyOf = new Map(journeys.map((j) => [j.indexNumber, j]));
  await db.transaction().execute(async (trx) => {
    for (const record of records) {
      const fields = parseRecord(record);
      const journey = journeyOf.get(fields.indexNumber);
      const id = record.idNo ?? 0;
      const createdAt = new Date(now.getTime() - spanMs + Math.round((spanMs * id) / (lastId + 1)));
      await insertSubmission(
        trx,
        journey ? journeyStart(fields, journey) : fields,
        createdAt.toISOString(),
        id,
      );
    }
    await resetIdSequence(trx, "submissions");

    const examinerIds = await insertSampleExaminers(
      trx,
      examiners,
      new Date(now.getTime() - spanMs).toISOString(),
    );
    await insertSamplePublicationSettings(trx, new Date(now.getTime() - spanMs).toISOString());
    for (const journey of journeys) {
      const { record, fields } = recordOf(journey.indexNumber);
      const id = record.idNo ?? 0;
      await applyJourney(trx, ctx, journey, id, files, examinerIds, now);
      await checkJourneyEnd(trx, journey, id, fields);
    }
  });
  return records.length;
}

/**
 * For scripts that prepare a database before starting a server on it (cluster, benchmarks,
 * Lighthouse): the sample PDFs go into the folder that server's STORAGE_URL names, and the
 * links' lifetimes are the defaults.
 */
export function sampleContextForFolder(
  filesDir: string,
  publicUrl = "http://localhost:3000",
): SampleContext {
  return {
    storage: createStorage({ kind: "file", root: filesDir }),
    config: {
      publicUrl,
      examiners: { linkDays: DEFAULT_EXAMINER_LINK_DAYS, reportDueDays: DEFAULT_REPORT_DUE_DAYS },
    },
  };
}

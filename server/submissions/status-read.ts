import type { Kysely } from "kysely";
import { toStatusView, type SubmissionStatusView } from "../../common/submission.js";
import type { Db } from "../db/database.js";
import { hotQuery, runHotQuery } from "../db/dialect.js";
import type { Database } from "../db/schema.js";
import { rowToSubmission } from "./repository.js";

/**
 * A student's status read, the busiest read of the API: the same query as the repository's
 * findSubmissionByIndexNumber, compiled once (server/db/dialect.ts, hotQuery) instead of built
 * by Kysely on every request. The placeholder is the index number.
 */
export const submissionByIndexNumber = hotQuery(
  "submission_by_index_number",
  (db: Kysely<Database>) =>
    db.selectFrom("submissions").selectAll().where("index_number", "=", "index number"),
);

/** The status view of the submission with this index number, or null when there is none. */
export async function readSubmissionStatus(
  db: Db,
  indexNumber: string,
): Promise<SubmissionStatusView | null> {
  const [row] = await runHotQuery(db, submissionByIndexNumber, [indexNumber]);
  return row ? toStatusView(rowToSubmission(row)) : null;
}

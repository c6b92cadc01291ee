import type { Kysely } from "kysely";
import {
  createSubmissionSearchPostings,
  createSubmissionSearchPostingsTriggers,
  dropSubmissionSearchPostings,
  rebuildSubmissionSearchPostings,
} from "../dialect.js";

/**
 * Term postings ordered by the name (docs/decisions/006-search.md, "At 1,000,000 submissions"):
 * each distinct trigram of a submission's name and, apart, of its index number, beside the name,
 * keyed (gram, student_name, submission_id), so that a search sorted by name reads its page in
 * order instead of collecting and sorting tens of thousands of matches. A value shorter than a
 * trigram is its own gram, and a vocabulary of the distinct grams lets a one- or two-letter term
 * find the grams that contain it. Kept by triggers on every write (server/db/dialect.ts); existing
 * submissions are filled in here.
 */
// Kysely<unknown>: a migration must not be typed by today's schema (server/db/schema.ts), which
// describes the tables after every migration, not at this one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createSubmissionSearchPostings(db);
  await rebuildSubmissionSearchPostings(db);
  await createSubmissionSearchPostingsTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropSubmissionSearchPostings(db);
}

import { sql, type RawBuilder } from "kysely";
import type { Submission, SubmissionFields } from "../../common/submission.js";
import { DOCUMENTS } from "../../common/workflow.js";
import type { Config } from "../config.js";
import { conflict } from "../errors.js";
import { enqueueMails } from "../mail/outbox.js";
import type { FieldChange } from "./changes.js";
import { studentMailText, workflowNotice } from "./notices.js";
import type { Executor } from "../db/database.js";
import { documentColumns, fieldsToColumns } from "./repository.js";

/**
 * Writes for the import, many submissions per statement. One UPDATE per changed row made the apply
 * of a 50,000-row file spend most of its time in round trips and statement preparation; here a
 * chunk of rows is one `UPDATE … FROM (VALUES …)`, its notices one INSERT. The SQL is the same on
 * SQLite (3.33 or later) and PostgreSQL.
 */

/**
 * One submission to rewrite: its new fields, written only if its version is still the one read.
 * The index number is not written (the import found the row by it, so it is the same); the name
 * only when `renamed` says it differs from the stored one.
 */
export interface BulkUpdate {
  id: number;
  expectedVersion: number;
  fields: SubmissionFields;
  renamed: boolean;
}

/**
 * Rows per UPDATE: one statement per 500-row chunk. (On PostgreSQL the search postings' update
 * trigger once tested each gram with a correlated EXISTS that PL/pgSQL planned for the first
 * statement it saw; a 500-row UPDATE after a one-row edit took minutes, and this was 20. The
 * trigger now joins the old and new rows once.)
 */
const UPDATE_ROWS = 500;

/** The columns fieldsToColumns writes, in its order; the document flags are integers, the rest text. */
const ALL_COLUMNS = Object.keys(fieldsToColumns(blankFields())).filter(
  (column) => column !== "index_number",
);
const UNNAMED_COLUMNS = ALL_COLUMNS.filter((column) => column !== "student_name");
const INTEGER_COLUMNS = new Set<string>(DOCUMENTS.map((item) => documentColumns(item).submitted));

function blankFields(): SubmissionFields {
  const documents = Object.fromEntries(
    DOCUMENTS.map((item) => [item, { submitted: false, receivedOn: null }]),
  ) as SubmissionFields["documents"];
  return {
    studentName: "",
    indexNumber: "",
    programme: "",
    contact: null,
    studentEmail: null,
    documents,
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
    effectiveDate: null,
  };
}

/**
 * PostgreSQL gives a VALUES list's parameters no type of their own (it would call them text and
 * refuse text for an integer column); a cast names it. SQLite accepts the same casts.
 */
function typed(value: string | number | null, type: "integer" | "text"): RawBuilder<unknown> {
  return type === "integer" ? sql`cast(${value} as integer)` : sql`cast(${value} as text)`;
}

/**
 * Rewrites each submission's fields, raises its version and sets updated_at, as
 * updateSubmissionFields does for one. A submission whose version is no longer `expectedVersion`
 * (or that is gone) is not written, and the call throws a 409 naming it: the caller's transaction
 * then rolls back every row written before it.
 */
export async function updateSubmissionsInBulk(
  db: Executor,
  updates: readonly BulkUpdate[],
  at: string,
): Promise<void> {
  const kept = updates.filter((update) => !update.renamed);
  const renamed = updates.filter((update) => update.renamed);
  for (let start = 0; start < kept.length; start += UPDATE_ROWS) {
    await updateChunk(db, kept.slice(start, start + UPDATE_ROWS), UNNAMED_COLUMNS, at);
  }
  // Names apart: on SQLite, a statement that sets student_name rewrites the search index's
  // entries of every row it touches, changed or not.
  for (let start = 0; start < renamed.length; start += UPDATE_ROWS) {
    await updateChunk(db, renamed.slice(start, start + UPDATE_ROWS), ALL_COLUMNS, at);
  }
}

async function updateChunk(
  db: Executor,
  chunk: readonly BulkUpdate[],
  columns: readonly string[],
  at: string,
): Promise<void> {
  // VALUES columns are named column1, column2, … by both databases: id, version, then the fields.
  const assignments = columns.map(
    (column, index) => sql`${sql.ref(column)} = ${sql.ref(`v.column${index + 3}`)}`,
  );
  const rows = chunk.map((update) => {
    const values = fieldsToColumns(update.fields) as Record<string, string | number | null>;
    const cells = [typed(update.id, "integer"), typed(update.expectedVersion, "integer")];
    for (const column of columns) {
      cells.push(typed(values[column] ?? null, INTEGER_COLUMNS.has(column) ? "integer" : "text"));
    }
    return sql`(${sql.join(cells)})`;
  });
  const result = await sql<{ id: number }>`update submissions set ${sql.join(assignments)},
    updated_at = ${typed(at, "text")}, version = submissions.version + 1
    from (values ${sql.join(rows)}) as v
    where submissions.id = v.column1 and submissions.version = v.column2
    returning submissions.id`.execute(db);
  if (result.rows.length !== chunk.length) {
    const written = new Set(result.rows.map((row) => Number(row.id)));
    const stale = chunk.filter((update) => !written.has(update.id));
    throw staleImport(stale.map((update) => update.fields.indexNumber));
  }
}

function staleImport(indexNumbers: string[]) {
  const named = indexNumbers.slice(0, 5).join(", ");
  const more = indexNumbers.length > 5 ? ` and ${indexNumbers.length - 5} more` : "";
  return conflict(
    `Someone else saved ${indexNumbers.length === 1 ? "the submission" : "submissions"} ${named}${more} while the file was being imported; nothing was imported. Import the file again.`,
  );
}

/** A saved submission whose workflow moved, as its student is told about it. */
export interface WorkflowNotice {
  submission: Pick<Submission, "id" | "indexNumber" | "studentName">;
  changes: FieldChange[];
}

/** Rows per INSERT of messages and mails: 5 and 11 parameters a row. */
const INSERT_ROWS = 500;

/**
 * notifyWorkflowChanges (notices.ts) for many submissions: the same message in the
 * Messages tab and the same mail to each student with an account, in one lookup of the accounts
 * and one INSERT per 500 messages and per 500 mails, instead of three statements per submission.
 * The words are workflowNotice's, as notifyWorkflowChanges's; bulk-write.test.ts compares the rows
 * both write.
 */
export async function notifyWorkflowChangesInBulk(
  trx: Executor,
  config: Pick<Config, "publicUrl">,
  notices: readonly WorkflowNotice[],
  actorUserId: number | null,
  at: string,
): Promise<void> {
  const worded = notices.flatMap(({ submission, changes }) => {
    const notice = workflowNotice(submission.indexNumber, changes);
    return notice === null ? [] : [{ submission, ...notice }];
  });
  if (worded.length === 0) return;
  for (let start = 0; start < worded.length; start += INSERT_ROWS) {
    await trx
      .insertInto("messages")
      .values(
        worded.slice(start, start + INSERT_ROWS).map((notice) => ({
          submission_id: notice.submission.id,
          title: notice.title,
          body: notice.body,
          created_by: actorUserId,
          created_at: at,
        })),
      )
      .execute();
  }
  // The students who have signed up, found for the whole batch at once.
  const accounts = new Map<string, { email: string; name: string | null }>();
  for (let start = 0; start < worded.length; start += INSERT_ROWS) {
    const rows = await trx
      .selectFrom("users")
      .select(["email", "name", "index_number"])
      .where("role", "=", "student")
      .where("active", "=", 1)
      .where(
        "index_number",
        "in",
        worded.slice(start, start + INSERT_ROWS).map((notice) => notice.submission.indexNumber),
      )
      .execute();
    for (const row of rows) {
      if (row.index_number !== null) accounts.set(row.index_number, row);
    }
  }
  const link = `${config.publicUrl}/dashboard/messages`;
  await enqueueMails(
    trx,
    worded.flatMap((notice) => {
      const account = accounts.get(notice.submission.indexNumber);
      if (!account) return [];
      return [
        {
          to: account.email,
          subject: `ETS Tracking: ${notice.title}`,
          text: studentMailText(account.name ?? notice.submission.studentName, notice.body, link),
          template: {
            name: "submission_update",
            params: { indexNumber: notice.submission.indexNumber, changes: notice.lines },
          },
        },
      ];
    }),
  );
}

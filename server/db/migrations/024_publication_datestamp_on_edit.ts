import { sql, type Kysely } from "kysely";
import { dialectOf } from "../dialect.js";

/**
 * A published record shows the submission's student name, programme, title and abstract
 * (server/publication/repository.ts, readPublishedRecords). When an administrator edits any of
 * them, in the submission's form, a bulk edit or an import, the publication's `datestamp` must
 * move, or OAI-PMH harvesters asking `from` a later time never fetch the corrected record
 * (issue 20, ADR 026 amendment). Those writes live in submissions/, which sits below publication/
 * and cannot call it, and there are several of them; a trigger on the columns catches them all
 * in the same statement. Unpublished rows are left alone (their datestamp moves on publication).
 *
 * The time is the database's, written as the app writes times (ISO 8601 UTC with milliseconds,
 * as `Date.toISOString()`), so it sorts with the others. Row triggers with a WHEN clause: an import
 * that rewrites rows without changing these columns runs nothing.
 */

const COLUMNS = ["student_name", "programme", "thesis_title", "thesis_abstract"];
const CHANGED = COLUMNS.map((c) => `new.${c} is distinct from old.${c}`).join(" or ");

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql
      .raw(
        `create function publication_datestamp_on_edit() returns trigger language plpgsql as $$
         declare stamp text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
         begin
           update publications set datestamp = stamp, updated_at = stamp
             where submission_id = new.id and published_at is not null;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger publication_datestamp_on_edit
           after update of ${COLUMNS.join(", ")} on submissions
           for each row when (${CHANGED})
           execute function publication_datestamp_on_edit()`,
      )
      .execute(db);
    return;
  }
  // SQLite: "is not" is its null-safe inequality.
  const changed = COLUMNS.map((c) => `new.${c} is not old.${c}`).join(" or ");
  const stamp = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  await sql
    .raw(
      `create trigger publication_datestamp_on_edit
         after update of ${COLUMNS.join(", ")} on submissions
         when ${changed}
       begin
         update publications set datestamp = ${stamp}, updated_at = ${stamp}
           where submission_id = new.id and published_at is not null;
       end`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists publication_datestamp_on_edit on submissions`.execute(db);
    await sql`drop function if exists publication_datestamp_on_edit()`.execute(db);
    return;
  }
  await sql`drop trigger if exists publication_datestamp_on_edit`.execute(db);
}

import type { Kysely } from "kysely";
import { toStatusView, type SubmissionStatusView } from "../../common/submission.js";
import { checkSession, type SessionRow, type SessionUser } from "../auth/session.js";
import { hashToken } from "../auth/tokens.js";
import type { Db } from "../db/database.js";
import { hotQuery, runHotQuery } from "../db/dialect.js";
import type { Database, SubmissionRow } from "../db/schema.js";
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

/**
 * The session by its token hash, its user, and the submission with the index number beside them
 * (left-joined: no submission still finds the session), in one statement: the status read's
 * request asks the database once instead of twice (docs/decisions/013-hot-path-hooks.md). The
 * session and user columns are prefixed, so none can shadow a submission column. Placeholders:
 * the index number (the join), then the token hash.
 */
export const statusWithSession = hotQuery("status_with_session", (db: Kysely<Database>) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("submissions", (join) => join.on("submissions.index_number", "=", "index number"))
    .select([
      "sessions.id as session_id",
      "sessions.persistent as session_persistent",
      "sessions.sign_in_method as session_sign_in_method",
      "sessions.created_at as session_created_at",
      "sessions.last_seen_at as session_last_seen_at",
      "sessions.expires_at as session_expires_at",
      "users.id as user_id",
      "users.email as user_email",
      "users.name as user_name",
      "users.role as user_role",
      "users.index_number as user_index_number",
      "users.active as user_active",
    ])
    .selectAll("submissions")
    .where("sessions.token_hash", "=", "token hash"),
);

/** The session and user columns of a statusWithSession row, as checkSession reads them. */
export function sessionOfStatusRow(row: {
  session_id: number;
  session_persistent: SessionRow["persistent"];
  session_sign_in_method: SessionRow["sign_in_method"];
  session_created_at: string;
  session_last_seen_at: string;
  session_expires_at: string;
  user_id: number;
  user_email: string;
  user_name: SessionRow["name"];
  user_role: SessionRow["role"];
  user_index_number: SessionRow["index_number"];
  user_active: SessionRow["active"];
}): SessionRow {
  return {
    session_id: row.session_id,
    persistent: row.session_persistent,
    sign_in_method: row.session_sign_in_method,
    session_created_at: row.session_created_at,
    last_seen_at: row.session_last_seen_at,
    expires_at: row.session_expires_at,
    user_id: row.user_id,
    email: row.user_email,
    name: row.user_name,
    role: row.user_role,
    index_number: row.user_index_number,
    active: row.user_active,
  };
}

export interface StatusForSession {
  /** The signed-in user; null when the token is unknown, expired, idle or its user inactive. */
  user: SessionUser | null;
  /** The submission's status; null when there is none, or when there is no user. */
  status: SubmissionStatusView | null;
}

/**
 * The user of this session token and the status of this index number, read together. The
 * session goes through the same checks as every other lookup (checkSession: expiry, idleness,
 * inactive users, the last-seen touch). Whether this user may see this submission is the
 * caller's to decide (server/auth/policy.ts), before it uses `status`.
 */
export async function readStatusForSession(
  db: Db,
  token: string,
  indexNumber: string,
  now: Date = new Date(),
): Promise<StatusForSession> {
  const [row] = await runHotQuery(db, statusWithSession, [indexNumber, hashToken(token)]);
  if (!row) return { user: null, status: null };
  const user = await checkSession(db, sessionOfStatusRow(row), now);
  if (user === null || row.id === null) return { user, status: null };
  // The left join found a submission (its id is there), so every column of its row is its own.
  return { user, status: toStatusView(rowToSubmission(row as SubmissionRow)) };
}

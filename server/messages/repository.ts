import type { Executor } from "../db/database.js";

/** Messages shown in a student's Messages tab: notices about their submission and broadcasts. */

export interface StoredMessage {
  id: number;
  submissionId: number | null;
  title: string | null;
  body: string;
  createdAt: string;
  read: boolean;
}

export async function listVisibleMessages(
  db: Executor,
  userId: number,
  submissionId: number | null,
  limit: number,
): Promise<StoredMessage[]> {
  const rows = await db
    .selectFrom("messages as m")
    .leftJoin("message_reads as r", (join) =>
      join.onRef("r.message_id", "=", "m.id").on("r.user_id", "=", userId),
    )
    .select(["m.id", "m.submission_id", "m.title", "m.body", "m.created_at", "r.read_at"])
    // A student sees broadcasts and the notices about their own submission, nothing else.
    .where((eb) =>
      submissionId === null
        ? eb("m.submission_id", "is", null)
        : eb.or([eb("m.submission_id", "is", null), eb("m.submission_id", "=", submissionId)]),
    )
    .orderBy("m.created_at", "desc")
    .orderBy("m.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    submissionId: row.submission_id,
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    read: row.read_at !== null,
  }));
}

export async function countUnreadMessages(
  db: Executor,
  userId: number,
  submissionId: number | null,
): Promise<number> {
  const { count } = await db
    .selectFrom("messages as m")
    .leftJoin("message_reads as r", (join) =>
      join.onRef("r.message_id", "=", "m.id").on("r.user_id", "=", userId),
    )
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("r.read_at", "is", null)
    // A student sees broadcasts and the notices about their own submission, nothing else.
    .where((eb) =>
      submissionId === null
        ? eb("m.submission_id", "is", null)
        : eb.or([eb("m.submission_id", "is", null), eb("m.submission_id", "=", submissionId)]),
    )
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function findMessage(
  db: Executor,
  id: number,
): Promise<{ id: number; submissionId: number | null } | null> {
  const row = await db
    .selectFrom("messages")
    .select(["id", "submission_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { id: row.id, submissionId: row.submission_id } : null;
}

export async function markMessageRead(
  db: Executor,
  messageId: number,
  userId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto("message_reads")
    .values({ message_id: messageId, user_id: userId, read_at: at })
    .onConflict((oc) => oc.columns(["message_id", "user_id"]).doNothing())
    .execute();
}

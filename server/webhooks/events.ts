import crypto from "node:crypto";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../common/webhooks.js";
import { nowIso, type Executor } from "../db/database.js";
import { queueClaimOf } from "../db/dialect.js";

/**
 * Webhook events, written in the caller's transaction with the change they report
 * (docs/decisions/023-webhooks.md): one `webhook_events` row with the exact body every delivery
 * sends, and one pending `webhook_deliveries` row per active endpoint that chose the event's type.
 * Either the change, its events and their deliveries are all stored, or none of them.
 */

export interface WebhookEventInput {
  type: WebhookEventType;
  /** The submission it is about: deliveries of one submission to one endpoint go in order. */
  submissionId: number | null;
  data: Record<string, unknown>;
}

/** What the submissions' timeline records; the fields the events below are made from. */
export interface TimelineEvent {
  submissionId: number;
  at: string;
  field: string;
  from: string | null;
  to: string | null;
  kind: string;
}

const ROWS_PER_INSERT = 200;

/**
 * Queues one event, e.g. the publication feature's
 * `enqueueWebhookEvent(trx, { type: "thesis.published", submissionId, data })`.
 */
export async function enqueueWebhookEvent(
  db: Executor,
  event: WebhookEventInput,
  now: Date = new Date(),
): Promise<void> {
  await enqueueWebhookEvents(db, [{ ...event, at: nowIso(now) }]);
}

/**
 * The webhook events among a change's timeline rows (insertSubmissionEvents calls this with every
 * row it writes): a submission created, its stage moved, a checklist document received, a
 * document returned, an examiner's state moved, an outcome released.
 */
export function webhookEventsOf(events: readonly TimelineEvent[]): (WebhookEventInput & {
  at: string;
})[] {
  const found: (WebhookEventInput & { at: string })[] = [];
  for (const e of events) {
    const base = { submissionId: e.submissionId, at: e.at };
    if (e.field === "submission") {
      found.push({ ...base, type: "submission.created", data: { source: e.kind } });
    } else if (e.field === "sgsStage") {
      found.push({
        ...base,
        type: "submission.stage_changed",
        data: { from: e.from, to: e.to, move: e.kind },
      });
    } else if (e.field.startsWith("documents.") && e.to !== null) {
      found.push({
        ...base,
        type: "document.received",
        data: { document: e.field.slice("documents.".length), receivedOn: e.to },
      });
    } else if (e.field.startsWith("review.") && e.kind === "return") {
      found.push({
        ...base,
        type: "document.returned",
        data: { document: e.field.slice("review.".length), reason: e.to },
      });
    } else if (e.field === "internalExaminer" || e.field === "externalExaminer") {
      found.push({
        ...base,
        type: "examiner.state_changed",
        data: {
          role: e.field === "internalExaminer" ? "internal" : "external",
          from: e.from,
          to: e.to,
        },
      });
    } else if (e.field === "examination.outcome" && e.kind === "outcome") {
      found.push({ ...base, type: "outcome.released", data: { outcome: e.to } });
    }
  }
  return found;
}

/** Queues the webhook events a change's timeline rows carry (see webhookEventsOf). */
export async function enqueueTimelineWebhooks(
  db: Executor,
  events: readonly TimelineEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const endpoints = await activeEndpoints(db);
  if (endpoints.length === 0) return;
  await enqueueWebhookEvents(db, webhookEventsOf(events), endpoints);
}

interface ActiveEndpoint {
  id: number;
  events: Set<string>;
}

async function activeEndpoints(db: Executor): Promise<ActiveEndpoint[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "events"])
    .where("active", "=", 1)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ id: row.id, events: new Set(parseEventTypes(row.events)) }));
}

/** An endpoint's stored event list, keeping only types this server knows. */
export function parseEventTypes(json: string): WebhookEventType[] {
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter((t): t is WebhookEventType => typeof t === "string" && known.has(t))
      : [];
  } catch {
    return [];
  }
}

async function enqueueWebhookEvents(
  db: Executor,
  events: readonly (WebhookEventInput & { at: string })[],
  known?: ActiveEndpoint[],
): Promise<void> {
  if (events.length === 0) return;
  const endpoints = known ?? (await activeEndpoints(db));
  const wanted = events
    .map((event) => ({ event, to: endpoints.filter((e) => e.events.has(event.type)) }))
    .filter((entry) => entry.to.length > 0);
  if (wanted.length === 0) return;
  const indexNumbers = await indexNumbersOf(
    db,
    wanted.map((w) => w.event.submissionId).filter((id): id is number => id !== null),
  );
  for (let start = 0; start < wanted.length; start += ROWS_PER_INSERT) {
    const chunk = wanted.slice(start, start + ROWS_PER_INSERT).map((entry) => {
      const eventId = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
      const { event } = entry;
      const body = JSON.stringify({
        id: eventId,
        type: event.type,
        createdAt: event.at,
        submission:
          event.submissionId === null
            ? null
            : {
                id: event.submissionId,
                indexNumber: indexNumbers.get(event.submissionId) ?? null,
              },
        data: event.data,
      });
      return { ...entry, eventId, body };
    });
    const stored = await db
      .insertInto("webhook_events")
      .values(
        chunk.map((entry) => ({
          event_id: entry.eventId,
          type: entry.event.type,
          submission_id: entry.event.submissionId,
          body: entry.body,
          created_at: entry.event.at,
        })),
      )
      .returning(["id", "event_id"])
      .execute();
    const idOf = new Map(stored.map((row) => [row.event_id, row.id]));
    const deliveries = chunk.flatMap((entry) =>
      entry.to.map((endpoint) => ({
        endpoint_id: endpoint.id,
        event_id: idOf.get(entry.eventId)!,
        submission_id: entry.event.submissionId,
        status: "pending" as const,
        attempts: 0,
        next_attempt_at: entry.event.at,
        last_status: null,
        last_error: null,
        redelivery_of: null,
        created_at: entry.event.at,
        finished_at: null,
      })),
    );
    for (let at = 0; at < deliveries.length; at += ROWS_PER_INSERT) {
      await db
        .insertInto("webhook_deliveries")
        .values(deliveries.slice(at, at + ROWS_PER_INSERT))
        .execute();
    }
  }
}

/**
 * The submissions' index numbers for the bodies. On PostgreSQL the rows are also locked (most
 * changes hold the lock already): a second transaction raising events for the same submission
 * waits for this one to commit, so delivery ids of one submission follow commit order and a
 * worker never sees a later event before an earlier one. SQLite's writer lock does the same.
 */
async function indexNumbersOf(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const found = new Map<number, string>();
  const lockRows = queueClaimOf(db) === "skip-locked";
  for (let start = 0; start < unique.length; start += 500) {
    const query = db
      .selectFrom("submissions")
      .select(["id", "index_number"])
      .where("id", "in", unique.slice(start, start + 500))
      .orderBy("id");
    const rows = await (lockRows ? query.forUpdate() : query).execute();
    for (const row of rows) found.set(row.id, row.index_number);
  }
  return found;
}

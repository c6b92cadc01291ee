import {
  WEBHOOK_ATTEMPTS_SHOWN,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from "../../common/webhooks.js";
import { nowIso, type Executor } from "../db/database.js";
import { parseEventTypes } from "./events.js";
import { newWebhookSecret } from "./signing.js";

/** The endpoints and their delivery logs (the administrators' webhooks page). */

export interface NewEndpoint {
  url: string;
  events: WebhookEventType[];
  active: boolean;
  createdBy: number | null;
}

/** Stores an endpoint with a new secret; the secret is returned this once. */
export async function insertEndpoint(
  db: Executor,
  endpoint: NewEndpoint,
  now: Date = new Date(),
): Promise<{ id: number; secret: string }> {
  const secret = newWebhookSecret();
  const at = nowIso(now);
  const row = await db
    .insertInto("webhook_endpoints")
    .values({
      url: endpoint.url,
      events: JSON.stringify([...new Set(endpoint.events)]),
      secret,
      active: endpoint.active ? 1 : 0,
      created_by: endpoint.createdBy,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, secret };
}

function endpointsQuery(db: Executor) {
  return db.selectFrom("webhook_endpoints as p").select((eb) => [
    "p.id",
    "p.url",
    "p.events",
    "p.active",
    "p.created_at",
    eb
      .selectFrom("webhook_deliveries as d")
      .select((c) => c.fn.countAll<number>().as("n"))
      .whereRef("d.endpoint_id", "=", "p.id")
      .where("d.status", "=", "pending")
      .as("pending"),
    eb
      .selectFrom("webhook_deliveries as d")
      .select((c) => c.fn.countAll<number>().as("n"))
      .whereRef("d.endpoint_id", "=", "p.id")
      .where("d.status", "=", "failed")
      .as("failed"),
  ]);
}

type EndpointRow = {
  id: number;
  url: string;
  events: string;
  active: number;
  created_at: string;
  pending: number | string | null;
  failed: number | string | null;
};

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: parseEventTypes(row.events),
    active: Number(row.active) === 1,
    createdAt: row.created_at,
    pending: Number(row.pending ?? 0),
    failed: Number(row.failed ?? 0),
  };
}

export async function findEndpoint(db: Executor, id: number): Promise<WebhookEndpoint | null> {
  const row = await endpointsQuery(db).where("p.id", "=", id).executeTakeFirst();
  return row ? toEndpoint(row) : null;
}

/** Newest first, `limit` at a time; `before` is the last id of the page before. */
export async function listEndpoints(
  db: Executor,
  page: { before?: number | undefined; limit: number },
): Promise<{ items: WebhookEndpoint[]; nextBefore: number | null }> {
  let query = endpointsQuery(db)
    .orderBy("p.id", "desc")
    .limit(page.limit + 1);
  if (page.before !== undefined) query = query.where("p.id", "<", page.before);
  const rows = await query.execute();
  const items = rows.slice(0, page.limit).map(toEndpoint);
  return {
    items,
    nextBefore: rows.length > page.limit ? (items[items.length - 1]?.id ?? null) : null,
  };
}

export async function setEndpointActive(
  db: Executor,
  id: number,
  active: boolean,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("webhook_endpoints")
    .set({ active: active ? 1 : 0, updated_at: nowIso(now) })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes an endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: Executor, id: number): Promise<boolean> {
  const deliveries = db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", id);
  await db.deleteFrom("webhook_attempts").where("delivery_id", "in", deliveries).execute();
  await db.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
  const result = await db.deleteFrom("webhook_endpoints").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** An endpoint's deliveries, newest first, each with its latest attempts. */
export async function listDeliveries(
  db: Executor,
  endpointId: number,
  page: { before?: number | undefined; limit: number },
): Promise<{ items: WebhookDelivery[]; nextBefore: number | null }> {
  let query = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "e.event_id",
      "e.type",
      "d.submission_id",
      "d.status",
      "d.attempts",
      "d.next_attempt_at",
      "d.last_status",
      "d.last_error",
      "d.created_at",
      "d.redelivery_of",
    ])
    .where("d.endpoint_id", "=", endpointId)
    .orderBy("d.id", "desc")
    .limit(page.limit + 1);
  if (page.before !== undefined) query = query.where("d.id", "<", page.before);
  const rows = await query.execute();
  const shown = rows.slice(0, page.limit);
  const attempts =
    shown.length === 0
      ? []
      : await db
          .selectFrom("webhook_attempts")
          .select(["delivery_id", "at", "status_code", "error", "duration_ms"])
          .where(
            "delivery_id",
            "in",
            shown.map((row) => row.id),
          )
          .orderBy("id", "desc")
          .execute();
  const byDelivery = new Map<number, WebhookDelivery["attemptLog"]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    if (list.length < WEBHOOK_ATTEMPTS_SHOWN) {
      list.push({ at: a.at, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms });
    }
    byDelivery.set(a.delivery_id, list);
  }
  const items = shown.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    type: row.type,
    submissionId: row.submission_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    redeliveryOf: row.redelivery_of,
    attemptLog: byDelivery.get(row.id) ?? [],
  }));
  return {
    items,
    nextBefore: rows.length > page.limit ? (items[items.length - 1]?.id ?? null) : null,
  };
}

/**
 * "Send again": a new pending delivery of the same event to the same endpoint (the same event id,
 * so a receiver that has it already can tell). It queues behind any delivery of the same
 * submission to that endpoint still pending. Null when the delivery is not the endpoint's.
 */
export async function redeliver(
  db: Executor,
  endpointId: number,
  deliveryId: number,
  now: Date = new Date(),
): Promise<number | null> {
  const original = await db
    .selectFrom("webhook_deliveries")
    .select(["id", "event_id", "submission_id"])
    .where("id", "=", deliveryId)
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirst();
  if (!original) return null;
  const at = nowIso(now);
  const row = await db
    .insertInto("webhook_deliveries")
    .values({
      endpoint_id: endpointId,
      event_id: original.event_id,
      submission_id: original.submission_id,
      status: "pending",
      attempts: 0,
      next_attempt_at: at,
      last_status: null,
      last_error: null,
      redelivery_of: original.id,
      created_at: at,
      finished_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

import { sql, type Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

/**
 * Signed webhooks (issue 21, docs/decisions/023-webhooks.md).
 *
 * `webhook_endpoints`: where administrators want events sent, which events (a JSON array of
 * event types) and the endpoint's signing secret (kept so every delivery can be signed; never
 * sent back after it is made). `webhook_events`: one row per event, written in the same
 * transaction as the change it reports, with the exact body every delivery sends.
 * `webhook_deliveries`: one row per event per endpoint (the queue: pending, delivered or failed),
 * carrying the event's submission so a later event for a submission waits for the earlier one.
 * `webhook_attempts`: each try of a delivery, for the delivery log.
 */

// Kysely<any>: a migration must not be typed by today's schema (server/db/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("event_id", "text", (c) => c.notNull().unique())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("submission_id", "integer")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("endpoint_id", "integer", (c) =>
      c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
    )
    .addColumn("event_id", "integer", (c) =>
      c.notNull().references("webhook_events.id").onDelete("cascade"),
    )
    .addColumn("submission_id", "integer")
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql.raw("status in ('pending', 'delivered', 'failed')")),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("redelivery_of", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  // The queue: due pending deliveries, oldest first.
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at", "id"])
    .execute();
  // The order per submission per endpoint: is an earlier delivery still pending?
  await db.schema
    .createIndex("webhook_deliveries_order")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "submission_id", "status", "id"])
    .execute();
  // The delivery log of one endpoint, newest first.
  await db.schema
    .createIndex("webhook_deliveries_endpoint")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "id"])
    .execute();
  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("delivery_id", "integer", (c) =>
      c.notNull().references("webhook_deliveries.id").onDelete("cascade"),
    )
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_attempts_delivery")
    .on("webhook_attempts")
    .columns(["delivery_id", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_attempts").execute();
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_events").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}

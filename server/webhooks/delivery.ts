import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { sql } from "kysely";
import { nowIso, type Db, type Executor } from "../db/database.js";
import { queueClaimOf, selectSkippingLocked } from "../db/dialect.js";
import { checkOutgoingUrl, type Resolver } from "../http/address-check.js";
import { httpSender, type Sender } from "./send.js";
import { signatureHeader } from "./signing.js";

/**
 * Delivers webhook deliveries from the database (docs/decisions/023-webhooks.md). A pass claims
 * due deliveries the way the mail outbox does (queueClaimOf: SKIP LOCKED on PostgreSQL, a
 * conditional UPDATE on SQLite), so servers sharing the database never send the same one at once.
 * A delivery is due only when no earlier delivery of the same submission to the same endpoint is
 * still pending (in flight, waiting to retry, or its endpoint disabled): per submission per
 * endpoint, events arrive in the order they happened, at least once. A failed attempt is retried
 * with exponential back-off; after WEBHOOK_MAX_ATTEMPTS the delivery is given up ("failed") and
 * the next one of its submission goes.
 */
export const WEBHOOK_MAX_ATTEMPTS = 10;
const RETRY_BASE_MS = 30 * 1000;
const RETRY_CAP_MS = 60 * 60 * 1000;
/** Longest wait for an answer, connection included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Most of an answer's body read; the rest is never read. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 4096;
/** A claimed delivery is hidden from other passes this long: longer than any attempt. */
const CLAIM_LEASE_MS = 2 * 60 * 1000;
const BATCH_SIZE = 20;

/** Wait before attempt n+1 after n failed attempts: 30 s, 1, 2, 4 ... minutes, at most an hour. */
export function webhookRetryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_CAP_MS);
}

export interface WebhookDeps {
  db: Db;
  /** WEBHOOK_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
  log: FastifyBaseLogger;
  /** Looks names up (tests replace it); default the system's resolver. */
  resolve?: Resolver;
  /** Sends the request (tests replace it); default httpSender. */
  send?: Sender;
  timeoutMs?: number;
  maxResponseBytes?: number;
  retryDelayMs?: (failedAttempts: number) => number;
  maxAttempts?: number;
  batchSize?: number;
}

export interface WebhookPassReport {
  delivered: number;
  retried: number;
  failed: number;
}

interface Claimed {
  id: number;
  attempts: number;
}

/** One pass over the due deliveries. The worker calls it on a timer; tests call it directly. */
export async function deliverDueWebhooks(
  deps: WebhookDeps,
  now: Date = new Date(),
): Promise<WebhookPassReport> {
  const report: WebhookPassReport = { delivered: 0, retried: 0, failed: 0 };
  const claimed = await claimDue(deps.db, now, deps.batchSize ?? BATCH_SIZE);
  if (claimed.length === 0) return report;
  const details = await deps.db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as p", "p.id", "d.endpoint_id")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .select(["d.id", "p.url", "p.secret", "e.event_id as eventId", "e.type", "e.body"])
    .where(
      "d.id",
      "in",
      claimed.map((c) => c.id),
    )
    .execute();
  const byId = new Map(details.map((row) => [row.id, row]));
  // At most one delivery per submission per endpoint is due at a time, so these can go together.
  await Promise.all(
    claimed.map(async (claim) => {
      const row = byId.get(claim.id);
      if (!row) return; // its endpoint was deleted meanwhile
      const outcome = await attempt(deps, row);
      await record(deps, claim, outcome, now);
      if (outcome.ok) report.delivered += 1;
      else if (claim.attempts + 1 >= (deps.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS)) report.failed += 1;
      else report.retried += 1;
    }),
  );
  return report;
}

interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

async function attempt(
  deps: WebhookDeps,
  row: { id: number; url: string; secret: string; eventId: string; type: string; body: string },
): Promise<Outcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  // Checked again at every attempt: the name may resolve elsewhere now.
  const target = await checkOutgoingUrl(row.url, {
    allowedHosts: deps.allowedHosts,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  if (!target.ok) {
    return {
      ok: false,
      status: null,
      error: `Not sent: the address ${target.reason}.`,
      durationMs: took(),
    };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const answer = await (deps.send ?? httpSender)({
      url: target.url,
      address: target.addresses[0]!,
      headers: {
        "user-agent": "ETS-Tracking-Webhooks/1",
        "ets-event-id": row.eventId,
        "ets-event-type": row.type,
        "ets-delivery-id": String(row.id),
        "ets-timestamp": String(timestamp),
        "ets-signature": signatureHeader(row.secret, timestamp, row.body),
      },
      body: row.body,
      timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: deps.maxResponseBytes ?? WEBHOOK_MAX_RESPONSE_BYTES,
    });
    if (answer.status >= 200 && answer.status < 300) {
      return { ok: true, status: answer.status, error: null, durationMs: took() };
    }
    const why =
      answer.status >= 300 && answer.status < 400
        ? `Answered ${answer.status}, a redirect, which is not followed.`
        : `Answered ${answer.status}.`;
    return { ok: false, status: answer.status, error: why, durationMs: took() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      status: null,
      error: `No answer: ${message}`.slice(0, 500),
      durationMs: took(),
    };
  }
}

async function record(deps: WebhookDeps, claim: Claimed, outcome: Outcome, now: Date) {
  const attempts = claim.attempts + 1;
  const giveUp = !outcome.ok && attempts >= (deps.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS);
  const at = nowIso(new Date());
  const delay = (deps.retryDelayMs ?? webhookRetryDelayMs)(attempts);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("webhook_attempts")
      .values({
        delivery_id: claim.id,
        at,
        status_code: outcome.status,
        error: outcome.error,
        duration_ms: outcome.durationMs,
      })
      .execute();
    await trx
      .updateTable("webhook_deliveries")
      .set({
        status: outcome.ok ? "delivered" : giveUp ? "failed" : "pending",
        attempts,
        last_status: outcome.status,
        last_error: outcome.error,
        next_attempt_at: outcome.ok || giveUp ? at : nowIso(new Date(now.getTime() + delay)),
        finished_at: outcome.ok || giveUp ? at : null,
      })
      .where("id", "=", claim.id)
      .execute();
  });
  if (!outcome.ok) {
    deps.log.warn(
      { webhookDeliveryId: claim.id, attempts, giveUp, error: outcome.error },
      giveUp ? "webhook delivery failed for good" : "webhook delivery failed; will retry",
    );
  }
}

/**
 * The due deliveries: pending, due, of an active endpoint, and the first still pending of their
 * submission for their endpoint.
 */
function dueDeliveries(db: Executor, now: Date) {
  return db
    .selectFrom("webhook_deliveries as d")
    .select(["d.id", "d.attempts"])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at", "<=", nowIso(now))
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom("webhook_deliveries as x")
            .select(sql<number>`1`.as("one"))
            .whereRef("x.endpoint_id", "=", "d.endpoint_id")
            .whereRef("x.submission_id", "=", "d.submission_id")
            .where("x.status", "=", "pending")
            .whereRef("x.id", "<", "d.id"),
        ),
      ),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("webhook_endpoints as p")
          .select(sql<number>`1`.as("one"))
          .whereRef("p.id", "=", "d.endpoint_id")
          .where("p.active", "=", 1),
      ),
    )
    .orderBy("d.next_attempt_at")
    .orderBy("d.id");
}

/**
 * Claims up to `limit` due deliveries by moving their next attempt CLAIM_LEASE_MS ahead: other
 * passes, here or on another server, no longer see them as due, and a later delivery of the same
 * submission stays behind them because they are still pending.
 */
async function claimDue(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  const lease = nowIso(new Date(now.getTime() + CLAIM_LEASE_MS));
  if (queueClaimOf(db) === "skip-locked") {
    return db.transaction().execute(async (trx) => {
      const due = await selectSkippingLocked(dueDeliveries(trx, now).limit(limit)).execute();
      if (due.length > 0) {
        await trx
          .updateTable("webhook_deliveries")
          .set({ next_attempt_at: lease })
          .where(
            "id",
            "in",
            due.map((d) => d.id),
          )
          .execute();
      }
      return due;
    });
  }
  const due = await dueDeliveries(db, now).limit(limit).execute();
  const claimed: Claimed[] = [];
  for (const delivery of due) {
    const claim = await db
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at: lease })
      .where("id", "=", delivery.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", nowIso(now))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 1) claimed.push(delivery); // otherwise another pass has it
  }
  return claimed;
}

/**
 * Runs deliverDueWebhooks while the app is up (config.webhooks.worker): again at once after a
 * full pass, otherwise every config.webhooks.pollIntervalMs; stops, after the pass in flight,
 * when the app starts closing.
 */
export const webhookWorker = fp(
  async (app: FastifyInstance) => {
    if (!app.config.webhooks.worker) return;
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> | null = null;
    let stopped = false;
    const deps: WebhookDeps = {
      db: app.db,
      allowedHosts: app.config.webhooks.allowedHosts,
      resolve: app.resolveHost,
      log: app.log,
    };
    const tick = () => {
      let busy = false;
      running = deliverDueWebhooks(deps)
        .then((report) => {
          busy = report.delivered + report.retried + report.failed >= BATCH_SIZE;
        })
        .catch((error: unknown) => app.log.error({ err: error }, "webhook delivery pass failed"))
        .finally(() => {
          running = null;
          if (!stopped) timer = setTimeout(tick, busy ? 0 : app.config.webhooks.pollIntervalMs);
        });
    };
    app.addHook("onReady", async () => {
      tick();
    });
    // preClose, as the mail worker: the database must outlive the pass in flight.
    app.addHook("preClose", async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    });
  },
  { name: "ets-webhook-worker" },
);

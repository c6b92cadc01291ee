import type { NewWebhook, WebhookEndpoint } from "../../common/webhooks.js";
import { newWebhookSchema } from "../../common/webhooks.js";
import { recordAudit } from "../accounts/audit.js";
import type { Config } from "../config.js";
import type { Db } from "../db/database.js";
import { notFound, validationError } from "../errors.js";
import { checkOutgoingUrl, type Resolver } from "../http/address-check.js";
import {
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  redeliver,
  setEndpointActive,
} from "../webhooks/endpoints.js";

/**
 * The administrators' webhook endpoints (docs/decisions/023-webhooks.md): each change with its
 * audit row in one transaction. An endpoint's address is checked here (SSRF) and again at every
 * delivery, since a name can resolve elsewhere later.
 */

interface Who {
  actorUserId: number;
  ip: string | null;
}

export async function createWebhook(
  db: Db,
  config: Pick<Config, "webhooks">,
  input: NewWebhook,
  who: Who,
  resolve?: Resolver,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const body = newWebhookSchema.parse(input);
  const target = await checkOutgoingUrl(body.url, {
    allowedHosts: config.webhooks.allowedHosts,
    ...(resolve ? { resolve } : {}),
  });
  if (!target.ok) throw validationError("url", `The address ${target.reason}.`);
  return db.transaction().execute(async (trx) => {
    const { id, secret } = await insertEndpoint(trx, {
      url: target.url.href,
      events: body.events,
      active: body.active,
      createdBy: who.actorUserId,
    });
    await recordAudit(trx, {
      event: "webhook.created",
      actorUserId: who.actorUserId,
      ip: who.ip,
      details: { endpointId: id, url: target.url.href, events: body.events.join(",") },
    });
    const endpoint = await findEndpoint(trx, id);
    if (!endpoint) throw notFound("The webhook was removed.");
    return { endpoint, secret };
  });
}

export async function switchWebhook(
  db: Db,
  id: number,
  active: boolean,
  who: Who,
): Promise<WebhookEndpoint> {
  return db.transaction().execute(async (trx) => {
    if (!(await setEndpointActive(trx, id, active))) throw notFound("No such webhook.");
    await recordAudit(trx, {
      event: active ? "webhook.enabled" : "webhook.disabled",
      actorUserId: who.actorUserId,
      ip: who.ip,
      details: { endpointId: id },
    });
    const endpoint = await findEndpoint(trx, id);
    if (!endpoint) throw notFound("No such webhook.");
    return endpoint;
  });
}

export async function removeWebhook(db: Db, id: number, who: Who): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await deleteEndpoint(trx, id))) throw notFound("No such webhook.");
    await recordAudit(trx, {
      event: "webhook.deleted",
      actorUserId: who.actorUserId,
      ip: who.ip,
      details: { endpointId: id },
    });
  });
}

export async function sendAgain(
  db: Db,
  endpointId: number,
  deliveryId: number,
  who: Who,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id = await redeliver(trx, endpointId, deliveryId);
    if (id === null) throw notFound("This webhook has no such delivery.");
    await recordAudit(trx, {
      event: "webhook.redelivered",
      actorUserId: who.actorUserId,
      ip: who.ip,
      details: { endpointId, deliveryId, newDeliveryId: id },
    });
    return id;
  });
}

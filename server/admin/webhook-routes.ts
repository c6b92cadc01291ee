import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID } from "../../common/api.js";
import { successSchema } from "../../common/accounts.js";
import {
  WEBHOOK_PAGE_SIZE,
  createdWebhookSchema,
  newWebhookSchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from "../../common/webhooks.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";
import { notFound } from "../errors.js";
import { findEndpoint, listDeliveries, listEndpoints } from "../webhooks/endpoints.js";
import { createWebhook, removeWebhook, sendAgain, switchWebhook } from "./webhooks.js";

const rowId = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .positive(`${what} must be positive.`)
    .max(MAX_ROW_ID, `No ${what.toLowerCase()} is that large.`);

const endpointParams = z.object({ id: rowId("Webhook id") });
const deliveryParams = z.object({ id: rowId("Webhook id"), deliveryId: rowId("Delivery id") });
const pageQuery = z.object({
  before: rowId("before").optional(),
  limit: z.coerce
    .number({ error: "limit must be a number." })
    .int("limit must be a whole number.")
    .min(1, "limit must be at least 1.")
    .max(100, "limit is at most 100.")
    .default(WEBHOOK_PAGE_SIZE),
});

/** The administrators' webhooks (docs/api.md, "Webhooks"). Every route: administrators only. */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);
  const who = (request: { ip: string }, actorUserId: number) => ({ actorUserId, ip: request.ip });

  app.get(
    "/admin/webhooks",
    {
      schema: {
        tags: ["admin"],
        operationId: "listWebhooks",
        summary: "Webhook endpoints, newest first, a page at a time",
        querystring: pageQuery,
        response: { 200: webhookEndpointListSchema },
      },
    },
    async (request) => listEndpoints(app.db, request.query),
  );

  app.post(
    "/admin/webhooks",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "createWebhook",
        summary: "Register an endpoint; its signing secret is in this answer only",
        body: newWebhookSchema,
        response: { 201: createdWebhookSchema },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createWebhook(
        app.db,
        app.config,
        request.body,
        who(request, currentUser(request).id),
        app.resolveHost,
      );
      return reply.code(201).send({
        success: true as const,
        message: `Webhook to ${endpoint.url} created. Copy its secret now: it is not shown again.`,
        endpoint,
        secret,
      });
    },
  );

  for (const [action, active] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    app.post(
      `/admin/webhooks/:id/${action}`,
      {
        bodyLimit: SMALL_BODY_LIMIT,
        schema: {
          tags: ["admin"],
          operationId: active ? "enableWebhook" : "disableWebhook",
          summary: active
            ? "Enable an endpoint: its waiting deliveries go"
            : "Disable an endpoint: its deliveries wait until it is enabled",
          params: endpointParams,
          response: { 200: webhookEndpointSchema },
        },
      },
      async (request) =>
        switchWebhook(app.db, request.params.id, active, who(request, currentUser(request).id)),
    );
  }

  app.delete(
    "/admin/webhooks/:id",
    {
      schema: {
        tags: ["admin"],
        operationId: "deleteWebhook",
        summary: "Delete an endpoint with its deliveries",
        params: endpointParams,
        response: { 200: successSchema },
      },
    },
    async (request) => {
      await removeWebhook(app.db, request.params.id, who(request, currentUser(request).id));
      return { success: true as const };
    },
  );

  app.get(
    "/admin/webhooks/:id/deliveries",
    {
      schema: {
        tags: ["admin"],
        operationId: "listWebhookDeliveries",
        summary: "An endpoint's delivery log, newest first, with each delivery's attempts",
        params: endpointParams,
        querystring: pageQuery,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    async (request) => {
      if (!(await findEndpoint(app.db, request.params.id))) throw notFound("No such webhook.");
      return listDeliveries(app.db, request.params.id, request.query);
    },
  );

  app.post(
    "/admin/webhooks/:id/deliveries/:deliveryId/redeliver",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "redeliverWebhookDelivery",
        summary: "Send a delivery again (a new delivery of the same event)",
        params: deliveryParams,
        response: {
          202: z.object({
            success: z.literal(true),
            message: z.string(),
            deliveryId: z.number().int(),
          }),
        },
      },
    },
    async (request, reply) => {
      const deliveryId = await sendAgain(
        app.db,
        request.params.id,
        request.params.deliveryId,
        who(request, currentUser(request).id),
      );
      return reply
        .code(202)
        .send({ success: true as const, message: "Queued to be sent again.", deliveryId });
    },
  );
};

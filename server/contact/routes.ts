import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ACCOUNT_MESSAGES,
  contactMessageListResponseSchema,
  contactSchema,
  successMessageSchema,
} from "../../common/accounts.js";
import { requireAdmin } from "../auth/plugin.js";
import { perAddress } from "../auth/rate-limits.js";
import { listContactMessages, submitContactMessage } from "./service.js";
import { TEXT_BODY_LIMIT } from "../body-limits.js";

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/contact",
    {
      bodyLimit: TEXT_BODY_LIMIT,
      config: perAddress(app.config.rateLimits.contact),
      schema: {
        tags: ["contact"],
        operationId: "sendContactMessage",
        summary: "The public contact form",
        body: contactSchema,
        response: { 201: successMessageSchema },
      },
    },
    async (request, reply) => {
      await submitContactMessage(app, request.body);
      return reply
        .code(201)
        .send({ success: true as const, message: ACCOUNT_MESSAGES.contactReceived });
    },
  );

  app.get(
    "/admin/contact_messages",
    {
      onRequest: requireAdmin,
      schema: {
        tags: ["admin"],
        operationId: "listContactMessages",
        summary: "Messages sent through the contact form, newest first",
        response: { 200: contactMessageListResponseSchema },
      },
    },
    async () => ({ items: await listContactMessages(app.db) }),
  );
};

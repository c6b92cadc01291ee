import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID } from "../../common/api.js";
import {
  messageListResponseSchema,
  sendMessageSchema,
  successSchema,
} from "../../common/submissions-api.js";
import { currentUser, requireAdmin, requireStudent } from "../auth/plugin.js";
import { listStudentMessages, readMessage, sendMessage } from "./service.js";
import { SMALL_BODY_LIMIT, TEXT_BODY_LIMIT } from "../body-limits.js";

export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/messages",
    {
      preHandler: requireStudent,
      schema: {
        tags: ["messages"],
        operationId: "listMessages",
        summary: "The signed-in student's messages and broadcasts, newest first",
        response: { 200: messageListResponseSchema },
      },
    },
    async (request) => listStudentMessages(app.db, currentUser(request)),
  );

  app.post(
    "/messages/:id/read",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      preHandler: requireStudent,
      schema: {
        tags: ["messages"],
        operationId: "markMessageRead",
        summary: "Mark one of the student's messages read",
        params: z.object({ id: z.coerce.number().int().positive().max(MAX_ROW_ID) }),
        response: { 200: successSchema },
      },
    },
    async (request) => {
      await readMessage(app.db, currentUser(request), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    "/admin/messages",
    {
      bodyLimit: TEXT_BODY_LIMIT,
      preHandler: requireAdmin,
      schema: {
        tags: ["messages"],
        operationId: "sendNotice",
        summary: "Send a notice to one student (by index number) or to every student",
        body: sendMessageSchema,
        response: { 201: successSchema },
      },
    },
    async (request, reply) => {
      await sendMessage(app, currentUser(request), request.body);
      return reply.code(201).send({ success: true as const });
    },
  );
};

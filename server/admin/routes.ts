import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID } from "../../common/api.js";
import {
  adminUserListResponseSchema,
  adminUsersQuerySchema,
  createdAdminResponseSchema,
  failedMailListResponseSchema,
  newAdminSchema,
  successMessageSchema,
  successSchema,
} from "../../common/accounts.js";
import {
  createAdministrator,
  listUsers,
  resendCode,
  setUserActive,
} from "../accounts/management.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { listFailedMail } from "../mail/outbox.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";

const userParams = z.object({
  id: z.coerce
    .number({ error: "Account id must be a number." })
    .int("Account id must be a whole number.")
    .positive("Account id must be positive.")
    .max(MAX_ROW_ID, "No account has an id that large."),
});

/** Administrators' account management and mail problems. Every route: administrators only. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: checked before the body or params are validated, so a student learns nothing here.
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/admin/users",
    {
      schema: {
        tags: ["admin"],
        operationId: "listUsers",
        summary: "Administrators and students, each student with their linked submission",
        querystring: adminUsersQuerySchema,
        response: { 200: adminUserListResponseSchema },
      },
    },
    async (request) => ({ items: await listUsers(app.db, request.query) }),
  );

  app.post(
    "/admin/users",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "createAdmin",
        summary: "Create an administrator (the new_user_entry form)",
        body: newAdminSchema,
        response: { 201: createdAdminResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await createAdministrator(app.db, request.body, currentUser(request), {
        ip: request.ip,
      });
      return reply.code(201).send({
        success: true as const,
        message: `Administrator ${user.email} created.`,
        user,
      });
    },
  );

  app.post(
    "/admin/users/:id/deactivate",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "deactivateUser",
        summary: "Deactivate an account; its sessions end at once",
        params: userParams,
        response: { 200: successSchema },
      },
    },
    async (request) => {
      await setUserActive(app.db, request.params.id, false, currentUser(request), {
        ip: request.ip,
      });
      return { success: true as const };
    },
  );

  app.post(
    "/admin/users/:id/reactivate",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "reactivateUser",
        summary: "Reactivate an account",
        params: userParams,
        response: { 200: successSchema },
      },
    },
    async (request) => {
      await setUserActive(app.db, request.params.id, true, currentUser(request), {
        ip: request.ip,
      });
      return { success: true as const };
    },
  );

  app.post(
    "/admin/users/:id/resend_code",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "resendSignInCode",
        summary: "Mail a student a new sign-in code",
        params: userParams,
        response: { 200: successMessageSchema },
      },
    },
    async (request) => {
      const email = await resendCode(app, request.params.id, currentUser(request), {
        ip: request.ip,
      });
      return { success: true as const, message: `A new code has been sent to ${email}.` };
    },
  );

  app.get(
    "/admin/mail/failed",
    {
      schema: {
        tags: ["admin"],
        operationId: "listFailedMail",
        summary: "Mail that could not be delivered after every retry",
        response: { 200: failedMailListResponseSchema },
      },
    },
    async () => ({ items: await listFailedMail(app.db) }),
  );
};

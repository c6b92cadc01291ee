import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_ROW_ID } from "../../common/api.js";
import {
  apiTokenCreateSchema,
  apiTokenCreatedSchema,
  apiTokenListQuerySchema,
  apiTokenListResponseSchema,
  apiTokenResponseSchema,
} from "../../common/api-tokens.js";
import { recordAudit } from "../accounts/audit.js";
import { findApiToken, insertApiToken, listApiTokens, revokeApiToken } from "../auth/api-tokens.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";
import { notFound } from "../errors.js";

const DAY_MS = 24 * 60 * 60 * 1000;

const tokenParams = z.object({
  id: z.coerce
    .number({ error: "Token id must be a number." })
    .int("Token id must be a whole number.")
    .positive("Token id must be positive.")
    .max(MAX_ROW_ID, "No token has an id that large."),
});

/**
 * The administrators' API tokens (issue 21, docs/decisions/022-api-tokens.md). No route here
 * names a tokenScope: a token can never make, list or revoke tokens.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/admin/api-tokens",
    {
      schema: {
        tags: ["admin"],
        operationId: "listApiTokens",
        summary: "API tokens, newest first, with when and from where each was last used",
        querystring: apiTokenListQuerySchema,
        response: { 200: apiTokenListResponseSchema },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { items, total } = await listApiTokens(app.db, page, pageSize);
      return { items, total, page, pageSize };
    },
  );

  app.post(
    "/admin/api-tokens",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["admin"],
        operationId: "createApiToken",
        summary: "Create an API token; the answer carries the token, shown this once",
        body: apiTokenCreateSchema,
        response: { 201: apiTokenCreatedSchema },
      },
    },
    async (request, reply) => {
      const admin = currentUser(request);
      const { name, scopes, expiresInDays } = request.body;
      const now = new Date();
      const created = await app.db.transaction().execute(async (trx) => {
        const made = await insertApiToken(
          trx,
          {
            name,
            scopes,
            createdBy: admin.id,
            expiresAt: new Date(now.getTime() + expiresInDays * DAY_MS),
          },
          now,
        );
        await recordAudit(trx, {
          event: "api_token.created",
          actorUserId: admin.id,
          ip: request.ip,
          details: { tokenId: made.id, tokenName: name, scopes: scopes.join(" ") },
        });
        return made;
      });
      const data = await findApiToken(app.db, created.id);
      if (!data) throw notFound("The new token could not be read back.");
      return reply.code(201).send({ data, token: created.token });
    },
  );

  app.post(
    "/admin/api-tokens/:id/revoke",
    {
      schema: {
        tags: ["admin"],
        operationId: "revokeApiToken",
        summary: "Revoke an API token: every request with it is refused from now on",
        params: tokenParams,
        response: { 200: apiTokenResponseSchema },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const { id } = request.params;
      const existing = await findApiToken(app.db, id);
      if (!existing) throw notFound("No API token has this id.");
      app.forgetApiToken(id);
      await app.db.transaction().execute(async (trx) => {
        if (await revokeApiToken(trx, id, admin.id)) {
          await recordAudit(trx, {
            event: "api_token.revoked",
            actorUserId: admin.id,
            ip: request.ip,
            details: { tokenId: id, tokenName: existing.name },
          });
        }
      });
      // Again once revoked: a request between the first forget and the commit may have read it.
      app.forgetApiToken(id);
      const data = await findApiToken(app.db, id);
      if (!data) throw notFound("No API token has this id.");
      return { data };
    },
  );
};

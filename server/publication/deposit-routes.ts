import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import {
  bulkDepositInputSchema,
  bulkDepositResponseSchema,
  depositListQuerySchema,
  depositListResponseSchema,
  depositResponseSchema,
} from "../../common/deposits.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";
import { AppError } from "../errors.js";
import { findSubmissionsByIndexNumbers } from "../submissions/repository.js";
import {
  findDeposit,
  listDeposits,
  requestDeposit,
  requireRepository,
  submissionIdOf,
} from "./deposit-service.js";

const thesisParams = z.object({
  indexNumber: z.string().trim().min(1, "is required").max(40, "must be at most 40 characters"),
});

/** Reads with a submissions:read token; writes need a signed-in administrator (no scope named). */
const READ_SCOPE = { tokenScope: "submissions:read" } as const;

/** The cap on refusals listed in a bulk answer (every error list is capped). */
const MAX_REFUSALS_LISTED = 100;

/**
 * Deposit to the institutional repository over SWORD v2 (ADR 026): one thesis or a selection;
 * the queue does the work (deposit-service.ts), these routes queue and report.
 */
export const depositRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/admin/submissions/:indexNumber/publication/deposit",
    {
      config: READ_SCOPE,
      schema: {
        operationId: "getThesisDeposit",
        tags: ["publication"],
        summary:
          "A thesis's deposit to the repository: queued, depositing, deposited (handle) or failed",
        params: thesisParams,
        response: { 200: depositResponseSchema },
      },
    },
    async (request) => {
      const submissionId = await submissionIdOf(app.db, request.params.indexNumber);
      return {
        data: {
          configured: app.config.repositorySword !== null,
          deposit: await findDeposit(app.db, submissionId),
        },
      };
    },
  );

  app.post(
    "/admin/submissions/:indexNumber/publication/deposit",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        operationId: "depositThesis",
        tags: ["publication"],
        summary:
          "Queue a published thesis's deposit to the repository (asking again while queued or deposited changes nothing; a failed one is retried)",
        params: thesisParams,
        response: { 202: depositResponseSchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireRepository(app.config);
      const submissionId = await submissionIdOf(app.db, request.params.indexNumber);
      await requestDeposit(app.db, submissionId, currentUser(request).id);
      return reply.code(202).send({
        data: { configured: true, deposit: await findDeposit(app.db, submissionId) },
      });
    },
  );

  app.post(
    "/admin/publication/deposits",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        operationId: "depositTheses",
        tags: ["publication"],
        summary: "Queue the deposit of several published theses (at most 100)",
        body: bulkDepositInputSchema,
        response: { 202: bulkDepositResponseSchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireRepository(app.config);
      const user = currentUser(request);
      const wanted = [...new Set(request.body.indexNumbers)];
      const found = await findSubmissionsByIndexNumbers(app.db, wanted);
      const byIndex = new Map(found.map((s) => [s.indexNumber, s.id]));
      const queued = [];
      const refused: { indexNumber: string; reason: string }[] = [];
      for (const indexNumber of wanted) {
        const submissionId = byIndex.get(indexNumber);
        if (submissionId === undefined) {
          refused.push({ indexNumber, reason: "There is no submission with this index number." });
          continue;
        }
        try {
          await requestDeposit(app.db, submissionId, user.id);
          const view = await findDeposit(app.db, submissionId);
          if (view) queued.push(view);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          refused.push({ indexNumber, reason: error.message });
        }
      }
      return reply
        .code(202)
        .send({ data: { queued, refused: refused.slice(0, MAX_REFUSALS_LISTED) } });
    },
  );

  app.get(
    "/admin/publication/deposits",
    {
      config: READ_SCOPE,
      schema: {
        operationId: "listDeposits",
        tags: ["publication"],
        summary: "Deposits, newest first, 50 a page (keyset: pass `next` as `after`)",
        querystring: depositListQuerySchema,
        response: { 200: depositListResponseSchema },
      },
    },
    async (request) => {
      const page = await listDeposits(app.db, request.query);
      return { data: page.rows, next: page.next };
    },
  );
};

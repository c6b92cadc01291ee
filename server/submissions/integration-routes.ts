import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import { financialClearanceSchema } from "../../common/api-tokens.js";
import { importRejectedSchema, importResultSchema } from "../../common/submissions-api.js";
import type { ApiTokenPrincipal } from "../auth/api-tokens.js";
import { currentUser, requireAdmin } from "../auth/plugin.js";
import { isUniqueViolation } from "../db/dialect.js";
import { AppError, conflict, forbidden } from "../errors.js";
import { setFinancialClearance } from "./clearance.js";
import { findAnswer, requestHash, storeAnswer } from "./idempotency.js";
import { applyRecords } from "./import.js";
import { SHEET_LIMITS } from "./spreadsheet.js";
import { IMPORT_MAX_BYTES } from "./transfer-routes.js";

const indexNumberParams = z.object({ indexNumber: z.string().trim().min(1).max(40) });

const clearanceAnswerSchema = z.object({
  data: z.object({
    indexNumber: z.string(),
    financialClearance: z.object({
      submitted: z.boolean(),
      receivedOn: z.string().nullable(),
      clearedBy: z.object({ system: z.string(), at: z.string() }).nullable(),
    }),
  }),
});

const upsertBodySchema = z.object({
  // Each record is checked by the import's own rules (import.ts), whose problem list is capped.
  records: z
    .array(z.unknown())
    .min(1, "must hold at least one record")
    .max(
      SHEET_LIMITS.maxRows,
      `must hold at most ${SHEET_LIMITS.maxRows.toLocaleString("en-US")} records (the import's cap)`,
    ),
});

/** What a key keeps: an import's result or its rejection. */
const storedAnswerSchema = z.union([importResultSchema, importRejectedSchema, errorBodySchema]);

const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string({ error: "is required: a key of your own for this request (1 to 200 characters)" })
    .trim()
    .min(1, "is required: a key of your own for this request (1 to 200 characters)")
    .max(200, "must be at most 200 characters"),
});

/** The routes only other systems call, each with an API token (docs/decisions/022-api-tokens.md). */
function tokenOf(request: FastifyRequest, scope: string): ApiTokenPrincipal {
  if (!request.apiToken) {
    throw forbidden(
      `This route is for the university's systems: call it with an API token holding "${scope}".`,
    );
  }
  return request.apiToken;
}

/** The stored form of an error answer, as the one error handler would send it. */
function errorAnswer(error: AppError): Record<string, unknown> {
  return {
    success: false,
    code: error.code,
    message: error.message,
    ...(error.fields.length > 0 ? { fields: error.fields } : {}),
    ...error.details,
  };
}

export const integrationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    "/admin/submissions/:indexNumber/financial-clearance",
    {
      config: { tokenScope: "clearance:write" },
      preHandler: requireAdmin,
      schema: {
        tags: ["integrations"],
        operationId: "setFinancialClearance",
        summary:
          "The finance office's system sets a student's Financial Clearance (API token with clearance:write)",
        params: indexNumberParams,
        body: financialClearanceSchema,
        response: { 200: clearanceAnswerSchema },
      },
    },
    async (request) => {
      const token = tokenOf(request, "clearance:write");
      const saved = await setFinancialClearance(
        app,
        currentUser(request),
        token.name,
        request.params.indexNumber,
        request.body,
      );
      const item = saved.documents.financialClearance;
      return {
        data: {
          indexNumber: saved.indexNumber,
          financialClearance: {
            submitted: item.submitted,
            receivedOn: item.receivedOn,
            clearedBy: item.submitted ? (saved.financialClearanceBy ?? null) : null,
          },
        },
      };
    },
  );

  app.post(
    "/admin/submissions/upsert",
    {
      config: { tokenScope: "submissions:write" },
      preHandler: requireAdmin,
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        tags: ["integrations"],
        operationId: "upsertSubmissions",
        summary:
          "The registrar's upsert of submissions by index number: all records or none, with an Idempotency-Key",
        headers: idempotencyHeaders,
        body: upsertBodySchema,
        response: {
          200: importResultSchema,
          400: z.union([importRejectedSchema, errorBodySchema]),
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const token = tokenOf(request, "submissions:write");
      const key = request.headers["idempotency-key"];
      const hashed = requestHash(request.body);
      /** The key's first answer, sent again; false when the key is new. */
      const replay = async (): Promise<boolean> => {
        const first = await findAnswer(app.db, token.id, key);
        if (first === null) return false;
        if (first.requestHash !== hashed) {
          throw conflict(
            "This Idempotency-Key was used before with a different body; nothing was changed. Use a new key for a new request.",
          );
        }
        await reply
          .header("idempotent-replayed", "true")
          .code(first.status === 200 ? 200 : 400)
          .send(storedAnswerSchema.parse(first.body));
        return true;
      };
      if (await replay()) return reply;
      try {
        return await applyRecords(app, currentUser(request), request.body.records, (trx, result) =>
          storeAnswer(trx, token.id, key, { requestHash: hashed, status: 200, body: result }),
        );
      } catch (error) {
        // The same key sent twice at once: the one that committed answers both.
        if (isUniqueViolation(error)) {
          if (await replay()) return reply;
          // Another request added some of these index numbers at the same moment: not kept, so
          // the same key may be sent again.
          throw conflict(
            "Another request added some of these index numbers at the same moment; nothing was changed. Send the request again.",
          );
        }
        // A rejected list is the key's answer too; a conflict or an outage is not (sent again, it
        // may succeed).
        if (error instanceof AppError && error.code === "validation") {
          await storeAnswer(app.db, token.id, key, {
            requestHash: hashed,
            status: error.statusCode,
            body: errorAnswer(error),
          }).catch((storeError: unknown) => {
            if (!isUniqueViolation(storeError)) throw storeError;
          });
        }
        throw error;
      }
    },
  );
};

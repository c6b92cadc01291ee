import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { recordAudit } from "../accounts/audit.js";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The audit trail of API tokens (docs/decisions/022-api-tokens.md): every write made with a token
 * (whatever its answer) and every refusal for a missing scope, with the token's name, the route
 * and the status. Reads are not written one by one (the token's last use is kept on it instead):
 * a row per read would cost every read a write. Written after the answer is sent; a failure to
 * write is logged, never the client's problem.
 */
export const apiTokenAudit = fp(
  async (app: FastifyInstance) => {
    app.addHook("onResponse", async (request, reply) => {
      const token = request.apiToken;
      if (token === null) return;
      const status = reply.statusCode;
      const refused = status === 403;
      if (!refused && !UNSAFE_METHODS.has(request.method)) return;
      try {
        await recordAudit(app.db, {
          event: refused ? "api_token.refused" : "api_token.used",
          actorUserId: request.user?.id ?? null,
          ip: request.ip,
          details: {
            tokenId: token.id,
            tokenName: token.name,
            method: request.method,
            route: routeOf(request),
            status,
          },
        });
      } catch (error) {
        request.log.error({ err: error }, "could not write the API token's audit row");
      }
    });
  },
  { name: "ets-api-token-audit", dependencies: ["ets-auth"] },
);

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?")[0] ?? "";
}

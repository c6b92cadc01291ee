import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** Single sign-on through OpenID Connect, and what the login page needs to know (issue 10). */
export const ssoRoutes: FastifyPluginAsyncZod = async () => {};

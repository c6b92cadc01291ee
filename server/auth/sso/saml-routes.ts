import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** Single sign-on through SAML 2.0 (issue 10). */
export const samlRoutes: FastifyPluginAsyncZod = async () => {};

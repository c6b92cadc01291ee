import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  createUserSchema,
  meResponseSchema,
  requestCodeSchema,
  signInResponseSchema,
  signInSchema,
  successMessageSchema,
} from "../../common/accounts.js";
import { signOutResponseSchema } from "../../common/sso.js";
import { z } from "zod";
import { currentUser, requireUser } from "../auth/plugin.js";
import { oidcEndSessionUrl } from "./sso/oidc.js";
import { perAddress, perEmail } from "../auth/rate-limits.js";
import { clearSessionCookie, setSessionCookie } from "../auth/session.js";
import { changePassword, getMe, requestCode, signIn, signOut, signUp } from "./service.js";
import { SMALL_BODY_LIMIT } from "../body-limits.js";

const sessionResponseSchema = z.object({ user: meResponseSchema.shape.user.nullable() });

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  // One budget per email address for every mailed code, whether by sign-up or by request.
  const codesPerEmail = perEmail(app, "codes", limits.accountCodes);

  app.post(
    "/create_user",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      config: perAddress(limits.signUp),
      preHandler: codesPerEmail,
      schema: {
        tags: ["accounts"],
        operationId: "signUp",
        summary: "Student sign-up: mails a six-digit code (a `password` field is ignored)",
        body: createUserSchema,
        response: { 200: successMessageSchema },
      },
    },
    async (request) => {
      await signUp(app, request.body, { ip: request.ip });
      return { success: true as const, message: ACCOUNT_MESSAGES.signedUp };
    },
  );

  app.post(
    "/user_sign_in",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      config: perAddress(limits.signIn),
      schema: {
        tags: ["accounts"],
        operationId: "signIn",
        summary: "Sign in with a password or a code; sets the session cookie",
        body: signInSchema,
        response: { 200: signInResponseSchema },
      },
    },
    async (request, reply) => {
      const { session, user } = await signIn(app, request.body, {
        ip: request.ip,
        replacesSessionId: request.user?.sessionId ?? null,
      });
      setSessionCookie(reply, app.config, session);
      return {
        success: true as const,
        message: ACCOUNT_MESSAGES.signedIn,
        token: session.token,
        user,
      };
    },
  );

  app.post(
    "/logout",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["accounts"],
        operationId: "signOut",
        summary:
          "End the session (answers success when there was none); `redirectTo` is the provider's sign-out after a single sign-on",
        response: { 200: signOutResponseSchema },
      },
    },
    async (request, reply) => {
      const user = request.user;
      if (user) await signOut(app.db, user, { ip: request.ip });
      clearSessionCookie(reply, app.config);
      // Ending our session leaves the person signed in at the provider, which would sign them
      // straight back in; where the provider offers it, the web goes on to its sign-out page.
      const redirectTo = user?.signInMethod === "oidc" ? await oidcEndSessionUrl(app.config) : null;
      return redirectTo ? { success: true as const, redirectTo } : { success: true as const };
    },
  );

  app.get(
    "/me",
    {
      onRequest: requireUser,
      schema: {
        tags: ["accounts"],
        operationId: "getCurrentUser",
        summary: "The signed-in user",
        response: { 200: meResponseSchema },
      },
    },
    async (request) => ({ user: await getMe(app.db, currentUser(request)) }),
  );

  // The web app's first question on every page: who, if anyone, is signed in. Unlike /me, nobody
  // signed in is an answer, not a failure, so a signed-out first visit logs no 401 in the console.
  app.get(
    "/session",
    {
      schema: {
        tags: ["accounts"],
        operationId: "getSession",
        summary: "The signed-in user, or null when nobody is signed in",
        response: { 200: sessionResponseSchema },
      },
    },
    async (request, reply) => {
      // Per person and changed by every sign-in and sign-out: never kept by a cache.
      reply.header("cache-control", "no-store");
      return { user: request.user ? await getMe(app.db, request.user) : null };
    },
  );

  app.post(
    "/request_code",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      config: perAddress(limits.codeRequest),
      preHandler: codesPerEmail,
      schema: {
        tags: ["accounts"],
        operationId: "requestSignInCode",
        summary: "Mail a new code to a student account (same answer whether it exists or not)",
        body: requestCodeSchema,
        response: { 200: successMessageSchema },
      },
    },
    async (request) => {
      await requestCode(app, request.body, { ip: request.ip });
      return { success: true as const, message: ACCOUNT_MESSAGES.codeRequested };
    },
  );

  app.post(
    "/change_password",
    {
      bodyLimit: SMALL_BODY_LIMIT,
      onRequest: requireUser,
      schema: {
        tags: ["accounts"],
        operationId: "changePassword",
        summary: "Set the signed-in user's password",
        body: changePasswordSchema,
        response: { 200: successMessageSchema },
      },
    },
    async (request) => {
      await changePassword(app, currentUser(request), request.body, { ip: request.ip });
      return { success: true as const, message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );
};

import { z } from "zod";
import { SSO_PROVIDERS } from "./sso-constants.js";

/**
 * Single sign-on (issue 10, docs/decisions/010-single-sign-on.md): what the login page learns
 * about the providers, and the sign-out answer. The providers, the failures and their messages
 * live in ./sso-constants.ts (no zod) and are re-exported here, so every importer keeps working.
 */

export {
  SSO_PROVIDERS,
  SSO_FAILURES,
  SSO_FAILURE_MESSAGES,
  isSsoFailure,
  type SsoProvider,
  type SsoFailure,
} from "./sso-constants.js";

/** GET /api/auth/sso: what the login page shows above the form. */
export const ssoOptionsSchema = z.object({
  /** One button per configured provider: "Sign in with <label>", a plain link to `startHref`. */
  providers: z.array(
    z.object({
      provider: z.enum(SSO_PROVIDERS),
      label: z.string(),
      startHref: z.string(),
    }),
  ),
  /** ETS_LOCAL_SIGN_IN: which of the code sign-up and password sign-in forms still show. */
  localSignIn: z.enum(["on", "admins-only", "off"]),
});
export type SsoOptions = z.infer<typeof ssoOptionsSchema>;
export const ssoOptionsResponseSchema = z.object({ data: ssoOptionsSchema });

/**
 * POST /api/logout: `redirectTo` is added only when the session began with a provider that can
 * sign the person out too (OpenID Connect's end_session_endpoint); the web then goes there.
 * Sessions begun otherwise get `{ success: true }` as before.
 */
export const signOutResponseSchema = z.object({
  success: z.literal(true),
  redirectTo: z.string().optional(),
});
export type SignOutResponse = z.infer<typeof signOutResponseSchema>;

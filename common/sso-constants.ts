/**
 * Single sign-on (issue 10, docs/decisions/010-single-sign-on.md): the providers, and why a
 * sign-in through one was refused. The server redirects back to `/auth/login?sso_error=<failure>`
 * and the page shows the failure's message, never an error page.
 *
 * Plain constants without zod, apart from ./sso.ts (which re-exports them beside its schemas), so
 * the login page can show a failure's words without loading zod (issue 11: JavaScript on the first
 * load).
 */

export const SSO_PROVIDERS = ["oidc", "saml"] as const;
export type SsoProvider = (typeof SSO_PROVIDERS)[number];

export const SSO_FAILURES = [
  "unreachable",
  "cancelled",
  "invalid_response",
  "expired",
  "email_not_verified",
  "no_email",
  "no_submission",
  "email_mismatch",
  "account_taken",
  "deactivated",
  "not_allowed",
  "local_sign_in_off",
  "rate_limited",
] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

/** The login page's words for each failure; the same on every provider. */
export const SSO_FAILURE_MESSAGES: Record<SsoFailure, string> = {
  unreachable:
    "The university's sign-in service could not be reached. Please try again in a few minutes.",
  cancelled: "Sign-in was cancelled. You can try again when you are ready.",
  invalid_response:
    "The university's sign-in service sent an answer we could not accept. Please try again; if it keeps happening, contact the School of Graduate Studies.",
  expired: "The sign-in took too long or was already used. Please start again.",
  email_not_verified:
    "Your university account's email address is not verified. Verify it with the university's IT service, then try again.",
  no_email:
    "Your university account did not give us an email address, so we cannot tell who you are. Contact the School of Graduate Studies.",
  no_submission:
    "We could not find a thesis submission for your university account. Contact the School of Graduate Studies to have your record added.",
  email_mismatch:
    "The submission for your index number is registered to another email address. Contact the School of Graduate Studies.",
  account_taken:
    "The submission for your index number already has an account under another email address. Contact the School of Graduate Studies.",
  deactivated: "Your account has been deactivated. Contact the School of Graduate Studies.",
  not_allowed:
    "Your university account does not give access to ETS Tracking. Students need a thesis submission on record; staff need to be in an administrators' group.",
  local_sign_in_off: "Sign in with your university account.",
  rate_limited:
    "Too many sign-in attempts have come from your network in the last minute. Please wait a minute, then try again.",
};

export function isSsoFailure(value: string | null | undefined): value is SsoFailure {
  return (SSO_FAILURES as readonly string[]).includes(value ?? "");
}

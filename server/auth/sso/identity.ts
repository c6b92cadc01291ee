import type { FastifyReply, FastifyRequest } from "fastify";
import type { SsoFailure, SsoProvider } from "../../../common/sso.js";

/**
 * Who a person signed in through single sign-on becomes (issue 10), the same for OpenID Connect
 * and SAML: the protocol modules verify the provider's answer and turn it into an SsoIdentity;
 * this module decides which account it is, and starts the same server-side session as a password
 * sign-in.
 */
export interface SsoIdentity {
  provider: SsoProvider;
  /** The provider's stable id for the person: ID token `sub`, or the assertion's NameID. */
  subject: string;
  /** Lower case; null when the provider sent none. */
  email: string | null;
  /** OIDC `email_verified`; SAML assertions from the institution's IdP count as verified. */
  emailVerified: boolean;
  indexNumber: string | null;
  groups: string[];
  name: string | null;
}

export type SsoResolution =
  | { ok: true; userId: number; role: "student" | "admin"; email: string; created: boolean }
  | { ok: false; failure: SsoFailure };

/**
 * Finishes a verified sign-in: resolves the account, creates the session and its cookie, audits,
 * and redirects to the user's home page; or redirects to `/auth/login?sso_error=<failure>`.
 * Implemented with the OpenID Connect side; the SAML side calls it the same way.
 */
export async function finishSsoSignIn(
  _request: FastifyRequest,
  reply: FastifyReply,
  _identity: SsoIdentity,
): Promise<FastifyReply> {
  return refuseSsoSignIn(reply, "not_allowed");
}

/** A protocol failure (provider unreachable, cancelled, bad response): back to the login page. */
export function refuseSsoSignIn(reply: FastifyReply, failure: SsoFailure): FastifyReply {
  return reply.redirect(`/auth/login?sso_error=${failure}`, 303);
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SsoOptions } from "../../../../common/sso.js";
import { SSO_PROVIDERS } from "../../../../common/sso-constants.js";
import { api, unwrap } from "../../../lib/api-client.js";

const LOCAL_SIGN_IN: readonly string[] = ["on", "admins-only", "off"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isProvider(value: unknown): value is SsoOptions["providers"][number] {
  return (
    isRecord(value) &&
    (SSO_PROVIDERS as readonly unknown[]).includes(value.provider) &&
    typeof value.label === "string" &&
    typeof value.startHref === "string"
  );
}

/**
 * The shape common/sso.ts's ssoOptionsResponseSchema describes, checked by hand: the login and
 * sign-up pages read this on their first load, and zod (about 30 kB) would otherwise come with
 * them (issue 11). A reply of another shape is a failed query, as the schema's parse made it, so
 * the page shows the form without single sign-on.
 */
export function readSsoOptions(answer: unknown): SsoOptions {
  const data = isRecord(answer) ? answer.data : undefined;
  if (
    isRecord(data) &&
    Array.isArray(data.providers) &&
    data.providers.every(isProvider) &&
    typeof data.localSignIn === "string" &&
    LOCAL_SIGN_IN.includes(data.localSignIn)
  ) {
    return {
      providers: data.providers.map(({ provider, label, startHref }) => ({
        provider,
        label,
        startHref,
      })),
      localSignIn: data.localSignIn as SsoOptions["localSignIn"],
    };
  }
  throw new Error("The single sign-on options had an unexpected shape.");
}

/**
 * GET /api/auth/sso: the "Sign in with <label>" buttons and which local sign-ins stay
 * (ETS_LOCAL_SIGN_IN). They change only with the server's configuration, so they are read once.
 */
export async function fetchSsoOptions(): Promise<SsoOptions> {
  return readSsoOptions(await unwrap(api.GET("/api/auth/sso")));
}

export const ssoOptionsQuery = queryOptions({
  queryKey: ["auth", "sso"],
  queryFn: fetchSsoOptions,
  staleTime: Infinity,
});

export function useSsoOptions() {
  return useQuery(ssoOptionsQuery);
}

/**
 * The start link for a provider, carrying the page to come back to (a path of this site only;
 * the server checks it again).
 */
export function ssoStartHref(startHref: string, next: string | null): string {
  return next ? `${startHref}?returnTo=${encodeURIComponent(next)}` : startHref;
}

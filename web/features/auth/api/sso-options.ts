import { queryOptions, useQuery } from "@tanstack/react-query";
import { ssoOptionsResponseSchema, type SsoOptions } from "../../../../common/sso.js";
import { api } from "../../../lib/api-client.js";

/**
 * GET /api/auth/sso: the "Sign in with <label>" buttons and which local sign-ins stay
 * (ETS_LOCAL_SIGN_IN). They change only with the server's configuration, so they are read once.
 */
export async function fetchSsoOptions(): Promise<SsoOptions> {
  return ssoOptionsResponseSchema.parse(await api.get<unknown>("/auth/sso")).data;
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

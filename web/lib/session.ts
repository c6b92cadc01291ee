import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SignOutResponse } from "../../common/sso.js";
import { api, unwrap } from "./api-client.js";

/**
 * Who is signed in. The server's session (HttpOnly cookie) is the truth, read through GET
 * /api/session, which answers `user: null` when nobody is signed in: a signed-out first visit
 * then logs no failed request in the console (GET /api/me answers 401 there, as its contract says).
 * Browser storage keeps only role and index number, as the prototype did, so the top bar can render
 * before the probe answers; it never grants access.
 */
export type Role = "student" | "admin";

export interface Me {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  indexNumber: string | null;
  hasPassword?: boolean;
}

const ROLE_KEY = "role";
const INDEX_KEY = "indexNumber";

export const meQuery = queryOptions({
  queryKey: ["me"],
  queryFn: async (): Promise<Me | null> => {
    const { user }: { user: Me | null } = await unwrap(api.GET("/api/session"));
    if (user) rememberSession(user);
    else forgetSession();
    return user;
  },
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}

export function rememberSession(user: { role: Role; indexNumber: string | null }): void {
  try {
    localStorage.setItem(ROLE_KEY, user.role);
    if (user.indexNumber) localStorage.setItem(INDEX_KEY, user.indexNumber);
    else localStorage.removeItem(INDEX_KEY);
  } catch {
    // Storage may be unavailable (private mode); the server session still works.
  }
}

export function forgetSession(): void {
  try {
    localStorage.removeItem(ROLE_KEY);
    localStorage.removeItem(INDEX_KEY);
    localStorage.removeItem("token");
  } catch {
    // Nothing stored, nothing to forget.
  }
}

export function storedRole(): Role | null {
  try {
    const role = localStorage.getItem(ROLE_KEY);
    return role === "admin" || role === "student" ? role : null;
  } catch {
    return null;
  }
}

/** Ends the server session, removes the stored values, goes home and reloads (the prototype's logout). */
export async function logout(): Promise<void> {
  // A session begun at the university's OpenID Connect provider also ends there: the server says
  // where (its end-session address), and that page sends the browser back to our login page.
  let redirectTo: string | undefined;
  try {
    const answer: SignOutResponse = await unwrap(api.POST("/api/logout"));
    redirectTo = answer?.redirectTo;
  } catch {
    // Even if the server is unreachable, the browser forgets the session.
  }
  forgetSession();
  window.location.assign(redirectTo ?? "/");
}

export function homeFor(role: Role): string {
  return role === "admin" ? "/admin" : "/dashboard";
}

import { redirect, type LoaderFunctionArgs } from "react-router";
import { meQuery, type Me } from "../lib/session.js";
import { queryClient } from "./query-client.js";

/**
 * Route guards run as loaders, before any protected page renders or fetches. They ask the server
 * who is signed in; the server still checks every API call on its own.
 */
function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const next = `${url.pathname}${url.search}`;
  return redirect(`/auth/login?next=${encodeURIComponent(next)}`);
}

async function currentUser(): Promise<Me | null> {
  return queryClient.ensureQueryData(meQuery);
}

export async function requireUserLoader({ request }: LoaderFunctionArgs) {
  const me = await currentUser();
  if (!me) throw loginRedirect(request);
  // An administrator has no student dashboard: send them to theirs.
  if (me.role === "admin") throw redirect("/admin");
  return me;
}

export async function requireAdminLoader({ request }: LoaderFunctionArgs) {
  const me = await currentUser();
  if (!me) throw loginRedirect(request);
  // A student who opens /admin goes to their own dashboard, never sees admin data.
  if (me.role !== "admin") throw redirect("/dashboard");
  return me;
}

/** Only same-site paths are followed after sign-in (no open redirect). */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\"))
    return null;
  return next;
}

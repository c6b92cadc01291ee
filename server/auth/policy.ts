import type { SessionUser } from "./session.js";

/**
 * Access rules in one place. Routes ask here; they never compare roles themselves.
 */
export function canReadSubmission(user: SessionUser, indexNumber: string): boolean {
  return user.role === "admin" || (user.indexNumber !== null && user.indexNumber === indexNumber);
}

export function isAdmin(user: SessionUser | null): boolean {
  return user?.role === "admin";
}
